import { json, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import * as s from "~/components/admin/admin.css";
import { findUnsubscribe, unsubscribe } from "~/mail/unsubscribe.server";
import type { RouteHandle } from "~/root";
import { translatorFromMatches, tWith, useT } from "~/components/useT";
import { pageWords, visitorLanguage } from "~/routes/follow.server";
import * as ui from "~/styles/ui.css";
import { invariantResponse, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { pageMeta } from "~/site/meta";
import { useSite } from "~/site/site-view";

// /unsubscribe/{token}: the link at the foot of every e-mail. It works
// without logging in and without the visitors' passcode: the token (192
// random bits, only its hash stored) is the proof. Opening it changes
// nothing (mail scanners open links); the button does. Mail programs that
// offer "Unsubscribe" themselves POST here (RFC 8058) and get a plain 200.
// The request log never prints the token (server/request-log.mjs).
//
// The token must not reach another site in a Referer, so the page sends
// Referrer-Policy: same-origin: other sites get no Referer at all, while the
// button's own post keeps its Origin (under no-referrer browsers post it as
// Origin: null, which the cross-origin check refused). That check also
// accepts Origin: null here, and only here, for browsers that strip it anyway
// (server/security.mjs, docs/security.md).
//
// A link that is too old (kept 400 days) or mistyped gets its own page, with
// the family's address, rather than an error.

export const handle: RouteHandle = { hydrate: false };

export const headers: HeadersFunction = () => ({ "Cache-Control": PRIVATE_NO_STORE, "Referrer-Policy": "same-origin" });

/** "a•••@example.com": enough to recognise one's own address, not to read someone else's. */
const masked = (email: string) => {
  const [user = "", domain = ""] = email.split("@");
  return `${user.slice(0, 1)}•••@${domain}`;
};

const UNKNOWN_LINK = "This link is not known here. It may be older than a year, or mistyped.";
const expired = async (request: Request) =>
  json(
    { expired: true as const, words: pageWords(await visitorLanguage(request), ["follow"]) },
    { status: 404, headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );

export async function loader({ params, request }: LoaderFunctionArgs) {
  const found = findUnsubscribe(params.token ?? "");
  if (!found) return expired(request);
  return json(
    {
      expired: false as const,
      email: masked(found.email),
      done: found.done,
      words: pageWords(await visitorLanguage(request), ["follow"]),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const token = params.token ?? "";
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  if (!unsubscribe(token)) {
    // A mail program's one-click unsubscribe (RFC 8058) wants a plain answer, not a page.
    invariantResponse(!oneClick, UNKNOWN_LINK, { status: 404 });
    return expired(request);
  }
  if (oneClick) {
    return new Response("Unsubscribed.", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": PRIVATE_NO_STORE } });
  }
  return redirect(`/unsubscribe/${token}`);
}

export default function Unsubscribe() {
  const data = useLoaderData<typeof loader>();
  const { siteTitle, contactEmail } = useSite();
  const { t } = useT();
  if (data.expired) {
    return (
      <div className={ui.narrow}>
        <div className={ui.pageHeader}>
          <h1>{t("follow.confirm.expiredTitle")}</h1>
        </div>
        <p>{t("follow.unsubscribe.unknown")}</p>
        {contactEmail ? (
          <p>
            {tWith(t, "follow.unsubscribe.writeTo", {
              site: siteTitle,
              email: <a href={`mailto:${contactEmail}`}>{contactEmail}</a>,
            })}
          </p>
        ) : (
          <p>{t("follow.unsubscribe.useNewer", { site: siteTitle })}</p>
        )}
      </div>
    );
  }
  const { email, done } = data;
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{t("follow.unsubscribe.title")}</h1>
      </div>
      {done ? (
        <p role="status">{t("follow.unsubscribe.done", { site: siteTitle, email })}</p>
      ) : (
        <Form method="post" className={s.form}>
          <p>{t("follow.unsubscribe.ask", { site: siteTitle, email })}</p>
          <button type="submit" className={ui.button.primary}>
            {t("follow.unsubscribe.button")}
          </button>
        </Form>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, {
    title: t("follow.unsubscribe.title"),
    description: t("follow.unsubscribe.description"),
    path: "/unsubscribe",
  });
};
