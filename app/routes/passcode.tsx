import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PasscodeSchema } from "~/site/passcode.schema";
import { checkVisitorPasscode, isVisitorLocked, passcodeCookieHeader } from "~/site/visitor-passcode.server";
import * as s from "~/components/admin/admin.css";
import { Field, FormAlert } from "~/components/forms";
import { useZodForm } from "~/components/useZodForm";
import { translatorFromMatches, useT } from "~/components/useT";
import type { Translator } from "~/i18n/words";
import type { RouteHandle } from "~/root";
import * as ui from "~/styles/ui.css";
import { PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { isTextBrowser } from "~/utils/text-browser";
import { memorialTitle, siteFromMatches, useSite } from "~/site/site-view";

// /passcode: a private memorial asks its visitors for the family's passcode.
// The visitor gate (app/server/visitor-gate.server.ts) also shows this page, with
// status 401, in place of any page asked for without the passcode; it is
// plain HTML without the app's scripts (the browser's address is then the
// page asked for, not this route's), a form that works everywhere.

/** Where to go once the passcode is given: a page of this site, never this one. */
function afterPasscode(to: unknown) {
  const target = safeRedirect(to, "/");
  return /^\/passcode(?:[/?#]|$)/.test(target) ? "/" : target;
}

export const handle: RouteHandle = { hydrate: false };

/** Never kept by a cache (it stands in for other pages); a refusal's Retry-After reaches the page too. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ "Cache-Control": PRIVATE_NO_STORE });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const askedFor = context.passcodeAskedFor;
  const redirectTo = afterPasscode(askedFor ?? new URL(request.url).searchParams.get("redirectTo"));
  // A public site, or a visitor who has given the passcode: nothing to ask.
  if (!askedFor && !(await isVisitorLocked(request, context))) throw redirect(redirectTo);
  return json({ redirectTo }, { status: askedFor ? 401 : 200 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const redirectTo = afterPasscode(form.get("redirectTo"));
  if (!(await isVisitorLocked(request, context))) return redirect(redirectTo);
  const submission = parseWithZod(form, { schema: PasscodeSchema });
  if (submission.status !== "success") return json({ result: submission.reply(), redirectTo }, { status: 400 });
  const check = await checkVisitorPasscode(submission.value.passcode, context.clientIp);
  if (!check.ok) {
    const reply =
      check.status === 401
        ? submission.reply({ fieldErrors: { passcode: [check.message] }, hideFields: ["passcode"] })
        : submission.reply({ formErrors: [check.message], hideFields: ["passcode"] });
    const headers = check.retryAfterSeconds ? { "Retry-After": String(check.retryAfterSeconds) } : undefined;
    // lynx would ask whether to show a 401 page at all: a wrong passcode is a 403 there.
    const status = check.status === 401 && isTextBrowser(request.headers.get("User-Agent")) ? 403 : check.status;
    return json({ result: reply, redirectTo }, { status, headers });
  }
  return redirect(redirectTo, { headers: { "Set-Cookie": await passcodeCookieHeader(check.passcode) } });
}

/** The schema's and the check's English words in the page's language ("Please wait 3 minutes…" with its number). */
function passcodeError({ t, tError }: Translator, message: string) {
  const wait = /^Too many passcodes were tried from your network\. Please wait (\d+) minutes? and try again\.$/.exec(message);
  return wait ? t("common.passcode.tooManyTries", { minutes: Number(wait[1]) }) : tError(message);
}

export default function PasscodePage() {
  const site = useSite();
  const translator = useT();
  const { t } = translator;
  const say = (messages: string[] | undefined) => messages?.map((message) => passcodeError(translator, message));
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, control } = useZodForm("visitor-passcode", PasscodeSchema, { lastResult: actionData?.result });
  const passcode = control("passcode", "text");
  return (
    <div className={s.loginWrap}>
      <Form method="post" action="/passcode" {...getFormProps(form)} className={s.loginCard}>
        <h1 className={s.loginTitle}>{memorialTitle(site)}</h1>
        <p>{t("common.passcode.intro")}</p>
        <FormAlert title={t("common.passcode.alert")} messages={say(form.errors)} />
        <input type="hidden" name="redirectTo" value={actionData?.redirectTo ?? loaderData.redirectTo} />
        <Field
          label={t("common.passcode.label")}
          hint={t("common.passcode.hint")}
          errors={say(passcode.errors)}
          errorId={passcode.errorId}
          inputProps={{ ...passcode.props, autoComplete: "off", autoCapitalize: "none", spellCheck: false }}
        />
        <button type="submit" className={ui.button.primary}>
          {t("common.passcode.submit")}
        </button>
        <p className={ui.muted}>{t("common.passcode.remember")}</p>
      </Form>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const site = siteFromMatches(matches);
  const title = memorialTitle(site);
  // A link to a private memorial still shows its name and description in a preview.
  return [
    { title: `${translatorFromMatches(matches).t("common.passcode.title")} | ${title}` },
    { name: "description", content: site.siteDescription },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: title },
    { property: "og:title", content: title },
    { property: "og:description", content: site.siteDescription },
  ];
};
