import type { PoemView } from "~/poems/poem.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./PoemList.css";

/** A poem as the poems page shows it: with when the family added it ("Added 3 days ago", utils/relative-time.ts). */
export type ShownPoem = PoemView & { added: string };

// The spec's order: title, optional author, relative created time, content.
function PoemCard({ poem }: { poem: ShownPoem }) {
  return (
    <article className={s.poem} aria-labelledby={`poem-${poem.id}`}>
      <h2 id={`poem-${poem.id}`} className={s.title}>
        {poem.title}
      </h2>
      {poem.author ? <p className={s.byline}>By {poem.author}</p> : null}
      <p className={s.added}>
        <time dateTime={poem.createdAt}>{poem.added}</time>
      </p>
      <div className={s.content}>{poem.content}</div>
    </article>
  );
}

export function PoemList({ poems }: { poems: ShownPoem[] }) {
  if (poems.length === 0) {
    return <p className={ui.emptyState}>No poems yet.</p>;
  }
  return (
    <div className={s.list}>
      {poems.map((poem) => (
        <PoemCard key={poem.id} poem={poem} />
      ))}
    </div>
  );
}
