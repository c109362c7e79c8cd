import type { PoemView } from "~/models/poem.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./PoemList.css";

// No "11 minutes ago" under a poem: when the family added it says nothing of
// a poem written in 1932, so visitors see its title, author and words only
// (the admin's list of poems keeps the date each was added).
function PoemCard({ poem }: { poem: PoemView }) {
  return (
    <article className={s.poem} aria-labelledby={`poem-${poem.id}`}>
      <h2 id={`poem-${poem.id}`} className={s.title}>
        {poem.title}
      </h2>
      {poem.author ? <p className={s.byline}>By {poem.author}</p> : null}
      <div className={s.content}>{poem.content}</div>
    </article>
  );
}

export function PoemList({ poems }: { poems: PoemView[] }) {
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
