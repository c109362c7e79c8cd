import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { Field, FormAlert, formLevelError, Honeypot, TextareaField } from "~/components/forms";
import { showToast } from "~/components/Toaster";
import { translatorFromMatches, useT } from "~/components/useT";
import { useServerForm } from "~/components/useServerForm";
// Used in the browser, so from the zod-free constants rather than the schema.
import { MAX_GUESTS } from "~/attendance/rsvp.constants";
import {
  json,
  createRsvp,
  getSiteView,
  pageWords,
  rsvpForm,
  noStoreHeaders,
  readFormData,
  replyIfRefused,
  redirectWithToast,
  translate,
  visitorLanguage,
} from "~/routes/rsvp.server";
import type { loader as rootLoader } from "~/root";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { siteFromMatches, useSite } from "~/site/site-view";
import * as s from "./guestbook.css";

export const headers = noStoreHeaders;

/** The form's HTML attributes, from the schema its action parses with (the page loads no zod), and the page's words. */
export async function loader({ request }: LoaderFunctionArgs) {
  return json({ constraint: rsvpForm.constraint, words: pageWords(await visitorLanguage(request), ["rsvp"]) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = rsvpForm.parse(await readFormData(request));
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const language = await visitorLanguage(request);
  const t = translate(language);
  // The title thanks, so the sentence need not again; future tense until the service is over.
  const thanks = { title: t("rsvp.thanks.title"), description: t(getSiteView().service.over ? "rsvp.thanks.over" : "rsvp.thanks.coming") };
  // A bot filled in the hidden field: thank it and keep nothing.
  if (submission.value.website) return redirectWithToast("/rsvp", thanks);
  const refused = replyIfRefused(submission, () => createRsvp({ ...submission.value, language }, { clientIp: context.clientIp }));
  if (refused) return refused;
  return redirectWithToast("/rsvp", thanks);
}

function AttendanceForm() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const { constraint } = useLoaderData<typeof loader>();
  const { t, tError } = useT();
  const { formProps, formErrors, control } = useServerForm<"name" | "email" | "guestCount" | "notes">("rsvp", constraint, {
    lastResult: actionData?.result,
    defaultValue: { guestCount: "1" },
  });
  useEffect(() => {
    const reason = actionData && "failed" in actionData ? formLevelError(actionData.result) : undefined;
    if (reason) showToast({ title: t("rsvp.form.error"), description: tError(reason), type: "destructive" });
  }, [actionData, t, tError]);
  const [name, email, guestCount, notes] = [
    control("name", "text"),
    control("email", "email"),
    control("guestCount", "number"),
    control("notes", "textarea"),
  ];
  // The schema's English errors in the page's language.
  const shown = (errors: string[] | undefined) => errors && errors.map(tError);
  return (
    <Form method="post" action="/rsvp" {...formProps} className={s.form}>
      <FormAlert title={t("rsvp.form.check")} messages={shown(formErrors)} />
      <Field
        label={t("rsvp.form.name")}
        errors={shown(name.errors)}
        errorId={name.errorId}
        inputProps={{ ...name.props, autoComplete: "name" }}
      />
      <Field
        label={t("rsvp.form.email")}
        errors={shown(email.errors)}
        errorId={email.errorId}
        inputProps={{ ...email.props, autoComplete: "email" }}
      />
      <Field
        label={t("rsvp.form.guests")}
        hint={t("rsvp.form.guestsHint", { max: MAX_GUESTS })}
        errors={shown(guestCount.errors)}
        errorId={guestCount.errorId}
        inputProps={{ ...guestCount.props, min: 1, max: MAX_GUESTS, step: 1, inputMode: "numeric" }}
      />
      <TextareaField label={t("rsvp.form.notes")} errors={shown(notes.errors)} errorId={notes.errorId} textareaProps={notes.props} />
      <Honeypot />
      <button type="submit" className={ui.button.primary} disabled={sending}>
        {t(sending ? "rsvp.form.sending" : "rsvp.form.send")}
      </button>
      <p className={s.privacy}>{useSite().privacyNote}</p>
    </Form>
  );
}

export default function RsvpPage() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const site = useSite();
  const { t } = useT();
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{t("rsvp.title")}</h1>
        <p className={ui.subtitle}>{t(site.service.over ? "rsvp.intro.over" : "rsvp.intro.coming", { serviceTitle: site.serviceTitle })}</p>
      </div>
      <AttendanceForm key={root?.toast?.id ?? "form"} />
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, {
    title: t("rsvp.title"),
    description: t(siteFromMatches(matches).service.over ? "rsvp.description.over" : "rsvp.description.coming"),
    path: "/rsvp",
  });
};
