// Client-safe (and free of zod, to keep the share page light): the share page
// and the gallery import these in the browser.

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
