import type { GalleryItem } from "~/uploads/upload.schema";
import { formatDuration } from "~/utils/time";
import { itemTitle } from "~/uploads/item-title";
import * as s from "./VoiceList.css";

// The published voice memories (app/voices/voices.server.ts gives only those
// shared with permission): each with its sender's name, its length, the
// browser's own player and the line the sender typed. No hooks and no
// JavaScript of its own: the guest book gets it as HTML from its loader
// (docs/decisions/035), and /voices/{id} shows one.

/** One voice: "Ann 0:42", the player labelled "Voice memory from Ann, 0:42", and the line. */
type Say = (id: string, values?: Record<string, unknown>) => string;

export function VoiceItem({ voice, t }: { voice: GalleryItem; t: Say }) {
  const title = itemTitle(t, voice);
  const length = voice.durationSec !== null ? formatDuration(voice.durationSec) : null;
  const name = voice.senderName ?? t("gallery.titles.guest");
  // The line is what the recording says, for anyone who cannot listen: the player is described by it.
  const lineId = `voice-line-${voice.id}`;
  return (
    <>
      <p className={s.who}>
        <span className={s.name}>{voice.senderName ?? t("voices.list.aGuest")}</span>
        {/* A text browser or a screen reader reads "Ann · 0:42", never "Ann0:42". */}
        {length ? (
          <>
            <span aria-hidden="true">{" · "}</span>
            <time dateTime={`PT${voice.durationSec}S`} className={s.length}>
              {length}
            </time>
          </>
        ) : null}
      </p>
      {/* Nothing is fetched until the visitor presses play: a page of voices costs no one's data plan. */}
      <audio
        controls
        preload="none"
        src={voice.url}
        aria-label={title}
        aria-describedby={voice.caption ? lineId : undefined}
        className={s.player}
      >
        <a href={voice.url}>{length ? t("voices.list.listenLength", { name, length }) : t("voices.list.listen", { name })}</a>
      </audio>
      {voice.caption ? (
        <p id={lineId} className={s.line}>
          {voice.caption}
        </p>
      ) : null}
    </>
  );
}

/** The "Voices" section of the guest book: a page of voices, newest first, and plain links to the others. */
export function VoiceList({
  voices,
  earlier,
  newest,
  t,
}: {
  voices: GalleryItem[];
  /** The address of the page of older voices, when there are more. */
  earlier: string | null;
  /** The address of the newest voices, when this page shows older ones. */
  newest: string | null;
  /** The words in the visitor's language (the server's translator: the list is rendered as HTML). */
  t: Say;
}) {
  return (
    <section id="voices" className={s.section} aria-labelledby="voices-title">
      <h2 id="voices-title">{t("voices.list.title")}</h2>
      {voices.length ? (
        <ol className={s.list} aria-label={t("voices.list.label")}>
          {voices.map((voice) => (
            <li key={voice.id} id={`voice-memory-${voice.id}`} className={s.voice}>
              <VoiceItem voice={voice} t={t} />
            </li>
          ))}
        </ol>
      ) : (
        <p className={s.empty}>{newest ? t("voices.list.noEarlier") : t("voices.list.empty")}</p>
      )}
      {newest || earlier ? (
        <p className={s.pages}>
          {newest ? <a href={newest}>{t("voices.list.newest")}</a> : <span />}
          {earlier ? <a href={earlier}>{t("voices.list.earlier")}</a> : null}
        </p>
      ) : null}
    </section>
  );
}
