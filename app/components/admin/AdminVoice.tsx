import { Link } from "@remix-run/react";
import type { AdminUpload } from "~/uploads/upload.schema";
import { FAMILY_ONLY } from "~/uploads/upload-words";
import * as s from "./admin.css";
import * as v from "./AdminVoice.css";
import { SoundMark } from "~/components/SoundMark";

// A voice memory in the admin (Pending Uploads, its preview, Published, Set
// aside): where a photo has its picture, who it is from and how long it is,
// the player of its levelled copy (preload="none": a list of voices costs
// nothing until one is played), its line as text, and whether visitors may
// hear it.

type Voice = Pick<AdminUpload, "url" | "title" | "caption" | "canDisplay" | "processing" | "originalUrl" | "originalName">;

/**
 * The browser's player of the voice's copy every browser plays, once it is
 * made. Before that (the processing note says where it stands), with
 * `offerOriginal`, the recording as it was sent, to download and hear now.
 */
export function VoicePlayer({ upload, offerOriginal = true }: { upload: Voice; offerOriginal?: boolean }) {
  if (upload.processing.state === "ready" && upload.url) {
    return (
      <audio controls preload="none" src={upload.url} aria-label={upload.title} className={v.player}>
        <a href={upload.url} download>
          Download {upload.title} (M4A)
        </a>
      </audio>
    );
  }
  if (!offerOriginal || !upload.originalUrl) return null;
  return (
    <p className={s.cardText}>
      <a href={upload.originalUrl} download={upload.originalName ?? true}>
        Download the recording as it was sent
      </a>
    </p>
  );
}

/**
 * What stands for a photo's picture: "Voice memory from Ann, 0:42" (a link to
 * its preview when `previewTo` is given) over its player.
 */
export function VoicePanel({ upload, previewTo }: { upload: Voice; previewTo?: string }) {
  return (
    <div className={v.panel}>
      <p className={v.heading}>
        <SoundMark className={v.mark} />
        {previewTo ? (
          <Link to={previewTo} preventScrollReset className={v.previewLink}>
            {upload.title}
          </Link>
        ) : (
          upload.title
        )}
      </p>
      <VoicePlayer upload={upload} />
    </div>
  );
}

/** The voice's line (its words for anyone who cannot listen), and the note when its sender kept it for the family. */
export function VoiceNotes({ upload }: { upload: Pick<Voice, "caption" | "canDisplay"> }) {
  return (
    <>
      {upload.caption ? <p className={v.line}>“{upload.caption}”</p> : null}
      {upload.canDisplay ? null : <p className={v.familyOnly}>{FAMILY_ONLY}</p>}
    </>
  );
}
