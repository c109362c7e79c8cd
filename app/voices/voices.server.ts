// The voice memories visitors hear: published, shared with permission (the
// gallery's own rule, app/uploads/gallery.server.ts), newest first.
import type { PageCursor } from "~/platform/page-cursor.server";
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
