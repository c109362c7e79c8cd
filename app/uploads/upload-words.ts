import type { MediaType } from "../../db/schema";
import { senderName } from "~/utils/submitted-by";

// Client-safe: how the admin's pages, toasts and questions name an upload
// and say where publishing it takes it. A photo or video is named by its
// file; a voice memory by who sent it (its file name is the recorder's:
// "New Recording 12.m4a" tells the family nothing).

/** The word for one upload of each kind, in prose. */
export const UPLOAD_KIND = { IMAGE: "photo", VIDEO: "video", AUDIO: "voice memory" } as const satisfies Record<MediaType, string>;

/** The family's note on a voice sent without permission to show it. */
export const FAMILY_ONLY = "Shared with the family only: published, it is kept for the family and not shown to visitors." as const;

/** What names an upload, and says where it goes once published. */
export type NamedUpload = { type: MediaType; originalName: string | null; submittedBy: string | null; canDisplay: boolean };
type Named = Omit<NamedUpload, "canDisplay">;

/** “IMG_1234.jpg”, or "the voice memory from Ann" (the name alone, never an address); `start`: to begin a sentence with. */
export function uploadName(upload: Named, start = false): string {
  if (upload.type !== "AUDIO") return `“${upload.originalName ?? "Unknown"}”`;
  return `${start ? "The" : "the"} voice memory from ${senderName(upload.submittedBy) ?? "a guest"}`;
}

/** Where a published upload is: photos and videos in the gallery, a voice on the guest book, or with the family alone. */
export function publishedPlace(upload: { type: MediaType; canDisplay: boolean }): string {
  if (upload.type !== "AUDIO") return "in the gallery";
  return upload.canDisplay ? "on the guest book" : "kept for the family, and no visitor hears it";
}
