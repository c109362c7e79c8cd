import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireFamily } from "~/admins/session.server";
import * as s from "~/components/admin/admin.css";
import * as l from "~/components/admin/LifeStoryForms.css";
import { GuidedDraftForm, MomentForm, StoryForm } from "~/components/admin/LifeStoryForms";
import { PartialDate } from "~/components/LifeStory";
import { composeDraft } from "~/life/guided-draft";
import {
  DRAFT_WRITTEN,
  DraftInput,
  MOMENT_ADDED,
  MOMENT_DELETED,
  MOMENT_SAVED,
  MomentInput,
  QUESTIONS,
  STORY_PUBLISHED,
  STORY_SAVED,
  STORY_UNPUBLISHED,
  StoryInput,
} from "~/life/life.schema";
import { uploadedLifePhoto } from "~/life/life-photo.server";
import { LifePhotoForm } from "~/components/admin/LifePhotoForm";
import { StoryTranslationForm, type StoryTranslationReply } from "~/components/admin/StoryTranslationForm";
import { splitStoryLanguages, STORY_TRANSLATION_INTENT, storyTranslationAnchor } from "~/life/life-translations";
import { getStoryTranslations, saveStoryTranslations } from "~/life/life-translations.server";
import { isLanguage } from "~/i18n/languages";
import { addMoment, choosablePhotos, deleteMoment, getAdminLife, saveAnswers, saveStory, updateMoment } from "~/life/life.server";
import { PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { asRefusal } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";
import { getSiteSettings } from "~/site/settings.server";
import { formChange } from "~/site/settings-sections";
import * as ui from "~/styles/ui.css";
import { idParam } from "~/utils/moderation";

// The Life Story tab: the guided questions, the story, its timeline, and
// publishing it. Every form works without JavaScript.

/** The story, its timeline and the questions' answers: with a 30,000-character story in any script, room to spare. */
const MAX_LIFE_FORM_BYTES = 512 * 1024;
const NOT_SAVED = { title: "Not Saved", description: "The life story could not be saved.", type: "destructive" } as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamily(request);
  const settings = getSiteSettings();
  return json(
    {
      life: getAdminLife(),
      person: {
        birthDate: settings.birthDate,
        birthPlace: settings.birthPlace,
        deathDate: settings.deathDate,
        deathPlace: settings.deathPlace,
      },
      photos: choosablePhotos(),
      uploadedPhoto: uploadedLifePhoto(),
      mainLanguage: settings.mainLanguage,
      otherLanguages: settings.languages.filter((language) => language !== settings.mainLanguage),
      translations: getStoryTranslations(),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

type FormName = "draft" | "story" | "moment";

/** A refused form: its reply (what was typed kept), and for the questions, the draft they did not make. */
const refused = (form: FormName, result: SubmissionResult<string[]>, status = 400, headers?: HeadersInit) =>
  json({ form, result: result as SubmissionResult<string[]> | null, draft: null as string | null }, { status, headers });

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireFamily(request);
  const form = await readFormData(request, MAX_LIFE_FORM_BYTES);
  const intent = String(form.get("intent") ?? "");
  const which: FormName = intent === "draft" ? "draft" : intent.endsWith("moment") ? "moment" : "story";
  const schema = which === "draft" ? DraftInput : which === "moment" ? MomentInput : StoryInput;

  if (intent === STORY_TRANSLATION_INTENT) return saveTranslation(form, admin);
  if (intent === "delete-moment") {
    const id = idParam(String(form.get("id") ?? ""));
    const deleted = id !== null && deleteMoment(id, admin);
    return redirectWithToast(
      "/admin/life#timeline",
      deleted ? MOMENT_DELETED : { ...NOT_SAVED, description: "That moment was already deleted." },
    );
  }
  if (!["draft", "save", "publish", "unpublish", "add-moment", "save-moment"].includes(intent))
    return redirectWithToast("/admin/life", NOT_SAVED);

  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return refused(which, submission.reply());
  try {
    if (intent === "draft") {
      const value = submission.value as DraftInput;
      const { birthDate, birthPlace, deathDate, deathPlace, ...answers } = value;
      // The form sends all four: one left empty clears its setting, as in the Site tab.
      const person = formChange(["birthDate", "birthPlace", "deathDate", "deathPlace"], { birthDate, birthPlace, deathDate, deathPlace });
      const saved = await saveAnswers(person, answers, admin);
      if (!saved.ok) return refused("draft", submission.reply({ fieldErrors: saved.errors }));
      const name = getSiteSettings().personName;
      const born = { date: birthDate ?? "", place: birthPlace ?? "" };
      const draft = composeDraft({ name, born, died: { date: deathDate ?? "", place: deathPlace ?? "" } }, answers);
      return json({ form: which, result: null as SubmissionResult<string[]> | null, draft });
    }
    if (which === "story") {
      const published = intent === "publish" ? true : intent === "unpublish" ? false : undefined;
      saveStory(submission.value as StoryInput, admin, published);
      return redirectWithToast(
        "/admin/life#life-story",
        published === true ? STORY_PUBLISHED : published === false ? STORY_UNPUBLISHED : STORY_SAVED,
      );
    }
    const moment = submission.value as MomentInput;
    if (intent === "add-moment") {
      addMoment(moment, admin);
      return redirectWithToast("/admin/life#timeline", MOMENT_ADDED);
    }
    const id = idParam(String(form.get("id") ?? ""));
    if (id === null || !updateMoment(id, moment, admin))
      return refused("moment", submission.reply({ formErrors: ["That moment was deleted meanwhile. Add it again below."] }), 404);
    return redirectWithToast("/admin/life#timeline", MOMENT_SAVED);
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    const reply =
      refusal.field === "photoId"
        ? submission.reply({ fieldErrors: { photoId: [refusal.message] } })
        : submission.reply({ formErrors: [refusal.message] });
    return refused(which, reply, refusal.status, refusal.headers);
  }
}

/** The story in one of the site's other languages (an empty one removed: visitors read the main language's). */
function saveTranslation(form: FormData, admin: Parameters<typeof saveStoryTranslations>[1]) {
  const language = form.get("language");
  const value = String(form.get("story") ?? "");
  const main = getSiteSettings().mainLanguage;
  if (!isLanguage(language) || language === main) return redirectWithToast("/admin/life", NOT_SAVED);
  const { check } = splitStoryLanguages(undefined, { [language]: { story: value } }, main);
  if (!check.ok) {
    const errors = Object.values(check.errors).flat();
    return json({ form: "translation", language, value, errors } satisfies StoryTranslationReply, { status: 400 });
  }
  saveStoryTranslations(check.patch, admin);
  return redirectWithToast(`/admin/life#${storyTranslationAnchor(language)}`, STORY_SAVED);
}

/**
 * Changes when what is saved of the story changes (so a save gives a fresh
 * form), and not when another form of the tab is saved (which would throw
 * away what is typed in this one): a short digest of the saved story.
 */
function savedStoryKey(life: { story: string; photoId: number | null; published: boolean }) {
  let hash = 0;
  for (let i = 0; i < life.story.length; i++) hash = (Math.imul(hash, 31) + life.story.charCodeAt(i)) | 0;
  return `story-${hash}-${life.story.length}-${life.photoId ?? "none"}-${life.published}`;
}

export default function LifeStoryTab() {
  const { life, person, photos, uploadedPhoto, mainLanguage, otherLanguages, translations } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const translationReply = answer && answer.form === "translation" ? (answer as StoryTranslationReply) : undefined;
  const actionData = answer && answer.form !== "translation" ? answer : undefined;
  const [params] = useSearchParams();
  const editing = life.moments.find((moment) => String(moment.id) === params.get("edit"));
  const reply = (form: FormName) => (actionData?.form === form ? (actionData.result ?? undefined) : undefined);
  const draft = actionData?.draft ?? null;
  const answered = QUESTIONS.some((question) => life.answers[question.name]);
  const questions = (
    <GuidedDraftForm key={answered ? "answered" : "new"} answers={life.answers} person={person} lastResult={reply("draft")} />
  );
  // A family starting out answers the questions first; once there is a story, it comes first.
  const questionsFirst = !life.story && draft === null;
  return (
    <>
      {questionsFirst ? questions : null}
      {/* A fresh form after each save; a draft from the questions replaces what the box shows, not what is saved. */}
      <StoryForm
        key={draft ?? savedStoryKey(life)}
        story={draft ?? life.story}
        photoId={life.photoId}
        published={life.published}
        photos={photos}
        uploaded={uploadedPhoto !== null}
        lastResult={reply("story")}
        note={
          draft !== null
            ? `${DRAFT_WRITTEN.description} The dates and places you gave are saved (they show under the name); the story is not saved or published until you press a button below.`
            : undefined
        }
      />

      {otherLanguages.map((language) => (
        <StoryTranslationForm
          key={`${language}:${translations[language]?.story.length ?? 0}:${translations[language]?.story.slice(0, 40) ?? ""}`}
          language={language}
          mainLanguage={mainLanguage}
          mainStory={life.story}
          story={translations[language]?.story ?? ""}
          reply={translationReply?.language === language ? translationReply : undefined}
        />
      ))}

      <LifePhotoForm photo={uploadedPhoto} />

      <h2 id="timeline" tabIndex={-1}>
        Timeline ({life.moments.length})
      </h2>
      {life.moments.length === 0 ? (
        <p className={ui.emptyState}>No moments yet. Add the first below: a birth, a wedding, a move, a new job.</p>
      ) : (
        <ol className={l.momentList}>
          {life.moments.map((moment) => (
            <li key={moment.id} className={l.momentRow}>
              <PartialDate value={moment.date} /> · <strong>{moment.title}</strong>
              {moment.photoId !== null ? <span className={ui.muted}> (with a photo)</span> : null}
              {moment.text ? <p className={s.cardText}>{moment.text}</p> : null}
              <div className={s.actions}>
                <Link
                  to={`/admin/life?edit=${moment.id}#moment-form`}
                  className={ui.button.secondary}
                  aria-label={`Change the moment ${moment.title}`}
                >
                  Change
                </Link>
                <Form method="post" action="/admin/life#timeline">
                  <input type="hidden" name="id" value={moment.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="delete-moment"
                    className={ui.button.danger}
                    aria-label={`Delete the moment ${moment.title}`}
                  >
                    Delete
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ol>
      )}
      <div id="moment-form">
        <MomentForm
          key={`${editing?.id ?? "new"}-${life.moments.map((moment) => moment.id).join(",")}`}
          moment={editing}
          photos={photos}
          lastResult={reply("moment")}
        />
      </div>

      {questionsFirst ? null : questions}
    </>
  );
}
