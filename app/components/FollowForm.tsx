import type { FollowTopic } from "../../db/schema";
import { TOPIC_LABELS, type FollowOffer } from "~/remembrance/follow.constants";
import * as ui from "~/styles/ui.css";
import * as s from "./FollowForm.css";

const f = s;

// "Remember with us": name, e-mail and what to hear about, posted to /follow
// as a plain form (the same with JavaScript or without: the page that
// answers says to check one's e-mail). On /follow, where a refusal shows its
// messages beside the fields; the home page and the guest book get it as
// HTML from their loaders (app/routes/follow-form.server.ts). Plain elements
// in the forms' styles, so it needs nothing else.

type Errors = Record<string, string[] | null | undefined>;

function Messages({ id, errors }: { id: string; errors?: string[] | null }) {
  return errors?.length ? (
    <ul id={id} className={f.errors}>
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  ) : null;
}

export function FollowForm({
  offer,
  id = "follow",
  errors = {},
  values,
  intro = "Leave your e-mail and the family will keep you posted. Stop whenever you like, with one click.",
}: {
  offer: FollowOffer;
  id?: string;
  errors?: Errors;
  values?: { name?: string; email?: string; topics?: string[] };
  /** The sentence under the heading, or none. */
  intro?: string | null;
}) {
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
      <Messages id={`${id}-${name}-error`} errors={errors[name]} />
    </div>
  );
  return (
    <section className={s.card_} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Remember with us</h2>
      {intro ? <p>{intro}</p> : null}
      <form method="post" action="/follow" id={id} noValidate>
        {field("name", "Name *")}
        {field("email", "Email *")}
        <fieldset className={s.topics} aria-describedby={errors.topics?.length ? `${id}-topics-error` : undefined}>
          <legend className={s.legend}>Tell me about</legend>
          {(Object.keys(TOPIC_LABELS) as FollowTopic[])
            .filter((topic) => offer[topic])
            .map((topic) => (
              <div key={topic} className={f.checkboxRow}>
                <input
                  id={`${id}-${topic}`}
                  type="checkbox"
                  name="topics"
                  value={topic}
                  defaultChecked={values?.topics ? values.topics.includes(topic) : true}
                  className={f.checkbox}
                />
                <label htmlFor={`${id}-${topic}`}>{TOPIC_LABELS[topic]}</label>
              </div>
            ))}
          <Messages id={`${id}-topics-error`} errors={errors.topics} />
        </fieldset>
        {/* Bots fill in every field; people never see this one. */}
        <div className={f.honeypot} aria-hidden="true">
          <label htmlFor={`${id}-website`}>Leave this field empty</label>
          <input id={`${id}-website`} type="text" name="website" tabIndex={-1} autoComplete="off" />
        </div>
        <button type="submit" className={ui.button.primary}>
          Keep me posted
        </button>
        <p className={s.note}>We will send one e-mail to confirm. Nothing else is sent until you open its link.</p>
      </form>
    </section>
  );
}
