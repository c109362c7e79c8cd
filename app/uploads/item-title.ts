import type { GalleryItem } from "./upload.schema";
import { formatDuration } from "~/utils/time";

// Client-safe: how a page names a published upload in the visitor's language
// ("Video shared by Ben, 1:15"), from the gallery's words: the JSON API names
// it in English (gallery.server.ts), the pages from its kind, sender and length.

type Say = (id: string, values?: Record<string, unknown>) => string;

const KIND = { IMAGE: "photo", VIDEO: "video", AUDIO: "voice" } as const;

/** "Photo shared by Ann", "Video shared by Ben, 1:15", "Voice memory from Ann, 0:42" in the page's words. */
export function itemTitle(t: Say, item: Pick<GalleryItem, "type" | "senderName" | "durationSec">): string {
  const name = item.senderName ?? t("gallery.titles.guest");
  const kind = KIND[item.type];
  return item.type !== "IMAGE" && item.durationSec !== null
    ? t(`gallery.titles.${kind}Length`, { name, length: formatDuration(item.durationSec) })
    : t(`gallery.titles.${kind}`, { name });
}
