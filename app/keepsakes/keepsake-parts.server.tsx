// Parts of the archive's index.html (keepsake-page.server.tsx): its sections,
// its relative file addresses, the family's life story with its timeline, and
// the voice memories with their players.

import type { ReactNode } from "react";
import type { Translate } from "~/i18n/i18n.server";
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

/** A voice memory as the page shows it, its files in the folder. */
export interface KeepsakeVoice {
  sender: string;
  /** "Voice memory from Ann, 0:42": the player's name. */
  label: string;
  /** "August 31, 2025". */
  date: string;
  /** "0:42", or null when its length is not known. */
  length: string | null;
  /** The line the sender typed (what they say, or who it is for), or null. */
  line: string | null;
  /** The sender allowed it on the public guest book. */
  canDisplay: boolean;
  /** The original recording, relative to the page. */
  file: string;
  /** Its web copy (AAC in M4A, which every browser plays), relative to the page, or null: then the page plays the original. */
  webFile: string | null;
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

export function LifeSection({ life, t }: { life: KeepsakeLife; t: Translate }) {
  return (
    <Section id="life" title={t("keepsake.nav.life")}>
      {life.unpublished ? <p className="muted">{t("keepsake.life.unpublished")}</p> : null}
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
          <h3>{t("keepsake.life.timeline")}</h3>
          <ol className="timeline">
            {life.moments.map((moment, i) => (
              <li key={i}>
                <p className="muted">{moment.date}</p>
                <h4>{moment.title}</h4>
                {moment.text ? <p className="text">{moment.text}</p> : null}
                {moment.photo ? (
                  <a href={fileHref(moment.photo.file)}>
                    {moment.photo.thumbnail ? (
                      <img
                        src={fileHref(moment.photo.thumbnail)}
                        alt={t("keepsake.gallery.photo", { title: moment.title })}
                        loading="lazy"
                      />
                    ) : (
                      t("keepsake.gallery.photo", { title: moment.title })
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

/** One voice memory: who, when, how long, a player of its web copy, the line, and the original recording. */
export function VoiceCard({ voice, t }: { voice: KeepsakeVoice; t: Translate }) {
  const plays = fileHref(voice.webFile ?? voice.file);
  const about = [voice.date, voice.length, voice.canDisplay ? null : t("keepsake.familyOnly")].filter(Boolean).join(" · ");
  return (
    <article className="card voice">
      <h3>{voice.sender}</h3>
      <p className="muted">{about}</p>
      <audio controls preload="metadata" src={plays} aria-label={voice.label}>
        <a href={plays}>{voice.label}</a>
      </audio>
      {voice.line ? <p className="text">{voice.line}</p> : null}
      <p>
        <a href={fileHref(voice.file)}>{t("keepsake.voices.original")}</a>
      </p>
    </article>
  );
}
