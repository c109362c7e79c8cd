import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PoemList } from "~/components/PoemList";
import { translatorFromMatches, useT } from "~/components/useT";
import { LANGUAGE_TAGS } from "~/i18n/languages";
import { addedAgo, listPoems, pageWords, translate, visitorLanguage } from "~/routes/poems.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";

export async function loader({ request }: LoaderFunctionArgs) {
  const language = await visitorLanguage(request);
  const t = translate(language);
  const now = Date.now();
  // "Added 3 days ago" and "By …" written here, so the page does not load the words for them (and the browser writes the server's words).
  return {
    poems: listPoems().map((poem) => ({
      ...poem,
      added: addedAgo(poem.createdAt, now, LANGUAGE_TAGS[language], t),
      by: poem.author ? t("poems.by", { author: poem.author }) : null,
    })),
    words: pageWords(language, ["poems"]),
  };
}

export default function PoemsPage() {
  const { poems } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{t("poems.title")}</h1>
        <p className={ui.subtitle}>{t("poems.subtitle")}</p>
      </div>
      <PoemList poems={poems} emptyText={t("poems.empty")} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, { title: t("poems.title"), description: t("poems.description"), path: "/poems" });
};
