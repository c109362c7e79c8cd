import type { FollowTopic } from "../../db/schema";
import type { FollowOffer } from "~/remembrance/follow.constants";
import type { Translator } from "~/i18n/words";
import * as ui from "~/styles/ui.css";
import * as s from "./FollowForm.css";

const f = s;

/** The topics in the form's order (db/schema's FOLLOW_TOPICS, which the browser must not load). */
const TOPICS: readonly FollowTopic[] = ["service", "new", "reminders"];

// "Remember with us": name, e-mail and what to hear about, posted to /follow
// as a plain form (the same with JavaScript or without: the page that
// answers says to check one's e-mail). On /follow, where a refusal shows its
// messages beside the fields; the home page and the guest book get it as
// HTML from their loaders (app/routes/follow-form.server.ts). Plain elements
// in the forms' styles, so it needs nothing else. Its words come in the
// visitor's language as `words` (the server's `translate`, or `useT`).

type Errors = Record<string, string[] | null | undefined>;

function Messages({ id, errors, tError }: { id: string; errors?: string[] | null; tError: Translator["tError"] }) {
  return errors?.length ? (
    <ul id={id} className={f.errors}>
      {errors.map((error) => (
        <li key={error}>{tError(error)}</li>
      ))}
    </ul>
  ) : null;
}

export function FollowForm({
  offer,
  id = "follow",
  errors = {},
  values,
  intro,
  words,
}: {
  offer: FollowOffer;
  id?: string;
  errors?: Errors;
  values?: { name?: string; email?: string; topics?: string[] };
  /** The sentence under the heading (the usual one when not given), or none. */
  intro?: string | null;
  /** The words of the `follow` catalog in the visitor's language, and the schema's messages in it. */
  words: Pick<Translator, "t" | "tError">;
}) {
  const { t, tError } = words;
  const introText = intro === undefined ? t("follow.intro") : intro;
  const field = (name: "name" | "email", label: string) => (
    <div className={f.field}>
      <label htmlFor={`${id}-${name}`} className={f.label}>
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={name === "email" ? "email" : "text"}
        autoComplete={name}
        required
        maxLength={name === "name" ? 100 : 254}
        defaultValue={values?.[name] ?? ""}
        className={f.input}
        {...(errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `${id}-${name}-error` } : {})}
      />
      <Messages id={`${id}-${name}-error`} errors={errors[name]} tError={tError} />
    </div>
  );
  return (
    <section className={s.card_} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("follow.title")}</h2>
      {introText ? <p>{introText}</p> : null}
      <form method="post" action="/follow" id={id} noValidate>
        {field("name", t("follow.form.name"))}
        {field("email", t("follow.form.email"))}
        <fieldset className={s.topics} aria-describedby={errors.topics?.length ? `${id}-topics-error` : undefined}>
          <legend className={s.legend}>{t("follow.form.legend")}</legend>
          {TOPICS.filter((topic) => offer[topic]).map((topic) => (
            <div key={topic} className={f.checkboxRow}>
              <input
                id={`${id}-${topic}`}
                type="checkbox"
                name="topics"
                value={topic}
                defaultChecked={values?.topics ? values.topics.includes(topic) : true}
                className={f.checkbox}
              />
              <label htmlFor={`${id}-${topic}`}>{t(`follow.topics.${topic}`)}</label>
            </div>
          ))}
          <Messages id={`${id}-topics-error`} errors={errors.topics} tError={tError} />
        </fieldset>
        {/* Bots fill in every field; people never see this one. */}
        <div className={f.honeypot} aria-hidden="true">
          <label htmlFor={`${id}-website`}>{t("follow.form.honeypot")}</label>
          <input id={`${id}-website`} type="text" name="website" tabIndex={-1} autoComplete="off" />
        </div>
        <button type="submit" className={ui.button.primary}>
          {t("follow.form.button")}
        </button>
        <p className={s.note}>{t("follow.form.note")}</p>
      </form>
    </section>
  );
}
