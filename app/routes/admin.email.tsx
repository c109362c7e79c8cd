import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireAdmin, requireFamily } from "~/admins/session.server";
import * as s from "~/components/admin/admin.css";
import { ControlField, RadioGroupField } from "~/components/admin/form-fields";
import { FormAlert } from "~/components/forms";
import { useZodForm } from "~/components/useZodForm";
// The schema from the client-safe module: the form validates with it in the browser too.
import { MAIL_CHOICE_LABELS, MAIL_RETRIED, MAIL_SAVED, MailPreferencesSchema } from "~/mail/mail.schema";
import { getMailPreferences, saveMailPreferences } from "~/mail/notifications.server";
import { mailEnabled, outboxStatus, retryMail } from "~/mail/outbox.server";
import * as ui from "~/styles/ui.css";
import { invariantResponse, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { replyIfRefused } from "~/platform/refusal.server";
import { useSite } from "~/site/site-view";
import { formatDateTime } from "~/utils/time";
import { redirectWithToast } from "~/platform/toast.server";

// The E-mail tab: each admin's own address and choice (each new item, one
// summary a day at a time of her choosing, or none), whether the site can
// send e-mail at all, and what could not be sent. The same schema and model
// functions as GET/PATCH /api/admin/email. A helper chooses her own e-mail
// here too; what could not be sent (which names recipients) is the family's.

const RETRY_FAILED = { title: "Error", description: "That e-mail could not be tried again.", type: "destructive" as const };

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return json(
    {
      enabled: mailEnabled(),
      preferences: getMailPreferences(admin.id),
      outbox: outboxStatus(admin.role),
      family: admin.role === "family",
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  switch (form.get("intent")) {
    case "save": {
      const submission = parseWithZod(form, { schema: MailPreferencesSchema });
      if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
      const refused = replyIfRefused(submission, () => saveMailPreferences(submission.value, admin));
      return refused ?? redirectWithToast("/admin/email", MAIL_SAVED);
    }
    case "retry": {
      const family = await requireFamily(request);
      const id = idParam(String(form.get("id") ?? ""));
      return redirectWithToast("/admin/email", id && retryMail(id, family) ? MAIL_RETRIED : RETRY_FAILED);
    }
    default:
      invariantResponse(false, "This form does not know what to do. Please go back, reload the page and try again.", { status: 400 });
  }
}

function PreferencesForm() {
  const { preferences } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { timeZone } = useSite();
  const { form, fields, control } = useZodForm("mail-preferences", MailPreferencesSchema, {
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: { email: preferences.email ?? "", mailChoice: preferences.mailChoice, digestTime: preferences.digestTime },
  });
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const chosen = fields.mailChoice.initialValue;
  return (
    <Form method="post" action="/admin/email" {...getFormProps(form)} className={s.form}>
      <h2 className={s.sectionTitle}>Your e-mail</h2>
      <FormAlert title="Not saved" messages={form.errors} />
      <ControlField label="Your e-mail address" control={control("email", "email")} autoComplete="email" />
      {preferences.unsubscribed ? (
        <p className={s.problem}>
          This address used the “Stop these e-mails” link in an e-mail, so nothing is sent to it. Saving your choice again lets e-mail
          through.
        </p>
      ) : null}
      <RadioGroupField
        legend="When something waits for you"
        name="mailChoice"
        form={form.id}
        defaultValue={typeof chosen === "string" ? chosen : preferences.mailChoice}
        errors={fields.mailChoice.errors}
        errorId={`${form.id}-mailChoice-error`}
        options={[
          { value: "each", label: MAIL_CHOICE_LABELS.each, description: "As soon as a memory, photo or video is shared." },
          {
            value: "daily",
            label: MAIL_CHOICE_LABELS.daily,
            description: "At the time below: everything waiting, and who said they attended. Nothing on a day when nothing waits.",
          },
          { value: "none", label: MAIL_CHOICE_LABELS.none, description: "You look in the admin panel yourself." },
        ]}
      />
      <ControlField
        label="Time of the daily summary"
        hint={`In the site's time zone (${timeZone.replace(/_/g, " ")}), for example 08:00.`}
        control={control("digestTime", "time")}
        autoComplete="off"
      />
      <button type="submit" name="intent" value="save" className={ui.button.primary} disabled={saving}>
        {saving ? "Saving..." : "Save"}
      </button>
    </Form>
  );
}

function Outbox() {
  const { outbox } = useLoaderData<typeof loader>();
  const { timeZone } = useSite();
  return (
    <section aria-labelledby="outbox-title" className={s.form}>
      <h2 id="outbox-title" className={s.sectionTitle}>
        E-mail waiting to be sent ({outbox.waiting})
      </h2>
      {outbox.problems.length === 0 ? (
        <p className={ui.muted}>Nothing failed to send.</p>
      ) : (
        <ul className={s.memoryList} aria-label="E-mail that could not be sent">
          {outbox.problems.map((entry) => (
            <li key={entry.id} className={s.memoryCard}>
              <p className={s.cardHeading}>
                <strong>{entry.subject}</strong>
              </p>
              <p className={s.cardText}>To {entry.recipient}</p>
              <p className={s.cardText}>
                {entry.failedAt
                  ? `Not sent: given up on ${formatDateTime(entry.failedAt, timeZone)} after ${entry.attempts} ${entry.attempts === 1 ? "try" : "tries"}.`
                  : `Not sent yet: tried ${entry.attempts} ${entry.attempts === 1 ? "time" : "times"}, trying again at ${formatDateTime(entry.nextAttemptAt!, timeZone)}.`}
              </p>
              {entry.lastError ? <p className={s.problem}>The mail server said: {entry.lastError}</p> : null}
              {entry.failedAt ? (
                <Form method="post" action="/admin/email" preventScrollReset>
                  <input type="hidden" name="id" value={entry.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="retry"
                    className={ui.button.secondary}
                    aria-label={`Try again: ${entry.subject}`}
                  >
                    Try again
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function EmailTab() {
  const { enabled, family } = useLoaderData<typeof loader>();
  return (
    <>
      {enabled ? null : (
        <p className={s.problem} role="note">
          This site sends no e-mail: no mail server is set up (SMTP_URL and MAIL_FROM, see the README). Nobody is e-mailed, whatever is
          chosen below, until one is. Look in the Pending tabs for what waits.
        </p>
      )}
      <PreferencesForm />
      {enabled && family ? <Outbox /> : null}
    </>
  );
}
