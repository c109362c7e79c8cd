// Client-safe (and free of zod, to keep the share page light): the share page
// and the gallery import these in the browser.

import type { MediaType, Status } from "../../db/schema";

export type { MediaType };

export type GalleryFilter = "ALL" | MediaType;

/** What visitors and the public API see of a published upload: never who sent it. */
export interface GalleryItem {
  id: number;
  /** AUDIO: a voice memory, whose url is its AAC-in-M4A copy (every browser plays it). */
  type: MediaType;
  url: string;
  thumbnailUrl: string | null;
  originalName: string | null;
  durationSec: number | null;
  /** What a visitor reads for it, never the file name: "Photo shared by Peter", "Video shared by Ben, 1:15". */
  title: string;
  /** Who shared it, by the name they gave (never the address), or null. */
  senderName: string | null;
  /** A voice memory's typed line (its text alternative), or null. */
  caption: string | null;
}

/** An upload as the site's own pages and the admin API describe it. */
export interface UploadView extends GalleryItem {
  width: number | null;
  height: number | null;
  status: Status;
  createdAt: string;
}

/** Where an upload's processing stands: waiting its turn, being processed (a video: how far), ready, or given up on. */
export type ProcessingState =
  | { state: "waiting" }
  | { state: "processing"; percent: number | null; minutesLeft: number | null }
  | { state: "ready" }
  | { state: "failed"; reason: string };

/** What the administrator sees of an upload: who sent it, the format, and the original file. */
export interface AdminUpload extends UploadView {
  submittedBy: string | null;
  mimeType: string | null;
  sizeBytes: number | null;
  /** The file exactly as it was sent (HEIC stays HEIC), for the family to download. */
  originalUrl: string | null;
  /** Why it could not be processed (then it cannot be published), or null. */
  processingError: string | null;
  /** Where its processing stands: only a ready upload can be published. */
  processing: ProcessingState;
  /** Rejected by a helper: kept whole with its files, shown only in the family's Set aside view. */
  setAside: boolean;
  /**
   * The sender's permission to show it (a voice memory's checkbox; always true for photos and
   * videos): false keeps a published voice for the family, heard by no visitor.
   */
  canDisplay: boolean;
  /** The admin who last published or deleted it, and when (null while pending). */
  moderatedBy: string | null;
  moderatedAt: string | null;
}

/** A message of the page's words (`share.toast.…`); without one, the spec's English words. */
type Say = (id: string, values?: Record<string, unknown>) => string;

const ENGLISH_TOAST: Record<string, (values: Record<string, number>) => string> = {
  "share.toast.completeTitle": () => "Upload Complete",
  "share.toast.confirmed": () => "Your file has been uploaded successfully and is pending review.",
  "share.toast.someHere": ({ files, of, left }) =>
    `${files} of your ${of} files ${files === 1 ? "is" : "are"} safely here, and ${left === 1 ? "the last one is on its way" : "the others are on their way"}.`,
  "share.toast.allHere": ({ of }) => `All ${of} of your files arrived safely. Thank you for sharing them.`,
};
const english: Say = (id, values) => ENGLISH_TOAST[id]!((values ?? {}) as Record<string, number>);

/**
 * The confirmation of a finished upload: the spec's words, and after them,
 * when a visitor sent several at once, a warmer word about all of them:
 * `files` of the `of` sent so far (the upload dialog confirms each as it
 * arrives), or thanks once every one is here. `say` gives them in the
 * visitor's language.
 */
export function uploadCompleteToast(files: number, of = files, say: Say = english) {
  const title = say("share.toast.completeTitle");
  const confirmed = say("share.toast.confirmed");
  if (of <= 1) return { title, description: confirmed };
  const more = files < of ? say("share.toast.someHere", { files, of, left: of - files }) : say("share.toast.allHere", { of });
  return { title, description: `${confirmed} ${more}` };
}

/** The most the slideshow shows: the newest this many (over an hour of photos at 8 s each). */
export const SLIDESHOW_MAX_ITEMS = 500;

/**
 * One photo or video of the reception slideshow (/slideshow, /api/slideshow):
 * the public copies only, and of who sent it the name alone (never the address).
 */
export interface SlideshowItem {
  id: number;
  /** AUDIO: a voice memory, shown as a card with the sender's name (the room hears nothing). */
  type: MediaType;
  /** The photo's display copy (never the original); null for a video. */
  imageUrl: string | null;
  /** The video's public copy; null for a photo. */
  videoUrl: string | null;
  /** The video's poster frame; null for a photo, or a video without one. */
  posterUrl: string | null;
  durationSec: number | null;
  /** The sender's name as they gave it, or null when there is none to show. */
  senderName: string | null;
  /** A voice memory's typed line, shown on its card; null for photos and videos, and a voice without one. */
  caption: string | null;
}
