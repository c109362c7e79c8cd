import type { PoemView } from "~/poems/poem.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./PoemList.css";

/**
 * A poem as the poems page shows it: with when the family added it ("Added 3
 * days ago", utils/relative-time.ts) and its byline ("By …"), in the page's language.
 */
export type ShownPoem = PoemView & { added: string; by: string | null };

// The spec's order: title, optional author, relative created time, content.
function PoemCard({ poem }: { poem: ShownPoem }) {
  return (
    <article className={s.poem} aria-labelledby={`poem-${poem.id}`}>
      <h2 id={`poem-${poem.id}`} className={s.title}>
        {poem.title}
      </h2>
      {poem.by ? <p className={s.byline}>{poem.by}</p> : null}
      <p className={s.added}>
        <time dateTime={poem.createdAt}>{poem.added}</time>
      </p>
      <div className={s.content}>{poem.content}</div>
    </article>
  );
}

export function PoemList({ poems, emptyText }: { poems: ShownPoem[]; emptyText: string }) {
  if (poems.length === 0) {
    return <p className={ui.emptyState}>{emptyText}</p>;
  }
  return (
    <div className={s.list}>
      {poems.map((poem) => (
        <PoemCard key={poem.id} poem={poem} />
      ))}
    </div>
  );
}
