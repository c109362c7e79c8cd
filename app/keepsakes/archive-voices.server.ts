import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import { uploads, type Upload } from "../../db/schema";
import { db } from "~/platform/db.server";
import type { MediaStorage } from "~/media/storage.server";
import type { ZipEntry } from "~/media/zip.server";
import { splitExtension, uniqueNames } from "~/utils/file-name";
import { formatDuration } from "~/utils/time";
import { archiveMediaName, senderName } from "./archive-names.server";
import type { KeepsakeVoice } from "./keepsake-parts.server";

// The voice memories in the family's archive (docs/decisions/037-voice-memories.md):
// each published one in `voices/`, its original exactly as sent and beside it
// the web copy (AAC in M4A, at one loudness) that every browser plays. Those
// sent without permission for the guest book are the family's too: they are
// kept, and the page says they were shared with the family only.

const BATCH = 500;

interface ArchivedVoice {
  upload: Pick<Upload, "id" | "storageKey" | "displayKey" | "createdAt">;
  /** `voices/…`: the original. */
  file: string;
  /** `voices/… (web copy).m4a`, or null when processing made none (then the page plays the original). */
  webFile: string | null;
  voice: KeepsakeVoice;
}

/** Every published voice memory with its original, oldest first, with the names its files get in the archive. */
export function archivedVoices(timeZone: string, longDate: (date: Date) => string): ArchivedVoice[] {
  const names = uniqueNames();
  const listed: ArchivedVoice[] = [];
  for (let lastId = 0; ;) {
    const batch = db
      .select({
        id: uploads.id,
        type: uploads.type,
        createdAt: uploads.createdAt,
        submittedBy: uploads.submittedBy,
        originalName: uploads.originalName,
        mimeType: uploads.mimeType,
        storageKey: uploads.storageKey,
        displayKey: uploads.displayKey,
        durationSec: uploads.durationSec,
        caption: uploads.caption,
        canDisplay: uploads.canDisplay,
      })
      .from(uploads)
      .where(and(eq(uploads.status, "APPROVED"), eq(uploads.type, "AUDIO"), isNotNull(uploads.storageKey), gt(uploads.id, lastId)))
      .orderBy(asc(uploads.id))
      .limit(BATCH)
      .all();
    for (const upload of batch) {
      const name = names(archiveMediaName(upload, timeZone));
      const file = `voices/${name}`;
      const copy = upload.displayKey && upload.displayKey !== upload.storageKey ? upload.displayKey : null;
      const webFile = copy ? `voices/${names(`${splitExtension(name).stem} (web copy).m4a`)}` : null;
      const sender = senderName(upload.submittedBy) || "Anonymous";
      const length = upload.durationSec === null ? null : formatDuration(upload.durationSec);
      listed.push({
        upload,
        file,
        webFile,
        voice: {
          sender,
          label: length ? `Voice memory from ${sender}, ${length}` : `Voice memory from ${sender}`,
          date: longDate(upload.createdAt),
          length,
          line: upload.caption?.trim() || null,
          canDisplay: upload.canDisplay,
          file,
          webFile,
        },
      });
    }
    if (batch.length < BATCH) return listed;
    lastId = batch[batch.length - 1]!.id;
  }
}

/** The ZIP's entries of the voices: each original, then its web copy; stored as they are (compressed already), read in their turn. */
export function voiceEntries(voices: ArchivedVoice[], storage: MediaStorage): ZipEntry[] {
  return voices.flatMap(({ upload, file, webFile }) => [
    { name: file, compress: false, mtime: upload.createdAt, open: () => storage.read(upload.storageKey!) },
    ...(webFile ? [{ name: webFile, compress: false, mtime: upload.createdAt, open: () => storage.read(upload.displayKey!) }] : []),
  ]);
}
