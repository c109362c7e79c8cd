import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { Field, FormAlert, formLevelError, Honeypot, TextareaField } from "~/components/forms";
import { showToast } from "~/components/Toaster";
import { useServerForm } from "~/components/useServerForm";
// Used in the browser, so from the zod-free constants rather than the schema.
import { MAX_GUESTS, rsvpThanks } from "~/attendance/rsvp.constants";
import {
  json,
  createRsvp,
  getSiteView,
  rsvpForm,
  noStoreHeaders,
  readFormData,
  replyIfRefused,
  redirectWithToast,
} from "~/routes/rsvp.server";
import type { loader as rootLoader } from "~/root";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { siteFromMatches, useSite } from "~/site/site-view";
import * as s from "./guestbook.css";

export const headers = noStoreHeaders;

/** The form's HTML attributes, from the schema its action parses with (the page loads no zod). */
export function loader() {
  return json({ constraint: rsvpForm.constraint });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = rsvpForm.parse(await readFormData(request));
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const thanks = rsvpThanks(getSiteView().service.over);
  // A bot filled in the hidden field: thank it and keep nothing.
  if (submission.value.website) return redirectWithToast("/rsvp", thanks);
  const refused = replyIfRefused(submission, () => createRsvp(submission.value, { clientIp: context.clientIp }));
  if (refused) return refused;
  return redirectWithToast("/rsvp", thanks);
}

function AttendanceForm() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const { constraint } = useLoaderData<typeof loader>();
  const { formProps, formErrors, control } = useServerForm<"name" | "email" | "guestCount" | "notes">("rsvp", constraint, {
    lastResult: actionData?.result,
    defaultValue: { guestCount: "1" },
  });
  useEffect(() => {
    const reason = actionData && "failed" in actionData ? formLevelError(actionData.result) : undefined;
    if (reason) showToast({ title: "Error", description: reason, type: "destructive" });
  }, [actionData]);
  const [name, email, guestCount, notes] = [
    control("name", "text"),
    control("email", "email"),
    control("guestCount", "number"),
    control("notes", "textarea"),
  ];
  return (
    <Form method="post" action="/rsvp" {...formProps} className={s.form}>
      <FormAlert title="Please check the form" messages={formErrors} />
      <Field label="Name *" errors={name.errors} errorId={name.errorId} inputProps={{ ...name.props, autoComplete: "name" }} />
      <Field label="Email *" errors={email.errors} errorId={email.errorId} inputProps={{ ...email.props, autoComplete: "email" }} />
      <Field
        label="Number of guests, including you *"
        hint={`From 1 to ${MAX_GUESTS}.`}
        errors={guestCount.errors}
        errorId={guestCount.errorId}
        inputProps={{ ...guestCount.props, min: 1, max: MAX_GUESTS, step: 1, inputMode: "numeric" }}
      />
      <TextareaField label="Notes (Optional)" errors={notes.errors} errorId={notes.errorId} textareaProps={notes.props} />
      <Honeypot />
      <button type="submit" className={ui.button.primary} disabled={sending}>
        {sending ? "Sending..." : "Send"}
      </button>
      <p className={s.privacy}>{useSite().privacyNote}</p>
    </Form>
  );
}

export default function RsvpPage() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const site = useSite();
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>Memorial Service Attendance</h1>
        <p className={ui.subtitle}>
          {site.service.over
            ? `Were you at the ${site.serviceTitle}? Let the family know, so they can thank everyone who came.`
            : `Will you join us at the ${site.serviceTitle}? Let the family know you're coming.`}
        </p>
      </div>
      <AttendanceForm key={root?.toast?.id ?? "form"} />
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Memorial Service Attendance",
    description: siteFromMatches(matches).service.over
      ? "Let the family know you attended the celebration of life."
      : "Let the family know you're coming to the celebration of life.",
    path: "/rsvp",
  });
