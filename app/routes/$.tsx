import type { MetaFunction } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import { translatorFromMatches, useT } from "~/components/useT";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";

function notFound() {
  return new Response(null, { status: 404 });
}

export const loader = notFound;
export const action = notFound;

/**
 * An address the site has no page for. The spec's sentence for this page is
 * a question for whoever keeps the site, so it comes last, after what a
 * visitor needs, framed as a note to them. It lives here rather than in
 * NotFound, which every page's first JavaScript carries (the root's error
 * page, also for a photo that has gone, where the question would be wrong).
 */
export default function NotFoundPage() {
  const { t } = useT();
  return (
    <NotFound>
      <aside aria-label={t("common.notFound.keeperLabel")} className={`${ui.container} ${ui.muted}`}>
        <p>{t("common.notFound.keeperNote")}</p>
      </aside>
    </NotFound>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: translatorFromMatches(matches).t("common.notFound.title"), exactTitle: true });
