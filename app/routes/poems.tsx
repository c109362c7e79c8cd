import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PoemList } from "~/components/PoemList";
import { listPoems } from "~/models/poem.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/utils/meta";

export async function loader() {
  return { poems: listPoems() };
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
