// Parts of the archive's index.html (keepsake-page.server.tsx): its sections,
// its relative file addresses, and the family's life story with its timeline.

import type { ReactNode } from "react";
import type { StoryBlock } from "~/life/story-text";

/** The life story as the page shows it: its blocks, and the timeline with each photo's files in the folder. */
export interface KeepsakeLife {
  /** "Born March 14, 1942, in Dublin · Died …", or "". */
  line: string;
  blocks: StoryBlock[];
  moments: { date: string; title: string; text: string; photo: { file: string; thumbnail: string | null } | null }[];
  /** Kept by the family but not (or no longer) shown on the site. */
  unpublished: boolean;
}

/** A relative address to a file in the folder: each part of the path encoded, so "#", "?" and "%" in names stay names. */
export const fileHref = (path: string) => path.split("/").map(encodeURIComponent).join("/");

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export function LifeSection({ life }: { life: KeepsakeLife }) {
  return (
    <Section id="life" title="Life story">
      {life.unpublished ? <p className="muted">Kept by the family; not published on the site when this was saved.</p> : null}
      {life.line ? <p className="muted">{life.line}</p> : null}
      {life.blocks.map((block, i) =>
        block.type === "heading" ? (
          <h3 key={i}>{block.text}</h3>
        ) : block.type === "list" ? (
          <ul key={i}>
            {block.items.map((item, n) => (
              <li key={n}>{item}</li>
            ))}
          </ul>
        ) : (
          <p key={i} className="text">
            {block.lines.join("\n")}
          </p>
        ),
      )}
      {life.moments.length > 0 ? (
        <>
          <h3>Timeline</h3>
          <ol className="timeline">
            {life.moments.map((moment, i) => (
              <li key={i}>
                <p className="muted">{moment.date}</p>
                <h4>{moment.title}</h4>
                {moment.text ? <p className="text">{moment.text}</p> : null}
                {moment.photo ? (
                  <a href={fileHref(moment.photo.file)}>
                    {moment.photo.thumbnail ? (
                      <img src={fileHref(moment.photo.thumbnail)} alt={`Photo: ${moment.title}`} loading="lazy" />
                    ) : (
                      `Photo: ${moment.title}`
                    )}
                  </a>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Section>
  );
}
