// The voice memories visitors hear: published, shared with permission (the
// gallery's own rule, app/uploads/gallery.server.ts), newest first.
import { and, desc, eq, gte, isNull, sql } from "drizzle-orm";
import { uploads } from "../../db/schema";
import { db } from "~/platform/db.server";
import type { PageCursor } from "~/platform/page-cursor.server";
import { RESUBMISSION_WINDOW_MS } from "~/platform/submission-limit.server";
import { getGalleryItem, listGallery } from "~/uploads/gallery.server";
import type { GalleryItem } from "~/uploads/upload.schema";

/** Voices on a page of the guest book: the newest twenty, then a link to the next twenty. */
export const VOICES_PER_PAGE = 20;

/** A page of published voices, newest first, after `before` (the end of the page before it). */
export function listVoices({ before, limit = VOICES_PER_PAGE }: { before?: PageCursor; limit?: number } = {}) {
  return listGallery({ type: "AUDIO", limit, before });
}

/** One published voice that visitors may hear, or undefined (pending, kept for the family, a photo, unknown). */
export function getVoice(id: number): GalleryItem | undefined {
  const item = getGalleryItem(id);
  return item?.type === "AUDIO" ? item : undefined;
}

/**
 * A voice already kept from the same sender, with the same line and a
 * recording of the same size, sent within RESUBMISSION_WINDOW_MS: the same
 * voice sent twice (Back and Send, a second tap on a slow phone), still
 * waiting for the family and not refused by its processing (a sender who
 * tries again after a failure is heard again). Its id, or undefined.
 */
export function recentCopyOfVoice(voice: { submittedBy: string; caption: string | null; sizeBytes: number }): number | undefined {
  return recentVoiceQuery.get({ ...voice, since: Date.now() - RESUBMISSION_WINDOW_MS })?.id;
}

const recentVoiceQuery = db
  .select({ id: uploads.id })
  .from(uploads)
  .where(
    and(
      eq(uploads.type, "AUDIO"),
      eq(uploads.status, "PENDING"),
      isNull(uploads.processingError),
      eq(uploads.submittedBy, sql.placeholder("submittedBy")),
      sql`${uploads.caption} IS ${sql.placeholder("caption")}`,
      eq(uploads.sizeBytes, sql.placeholder("sizeBytes")),
      gte(uploads.createdAt, sql.placeholder("since")),
    ),
  )
  .orderBy(desc(uploads.id))
  .limit(1)
  .prepare();
