import type { FollowTopic } from "../../db/schema";
import { CheckboxField, ErrorList, Field, Honeypot } from "~/components/forms";
import * as ui from "~/styles/ui.css";
import { TOPIC_LABELS, type FollowOffer } from "~/remembrance/follow.constants";
import * as s from "./FollowForm.css";

// "Remember with us": name, e-mail and what to hear about, posted to /follow
// as a plain form (the same with JavaScript or without: the page that
// answers says to check one's e-mail). On the home page, after signing the
// guest book, and on /follow itself, where a refusal shows its messages.

export function FollowForm({
  offer,
  id = "follow",
  errors = {},
  values,
  intro = true,
}: {
  offer: FollowOffer;
  id?: string;
  errors?: Record<string, string[] | undefined>;
  values?: { name?: string; email?: string; topics?: string[] };
  intro?: boolean;
}) {
  const topics = (Object.keys(TOPIC_LABELS) as FollowTopic[]).filter((topic) => offer[topic]);
  const ticked = (topic: FollowTopic) => (values?.topics ? values.topics.includes(topic) : true);
  const input = (name: "name" | "email") => ({
    id: `${id}-${name}`,
    name,
    defaultValue: values?.[name] ?? "",
    required: true,
    maxLength: name === "name" ? 100 : 254,
    ...(errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `${id}-${name}-error` } : {}),
  });
  return (
    <section className={s.card_} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Remember with us</h2>
      {intro ? <p>Leave your e-mail and the family will keep you posted. Stop whenever you like, with one click.</p> : null}
      <form method="post" action="/follow" id={id} noValidate>
        <Field label="Name *" errors={errors.name} errorId={`${id}-name-error`} inputProps={{ ...input("name"), autoComplete: "name" }} />
        <Field
          label="Email *"
          errors={errors.email}
          errorId={`${id}-email-error`}
          inputProps={{ ...input("email"), type: "email", autoComplete: "email" }}
        />
        <fieldset className={s.topics} aria-describedby={errors.topics?.length ? `${id}-topics-error` : undefined}>
          <legend className={s.legend}>Tell me about</legend>
          {topics.map((topic) => (
            <CheckboxField
              key={topic}
              label={TOPIC_LABELS[topic]}
              errors={undefined}
              errorId={`${id}-${topic}-error`}
              inputProps={{ id: `${id}-${topic}`, name: "topics", value: topic, defaultChecked: ticked(topic) }}
            />
          ))}
          <ErrorList id={`${id}-topics-error`} errors={errors.topics} />
        </fieldset>
        <Honeypot />
        <button type="submit" className={ui.button.primary}>
          Keep me posted
        </button>
        <p className={s.note}>We will send one e-mail to confirm. Nothing else is sent until you open its link.</p>
      </form>
    </section>
  );
}
