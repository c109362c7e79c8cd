import { z } from "zod";

// Client-safe: the share page and the gallery import these in the browser.

export const GALLERY_FILTERS = ["ALL", "IMAGE", "VIDEO"] as const;
export type GalleryFilter = (typeof GALLERY_FILTERS)[number];

/** What visitors and the public API see of a published upload: never who sent it. */
export interface GalleryItem {
  id: number;
  type: "IMAGE" | "VIDEO";
  url: string;
  thumbnailUrl: string | null;
  originalName: string | null;
  durationSec: number | null;
}

export const MISSING_INFORMATION = {
  title: "Missing Information",
  description: "Please provide your name and email before uploading files.",
} as const;

/** submittedBy as the spec writes it: the name followed by the email in parentheses. */
export function submitterLabel(name: string, email: string) {
  return `${name.trim()} (${email.trim()})`;
}

const hint = z.number().finite().nonnegative().nullish();

/** POST /api/uploads/complete. Width, height and duration are hints only: the server measures them itself. */
export const CompleteUploadSchema = z.object({
  uploadURL: z
    .string({ message: "uploadURL is required" })
    .trim()
    .min(1, "uploadURL is required")
    .max(4096, "uploadURL is too long"),
  submittedBy: z.string({ message: "submittedBy must be text" }).trim().max(400, "submittedBy must be at most 400 characters").nullish(),
  type: z.enum(["IMAGE", "VIDEO"], { message: "type must be IMAGE or VIDEO" }).nullish(),
  originalName: z
    .string({ message: "originalName must be text" })
    .trim()
    .max(255, "originalName must be at most 255 characters")
    .nullish()
    .transform((name) => name || "Unknown"),
  width: hint,
  height: hint,
  durationSec: hint,
});
export type CompleteUploadInput = z.infer<typeof CompleteUploadSchema>;
