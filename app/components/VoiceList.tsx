import type { GalleryItem } from "~/uploads/upload.schema";
import { formatDuration } from "~/utils/time";
import * as s from "./VoiceList.css";

// The published voice memories (app/voices/voices.server.ts gives only those
// shared with permission): each with its sender's name, its length, the
// browser's own player and the line the sender typed. No hooks and no
// JavaScript of its own: the guest book gets it as HTML from its loader
// (docs/decisions/035), and /voices/{id} shows one.

/** One voice: "Ann 0:42", the player labelled "Voice memory from Ann, 0:42", and the line. */
export function VoiceItem({ voice }: { voice: GalleryItem }) {
  return (
    <>
      <p className={s.who}>
        <span className={s.name}>{voice.senderName ?? "A guest"}</span>
        {voice.durationSec !== null ? <span className={s.length}>{formatDuration(voice.durationSec)}</span> : null}
      </p>
      {/* Nothing is fetched until the visitor presses play: a page of voices costs no one's data plan. */}
      <audio controls preload="none" src={voice.url} aria-label={voice.title} className={s.player}>
        <a href={voice.url}>Listen to the {voice.title.charAt(0).toLowerCase() + voice.title.slice(1)}</a>
      </audio>
      {voice.caption ? <p className={s.line}>{voice.caption}</p> : null}
    </>
  );
}

/** The "Voices" section of the guest book: a page of voices, newest first, and plain links to the others. */
export function VoiceList({
  voices,
  earlier,
  newest,
}: {
  voices: GalleryItem[];
  /** The address of the page of older voices, when there are more. */
  earlier: string | null;
  /** The address of the newest voices, when this page shows older ones. */
  newest: string | null;
}) {
  return (
    <section id="voices" className={s.section} aria-labelledby="voices-title">
      <h2 id="voices-title">Voices</h2>
      {voices.length ? (
        <ol className={s.list} aria-label="Voice memories">
          {voices.map((voice) => (
            <li key={voice.id} id={`voice-memory-${voice.id}`} className={s.voice}>
              <VoiceItem voice={voice} />
            </li>
          ))}
        </ol>
      ) : (
        <p className={s.empty}>
          {newest ? "No earlier voice memories." : "No voice memories have been shared yet. Be the first to leave one."}
        </p>
      )}
      {newest || earlier ? (
        <p className={s.pages}>
          {newest ? <a href={newest}>← Newest voices</a> : <span />}
          {earlier ? <a href={earlier}>Earlier voices →</a> : null}
        </p>
      ) : null}
    </section>
  );
}
