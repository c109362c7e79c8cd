import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PoemList } from "~/components/PoemList";
import { listPoems } from "~/poems/poem.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { addedAgo } from "~/utils/relative-time";

export async function loader() {
  const now = Date.now();
  // "Added 3 days ago" written here, so the page does not load the words for it (and the browser writes the server's words).
  return { poems: listPoems().map((poem) => ({ ...poem, added: addedAgo(poem.createdAt, now) })) };
}

export default function PoemsPage() {
  const { poems } = useLoaderData<typeof loader>();
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>Poems &amp; Writings</h1>
        <p className={ui.subtitle}>Words of love and remembrance shared by family and friends.</p>
      </div>
      <PoemList poems={poems} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, {
    title: "Poems & Writings",
    description: "Poems and writings shared in loving memory.",
    path: "/poems",
  });
