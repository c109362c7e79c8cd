import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { ErrorList, Field, FormAlert, TextareaField } from "~/components/forms";
import { useZodForm } from "~/components/useZodForm";
import { DraftInput, MomentInput, QUESTIONS, StoryInput, type Answers, type ChoosablePhoto, type MomentView } from "~/life/life.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./admin.css";
import * as l from "./LifeStoryForms.css";

type Result = SubmissionResult<string[]> | undefined;

const busy = (navigation: ReturnType<typeof useNavigation>, intent: string) =>
  navigation.state === "submitting" && navigation.formData?.get("intent") === intent;

/**
 * Published gallery photos as radio buttons with their thumbnails, "No photo"
 * first: works without JavaScript, and a text browser lists them.
 */
function PhotoChoice({
  name,
  formId,
  legend,
  photos,
  selected,
  errors,
  none = "No photo",
}: {
  name: string;
  formId: string;
  legend: string;
  photos: ChoosablePhoto[];
  selected: number | null;
  errors?: string[];
  /** What choosing none of them means. */
  none?: string;
}) {
  const errorId = `${formId}-${name}-error`;
  return (
    <details className={l.photoChoice} open={selected !== null || Boolean(errors?.length)}>
      <summary className={l.photoSummary}>{legend}</summary>
      <fieldset className={l.photoFieldset} aria-describedby={errors?.length ? errorId : undefined}>
        <legend className={ui.visuallyHidden}>{legend}</legend>
        {photos.length === 0 ? <p className={ui.muted}>There are no published photos in the gallery yet.</p> : null}
        <ul className={l.photoGrid}>
          {/* A photo chosen before that is no longer offered (older than those listed, or out of the gallery for now) is kept unless changed. */}
          {selected !== null && !photos.some((photo) => photo.id === selected) ? (
            <li className={l.photoItem}>
              <label className={l.photoLabel}>
                <input type="radio" name={name} value="keep" form={formId} defaultChecked /> Keep the photo chosen before
              </label>
            </li>
          ) : null}
          <li className={l.photoItem}>
            <label className={l.photoLabel}>
              <input type="radio" name={name} value="" form={formId} defaultChecked={selected === null} /> {none}
            </label>
          </li>
          {photos.map((photo) => (
            <li key={photo.id} className={l.photoItem}>
              <label className={l.photoLabel}>
                <input type="radio" name={name} value={photo.id} form={formId} defaultChecked={selected === photo.id} />
                <img src={photo.thumbnailUrl} alt={photo.label} className={l.photoThumb} loading="lazy" width="96" height="96" />
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <ErrorList id={errorId} errors={errors} />
    </details>
  );
}

/** The photo a refused form was sent with (a page without JavaScript shows it chosen again), else `saved`. */
function chosenPhoto(sent: unknown, saved: number | null): number | null {
  if (typeof sent !== "string" || sent === "keep") return saved;
  return /^\d+$/.test(sent) ? Number(sent) : null;
}

/** The guided questions: the dates and places, then plain questions; the answers become a first draft below. */
export function GuidedDraftForm({
  answers,
  person,
  lastResult,
}: {
  answers: Answers;
  person: { birthDate: string; birthPlace: string; deathDate: string; deathPlace: string };
  lastResult: Result;
}) {
  const navigation = useNavigation();
  const { form, control } = useZodForm("life-questions", DraftInput, { lastResult, defaultValue: { ...person, ...answers } });
  return (
    <Form method="post" action="/admin/life#life-story" {...getFormProps(form)} className={s.form} id="life-questions">
      <h2 className={s.sectionTitle}>Write a first draft</h2>
      <p className={ui.muted}>
        Answer what you can and leave the rest empty. Your answers become a first draft of the life story below, for you to edit. They are
        kept here, and nothing is sent anywhere. The dates and places are the Site tab&apos;s: they are saved at once and show under the
        name.
      </p>
      <FormAlert title="Not Saved" messages={form.errors} />
      <Field
        label="When were they born?"
        hint="A year, a month or a day: 1942, 1942-03 or 1942-03-14."
        {...parts(control("birthDate", "text"))}
      />
      <Field label="Where were they born?" {...parts(control("birthPlace", "text"))} />
      <Field
        label="When did they die?"
        hint="A year, a month or a day: 2026, 2026-01 or 2026-01-09."
        {...parts(control("deathDate", "text"))}
      />
      <Field label="Where did they die?" {...parts(control("deathPlace", "text"))} />
      {QUESTIONS.map((question) => {
        const field = control(question.name, "textarea");
        return (
          <TextareaField
            key={question.name}
            label={question.label}
            hint={question.hint}
            errors={field.errors}
            errorId={field.errorId}
            textareaProps={{ ...field.props, rows: 3 }}
          />
        );
      })}
      <button type="submit" name="intent" value="draft" className={ui.button.primary} disabled={busy(navigation, "draft")}>
        {busy(navigation, "draft") ? "Writing..." : "Write the first draft"}
      </button>
    </Form>
  );
}

const parts = (field: ReturnType<ReturnType<typeof useZodForm>["control"]>) => ({
  errors: field.errors,
  errorId: field.errorId,
  inputProps: field.props,
});

/** The story itself, its photo, and saving or publishing it. */
export function StoryForm({
  story,
  photoId,
  published,
  photos,
  uploaded,
  lastResult,
  note,
}: {
  story: string;
  photoId: number | null;
  published: boolean;
  photos: ChoosablePhoto[];
  /** Whether the family uploaded a photo for the page (shown when none is chosen here). */
  uploaded: boolean;
  lastResult: Result;
  note?: string;
}) {
  const navigation = useNavigation();
  const { form, control, fields } = useZodForm("life-story-form", StoryInput, { lastResult, defaultValue: { story } });
  const text = control("story", "textarea");
  return (
    <Form method="post" action="/admin/life#life-story" {...getFormProps(form)} className={s.form}>
      <h2 className={s.sectionTitle} id="life-story" tabIndex={-1}>
        The life story
      </h2>
      <p className={published ? l.statusPublished : l.statusDraft} role="status">
        {published ? "Published: visitors can read it at /life." : "Not published yet: visitors see no life story."}
      </p>
      {published ? (
        <p>
          <Link to="/life" className={ui.button.secondary}>
            See the page as visitors do
          </Link>
        </p>
      ) : null}
      {note ? <p className={l.note}>{note}</p> : null}
      <FormAlert title="Not Saved" messages={form.errors} />
      <TextareaField
        label="Life story"
        hint="Leave a blank line between paragraphs. Start a line with ## for a heading, or with - for a list."
        errors={text.errors}
        errorId={text.errorId}
        textareaProps={{ ...text.props, rows: 16 }}
      />
      <PhotoChoice
        name="photoId"
        formId={form.id}
        legend="Photo for the page"
        photos={photos}
        selected={chosenPhoto(fields.photoId.initialValue, photoId)}
        errors={fields.photoId.errors}
        none={uploaded ? "The photo uploaded below" : "No photo"}
      />
      <div className={s.actions}>
        <button type="submit" name="intent" value="save" className={ui.button.primary} disabled={busy(navigation, "save")}>
          {published ? "Save changes" : "Save draft"}
        </button>
        <button
          type="submit"
          name="intent"
          value={published ? "unpublish" : "publish"}
          className={ui.button.secondary}
          disabled={busy(navigation, published ? "unpublish" : "publish")}
        >
          {published ? "Save and unpublish" : "Save and publish"}
        </button>
      </div>
    </Form>
  );
}

/** Adds a moment, or (with `moment`) changes one. */
export function MomentForm({ moment, photos, lastResult }: { moment?: MomentView; photos: ChoosablePhoto[]; lastResult: Result }) {
  const navigation = useNavigation();
  const id = moment ? `moment-${moment.id}` : "add-moment";
  const { form, control, fields } = useZodForm(id, MomentInput, {
    lastResult,
    defaultValue: moment ? { date: moment.date, title: moment.title, text: moment.text } : undefined,
  });
  const intent = moment ? "save-moment" : "add-moment";
  const text = control("text", "textarea");
  return (
    // A refused change comes back to this same form (?edit=), never to the "Add a moment" one.
    <Form
      method="post"
      action={moment ? `/admin/life?edit=${moment.id}#moment-form` : "/admin/life#timeline"}
      {...getFormProps(form)}
      className={s.form}
    >
      <h3 className={s.sectionTitle}>{moment ? `Change “${moment.title}”` : "Add a moment"}</h3>
      <FormAlert title="Not Saved" messages={form.errors} />
      {moment ? <input type="hidden" name="id" value={moment.id} /> : null}
      <Field label="Date" hint="A year, a month or a day: 1965, 1965-06 or 1965-06-12." {...parts(control("date", "text"))} />
      <Field label="Title" hint="For example “Married Mary in Galway”." {...parts(control("title", "text"))} />
      <TextareaField
        label="A sentence or two (optional)"
        errors={text.errors}
        errorId={text.errorId}
        textareaProps={{ ...text.props, rows: 3 }}
      />
      <PhotoChoice
        name="photoId"
        formId={form.id}
        legend="Photo (optional)"
        photos={photos}
        selected={chosenPhoto(fields.photoId.initialValue, moment?.photoId ?? null)}
        errors={fields.photoId.errors}
      />
      <div className={s.actions}>
        <button type="submit" name="intent" value={intent} className={ui.button.primary} disabled={busy(navigation, intent)}>
          {moment ? "Save moment" : "Add moment"}
        </button>
        {moment ? (
          <a href="/admin/life#timeline" className={ui.button.secondary}>
            Cancel
          </a>
        ) : null}
      </div>
    </Form>
  );
}
