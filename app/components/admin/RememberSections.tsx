import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { FollowTopic } from "../../../db/schema";
import { CheckboxField, FormAlert, TextareaField } from "~/components/forms";
import * as f from "~/components/forms.css";
import { useZodForm } from "~/components/useZodForm";
import { topicWords } from "~/remembrance/follow.constants";
import { MAX_DAYS_BEFORE, MAX_WORDS, RemembranceForm, remindersOn, type Remembrance } from "~/remembrance/remembrance.schema";
import * as ui from "~/styles/ui.css";
import { formatDateTime } from "~/utils/time";
import { ControlField } from "./form-fields";
import * as s from "./admin.css";

// The Remember tab's sections: the family's yearly reminders (a plain form
// that works without JavaScript, checked in the browser by the same schema
// as its action), the days their dates allow and when the chosen ones fall,
// and the people who follow the memorial by e-mail.

type YearlyKind = "birthday" | "anniversary" | "yahrzeit";

const zoneName = (timeZone: string) => timeZone.replace(/_/g, " ");

/** The "Yearly reminders" form: which days, how long before, at what time, and the family's words. */
export function RemindersForm({
  remembrance,
  lastResult,
  saving,
  timeZone,
}: {
  remembrance: Remembrance;
  lastResult: SubmissionResult<string[]> | undefined;
  saving: boolean;
  timeZone: string;
}) {
  const { form, control } = useZodForm("reminders", RemembranceForm, { lastResult, defaultValue: remembrance });
  const box = (name: "birthday" | "anniversary" | "yahrzeit" | "afterSunset" | "onTheDay", label: string) => {
    const c = control(name, "checkbox");
    return <CheckboxField label={label} errors={c.errors} errorId={c.errorId} inputProps={c.props} />;
  };
  const words = control("words", "textarea");
  return (
    <Form method="post" action="/admin/remember" {...getFormProps(form)} className={s.form}>
      <h2 className={s.sectionTitle}>Yearly reminders</h2>
      <p className={ui.muted}>People who follow the memorial and chose the yearly reminders get an e-mail on the days you choose here.</p>
      <FormAlert title="Not saved" messages={form.errors} />
      <fieldset className={f.fieldset}>
        <legend className={f.label}>The days to remember</legend>
        {box("birthday", "The birthday")}
        {box("anniversary", "The anniversary of the death")}
        {box("yahrzeit", "The yahrzeit (Hebrew calendar)")}
      </fieldset>
      <div className={f.field}>
        {box("afterSunset", "The death was after sunset")}
        <p className={f.hint}>The Hebrew day begins at nightfall, so a death after sunset falls on the next Hebrew date.</p>
      </div>
      <ControlField
        label="Days before"
        hint={`A reminder this many days before the day, from 0 to ${MAX_DAYS_BEFORE} (0 for none before).`}
        control={control("daysBefore", "number")}
        autoComplete="off"
      />
      {box("onTheDay", "On the day")}
      <ControlField
        label="Time to send"
        hint={`In the site's time zone (${zoneName(timeZone)}), for example 09:00.`}
        control={control("sendAt", "time")}
        autoComplete="off"
      />
      <TextareaField
        label="Your words"
        hint={`Included in every reminder, at most ${MAX_WORDS.toLocaleString("en-US")} characters. You may leave it empty.`}
        errors={words.errors}
        errorId={words.errorId}
        textareaProps={words.props}
      />
      <button type="submit" name="intent" value="save" className={ui.button.primary} disabled={saving}>
        {saving ? "Saving..." : "Save"}
      </button>
    </Form>
  );
}

const DAY_NAMES: Record<YearlyKind, string> = { birthday: "birthday", anniversary: "anniversary", yahrzeit: "yahrzeit" };

/** Which days the dates allow, and when the chosen ones fall next. */
export function ComingDays({
  remembrance,
  known,
  upcoming,
  timeZone,
}: {
  remembrance: Remembrance;
  known: Record<YearlyKind, boolean>;
  /** The chosen days as the loader wrote them out. */
  upcoming: { kind: YearlyKind; date: string; what: string }[];
  timeZone: string;
}) {
  const chosen = (["birthday", "anniversary", "yahrzeit"] as const).filter((kind) => remembrance[kind]);
  const when = [
    remembrance.daysBefore > 0 ? `${remembrance.daysBefore} ${remembrance.daysBefore === 1 ? "day" : "days"} before` : null,
    remembrance.onTheDay ? "on the day" : null,
  ].filter(Boolean);
  const siteLink = <Link to="/admin/site#person">the Site tab’s Dates and places</Link>;
  return (
    <section aria-labelledby="coming-days-title" className={s.form}>
      <h2 id="coming-days-title" className={s.sectionTitle}>
        The coming days
      </h2>
      {known.birthday ? null : <p className={s.cardText}>The birthday needs the month and day of birth: add it in {siteLink}.</p>}
      {known.anniversary ? null : (
        <p className={s.cardText}>The anniversary and the yahrzeit need the full date of death: add it in {siteLink}.</p>
      )}
      {chosen.length === 0 ? (
        <p className={ui.muted}>No day is chosen, so no reminder is sent.</p>
      ) : !remindersOn(remembrance) ? (
        <p className={ui.muted}>Choose “On the day” or a number of days before, or no reminder is sent.</p>
      ) : (
        <p className={ui.muted}>
          Reminders go {when.join(" and ")}, at {remembrance.sendAt} ({zoneName(timeZone)}).
        </p>
      )}
      {chosen.length > 0 && upcoming.length === 0 ? (
        <p className={ui.muted}>None of the chosen days ({chosen.map((kind) => DAY_NAMES[kind]).join(", ")}) can be worked out yet.</p>
      ) : null}
      {upcoming.length > 0 ? (
        <ul aria-label="The next days the reminders are for">
          {upcoming.map((day) => (
            <li key={`${day.kind}-${day.date}`}>
              <strong>{day.date}</strong>: {day.what}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** "People who follow": how many, who, since when, each with Remove, and the list to download. */
export function FollowerList({
  count,
  waiting,
  followers,
  mailEnabled,
  timeZone,
}: {
  count: number;
  waiting: number;
  followers: { id: number; name: string; email: string; topics: FollowTopic[]; confirmedAt: string }[];
  mailEnabled: boolean;
  timeZone: string;
}) {
  return (
    <section aria-labelledby="followers-title">
      <h2 id="followers-title">People who follow</h2>
      <p>
        {count === 1 ? "1 person follows the memorial" : `${count} people follow the memorial`}
        {waiting > 0 ? `, and ${waiting} asked and ${waiting === 1 ? "has" : "have"} not confirmed yet` : ""}.
      </p>
      {mailEnabled ? null : (
        <p className={s.problem} role="note">
          This site sends no e-mail: no mail server is set up. Nobody can be written to until one is (see the E-mail tab).
        </p>
      )}
      <p className={ui.muted}>
        Their addresses are shown only here, never to visitors, and are not in the keepsake download. Someone who stops following is deleted
        at once; a request not confirmed within 7 days is deleted too.
      </p>
      {count > 0 ? (
        <p>
          <a href="/api/admin/export/followers.csv" className={ui.button.secondary} download>
            Download the list (CSV)
          </a>
        </p>
      ) : null}
      {followers.length === 0 ? (
        <p className={ui.emptyState}>Nobody follows the memorial yet.</p>
      ) : (
        <ul className={s.memoryList} aria-label="People who follow the memorial">
          {followers.map((follower) => (
            <li key={follower.id} className={s.memoryCard}>
              <p className={s.cardHeading}>
                <strong>{follower.name}</strong>
              </p>
              <p className={s.cardText}>{follower.email}</p>
              <p className={s.cardText}>Follows {topicWords(follower.topics)}.</p>
              <p className={ui.muted}>Since {formatDateTime(follower.confirmedAt, timeZone)}</p>
              {/* Asks first: a page of its own without JavaScript, a dialog with it. */}
              <Link
                to={`/admin/remember/${follower.id}/remove`}
                className={ui.button.danger}
                preventScrollReset
                aria-label={`Remove ${follower.name}`}
              >
                Remove
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
