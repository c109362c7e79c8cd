import path from "node:path";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { uploads, type MediaType, type Upload } from "../../db/schema";
import { db } from "~/platform/db.server";
import { photoCopies } from "~/media/web-sizes";
import { olderThan, toListPage, type ListPage, type PageCursor } from "~/platform/page-cursor.server";
import { formatDuration } from "~/utils/time";
import { getRow } from "./processing-state.server";
import { senderName } from "~/utils/submitted-by";
import { SLIDESHOW_MAX_ITEMS, type GalleryFilter, type GalleryItem, type SlideshowItem } from "./upload.schema";

// The gallery as visitors see it: published photos and videos only, named
// by who shared them, page by page; the slideshow; and which stored file of
// an upload anyone may be sent.

/**
 * How visitors see an upload named: by kind and the sender's name, a
 * video with its length ("Video shared by Ben, 1:15"); the file name is the
 * family's, in the admin.
 */
const KIND_WORDS = { IMAGE: "Photo", VIDEO: "Video", AUDIO: "Voice memory" } as const;

function galleryTitle(upload: Pick<Upload, "type" | "submittedBy" | "durationSec">): string {
  const title = `${KIND_WORDS[upload.type]} ${upload.type === "AUDIO" ? "from" : "shared by"} ${senderName(upload.submittedBy) ?? "a guest"}`;
  return upload.type !== "IMAGE" && upload.durationSec !== null ? `${title}, ${formatDuration(upload.durationSec)}` : title;
}

export function toGalleryItem(
  upload: Pick<Upload, "id" | "type" | "url" | "thumbnailUrl" | "originalName" | "durationSec" | "submittedBy"> & {
    caption?: string | null;
  },
): GalleryItem {
  return {
    id: upload.id,
    type: upload.type,
    url: upload.url,
    thumbnailUrl: upload.thumbnailUrl,
    originalName: upload.originalName,
    durationSec: upload.durationSec,
    title: galleryTitle(upload),
    senderName: senderName(upload.submittedBy),
    caption: upload.caption ?? null,
  };
}

/** What visitors may see: approved, not given up on by processing, and (a voice) shared with permission. */
const published = and(eq(uploads.status, "APPROVED"), isNull(uploads.processingError), eq(uploads.canDisplay, true));

/**
 * Published media, newest first, optionally of one type or of a few (the
 * gallery page: photos and videos, no voices):
 * `limit` items after the `before` cursor (a page that ended there) or, as
 * the spec's API has it, after skipping `offset`. A full page ends with the
 * cursor to continue from.
 */
export function listGallery({
  type,
  limit,
  offset = 0,
  before,
}: {
  type: GalleryFilter | readonly MediaType[];
  limit: number;
  offset?: number;
  before?: PageCursor;
}): ListPage<GalleryItem> {
  const rows = db
    .select({
      id: uploads.id,
      type: uploads.type,
      url: uploads.url,
      thumbnailUrl: uploads.thumbnailUrl,
      originalName: uploads.originalName,
      durationSec: uploads.durationSec,
      submittedBy: uploads.submittedBy,
      caption: uploads.caption,
      createdAt: uploads.createdAt,
    })
    .from(uploads)
    .where(
      and(
        published,
        type === "ALL" ? undefined : typeof type === "string" ? eq(uploads.type, type) : inArray(uploads.type, [...type]),
        before ? olderThan(uploads.createdAt, uploads.id, before) : undefined,
      ),
    )
    .orderBy(desc(uploads.createdAt), desc(uploads.id))
    .limit(limit)
    .offset(offset)
    .all();
  return toListPage(rows, limit, toGalleryItem);
}

// Prepared once: every screen showing the slideshow asks again every half minute.
const selectSlideshow = db
  .select({
    id: uploads.id,
    type: uploads.type,
    url: uploads.url,
    thumbnailUrl: uploads.thumbnailUrl,
    durationSec: uploads.durationSec,
    submittedBy: uploads.submittedBy,
    caption: uploads.caption,
  })
  .from(uploads)
  // Public copies made (a legacy video's display key is its original, never public).
  .where(and(published, sql`${uploads.displayKey} is not null and ${uploads.displayKey} is not ${uploads.storageKey}`))
  .orderBy(desc(uploads.createdAt), desc(uploads.id))
  .limit(SLIDESHOW_MAX_ITEMS)
  .prepare();

/**
 * The reception slideshow: the newest published photos, videos and voice
 * memories (at most SLIDESHOW_MAX_ITEMS), newest first, as their public
 * copies. An upload published before its processing finished joins once its
 * copies are made. A voice is a card with its sender's name and its line:
 * the room hears nothing, so it carries no address to play, and one kept for
 * the family (no permission) is never there (`published`).
 */
export function listSlideshow(): SlideshowItem[] {
  return selectSlideshow.all().map((upload) => ({
    id: upload.id,
    type: upload.type,
    imageUrl: upload.type === "IMAGE" ? upload.url : null,
    videoUrl: upload.type === "VIDEO" ? upload.url : null,
    posterUrl: upload.type === "VIDEO" ? upload.thumbnailUrl : null,
    durationSec: upload.type === "VIDEO" ? upload.durationSec : null,
    senderName: senderName(upload.submittedBy),
    caption: upload.type === "AUDIO" ? upload.caption : null,
  }));
}

/** One published item of the gallery (the video page without JavaScript); never a voice kept for the family. */
export function getGalleryItem(id: number): GalleryItem | undefined {
  const upload = getRow(id);
  return upload?.status === "APPROVED" && !upload.processingError && upload.canDisplay ? toGalleryItem(upload) : undefined;
}

export interface MediaFile {
  key: string;
  contentType: string;
  public: boolean;
  downloadName?: string;
}

/**
 * Which stored object an address /media/{id}/{file} names, and whether
 * anyone may see it. Only published public copies (each width of a photo,
 * a video's copy, the thumbnail or poster) are public; the original
 * of a photo or video (which may carry where it was taken) and anything not
 * yet published are for the admin only.
 */
export function findMediaFile(id: number, file: string): { upload: Upload; media: MediaFile } | undefined {
  const upload = getRow(id);
  // A rejected upload is gone, unless a helper set it aside: then the family (an admin) still sees it; visitors never do.
  if (!upload || (upload.status === "REJECTED" && !upload.setAside)) return undefined;
  // A video processed before videos had public copies serves its original: never publicly.
  // A voice shared with the family only is heard by the family alone.
  const published = upload.status === "APPROVED" && upload.displayKey !== upload.storageKey && upload.canDisplay;
  const named = (key: string | null) => !!key && path.posix.basename(key) === file;
  if (named(upload.displayKey)) {
    const contentType = upload.displayKey === upload.storageKey ? upload.mimeType! : mimeFromKey(upload.displayKey!);
    return { upload, media: { key: upload.displayKey!, contentType, public: published } };
  }
  // The smaller web copies of a photo, named after its largest one.
  const smaller = photoCopies(upload.displayKey)?.find((copy) => named(copy.name));
  if (smaller) return { upload, media: { key: smaller.name, contentType: mimeFromKey(smaller.name), public: published } };
  if (named(upload.thumbnailKey)) {
    return { upload, media: { key: upload.thumbnailKey!, contentType: "image/jpeg", public: published } };
  }
  if (named(upload.storageKey)) {
    return {
      upload,
      media: {
        key: upload.storageKey!,
        contentType: upload.mimeType ?? "application/octet-stream",
        public: false,
        downloadName: upload.originalName ?? undefined,
      },
    };
  }
  return undefined;
}

const PUBLIC_COPY_TYPES: Record<string, string> = {
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  mov: "video/quicktime",
  avi: "video/x-msvideo",
  m4a: "audio/mp4",
};

function mimeFromKey(key: string) {
  return PUBLIC_COPY_TYPES[key.split(".").pop() ?? ""] ?? "image/jpeg";
}
