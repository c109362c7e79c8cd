import type { PoemView } from "~/models/poem.schema";
import * as ui from "~/styles/ui.css";
import { relativeTime } from "~/utils/relative-time";
import * as s from "./PoemList.css";

function PoemCard({ poem, now }: { poem: PoemView; now: number }) {
  return (
    <article className={s.poem} aria-labelledby={`poem-${poem.id}`}>
      <h2 id={`poem-${poem.id}`} className={s.title}>
        {poem.title}
      </h2>
      <p className={s.byline}>
        {poem.author ? <span>By {poem.author}</span> : null}
        {poem.author ? <span aria-hidden="true"> · </span> : null}
        <time dateTime={poem.createdAt}>{relativeTime(poem.createdAt, now)}</time>
      </p>
      <div className={s.content}>{poem.content}</div>
    </article>
  );
}

export function PoemList({ poems, now }: { poems: PoemView[]; now: number }) {
  if (poems.length === 0) {
    return <p className={ui.emptyState}>No poems yet.</p>;
  }
  return (
    <div className={s.list}>
      {poems.map((poem) => (
        <PoemCard key={poem.id} poem={poem} now={now} />
      ))}
    </div>
  );
}
