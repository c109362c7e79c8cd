import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { RouteHandle } from "~/root";
import { translatorFromMatches, tWith, useT } from "~/components/useT";
import { confirmFollow, json, pageWords, PRIVATE_NO_STORE, visitorLanguage } from "~/routes/follow.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { useSite } from "~/site/site-view";

// /follow/{token}: the link in the confirmation e-mail. Opening it is the
// confirmation the request waits for (double opt-in): from then on the
// follower gets what they chose, each e-mail with its own link to stop. The
// token (192 random bits, only its hash kept) is the proof, so the page is
// open on a private site too, and it never reaches another site in a
// Referer. The request log never prints it.

export const handle: RouteHandle = { hydrate: false };

export const headers: HeadersFunction = () => ({ "Cache-Control": PRIVATE_NO_STORE, "Referrer-Policy": "same-origin" });

export async function loader({ params, request }: LoaderFunctionArgs) {
  const follower = confirmFollow(params.token ?? "");
  const confirmed = follower ? { name: follower.name, topics: follower.topics } : null;
  const words = pageWords(await visitorLanguage(request), ["follow"]);
  return json({ confirmed, words }, { status: confirmed ? 200 : 404, headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export default function ConfirmFollow() {
  const { confirmed } = useLoaderData<typeof loader>();
  const { personName } = useSite();
  const { t } = useT();
  if (!confirmed) {
    return (
      <div className={ui.narrow}>
        <div className={ui.pageHeader}>
          <h1>{t("follow.confirm.expiredTitle")}</h1>
        </div>
        <p>{t("follow.confirm.unknown")}</p>
        <p>{tWith(t, "follow.confirm.askAgain", { link: <Link to="/follow">{t("follow.confirm.askAgainLink")}</Link> })}</p>
      </div>
    );
  }
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{t("follow.confirm.thanks", { name: confirmed.name })}</h1>
        <p className={ui.subtitle} role="status">
          {t("follow.confirm.about", { name: personName })}
        </p>
      </div>
      <ul>
        {confirmed.topics.map((topic) => (
          <li key={topic}>{t(`follow.topics.${topic}`)}</li>
        ))}
      </ul>
      <p>{t("follow.confirm.stopNote")}</p>
      <p>
        <Link to="/">{t("follow.confirm.back")}</Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, { title: t("follow.title"), description: t("follow.confirm.description"), path: "/follow" });
};
