import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { uploads, type MediaType, type Status, type Upload } from "../../db/schema";
import { db } from "~/db.server";
import { getMediaStorage, scratchDirectory } from "~/media/media-storage.server";
import { makeImageCopies, makeVideoPoster, probeVideo } from "~/media/process.server";
import { UploadRefused } from "./upload-refusal.server";
import type { GalleryFilter, GalleryItem } from "./upload.schema";

export { GALLERY_FILTERS, submitterLabel, type GalleryItem } from "./upload.schema";
export { UploadRefused } from "./upload-refusal.server";
// How files come in lives beside this file; these names stay importable from here.
export {
  ABANDONED_AFTER_MS,
  beginFormUpload,
  cleanupAbandonedUploads,
  completeUpload,
  CompleteUploadSchema,
  describeUploadedObject,
  discardFormUpload,
  isAwaitingDirectUpload,
  keyFromUploadUrl,
  NAME_AND_EMAIL_REQUIRED,
  registerFormUpload,
  resetUploadLimits,
  signUpload,
  storeFormUpload,
  TOO_LARGE,
  TOO_MANY_UPLOADS,
  UNSUPPORTED_TYPE,
  UPLOADS_PER_10_MINUTES,
  type CompleteUploadInput,
} from "./upload-intake.server";
export {
  abortMultipartUpload,
  checkPartNumber,
  completeMultipartUpload,
  createMultipartUpload,
  listMultipartParts,
  receiveSignedPut,
  signMultipartPart,
} from "./upload-parts.server";

export interface UploadView extends GalleryItem {
  width: number | null;
  height: number | null;
  status: Status;
  createdAt: string;
}

export function toUploadView(upload: Upload): UploadView {
  return {
    id: upload.id,
    type: upload.type,
    url: upload.url,
    thumbnailUrl: upload.thumbnailUrl,
    originalName: upload.originalName,
    durationSec: upload.durationSec,
    width: upload.width,
    height: upload.height,
    status: upload.status,
    createdAt: upload.createdAt.toISOString(),
  };
}

export const mediaUrl = (id: number, key: string) => `/media/${id}/${path.posix.basename(key)}`;

// Processing: one job at a time, so a burst of large photos cannot exhaust a small machine's memory.

let queue: Promise<unknown> = Promise.resolve();

export function enqueueProcessing(id: number): Promise<void> {
  const job = queue.then(() => processUpload(id));
  queue = job.catch((error) => {
    console.error(JSON.stringify({ level: "error", msg: "media processing failed", uploadId: id, error: String(error) }));
  });
  return job.then(
    () => undefined,
    () => undefined,
  );
}

/** Waits until every processing job queued so far has finished. */
export async function processingIdle() {
  for (;;) {
    const current = queue;
    await current;
    if (current === queue) return;
  }
}

/** Makes the public copy, thumbnail and measurements of one upload from its original. */
export async function processUpload(id: number) {
  const upload = getUpload(id);
  if (!upload || upload.status === "REJECTED" || !upload.storageKey || !upload.mimeType) return;
  const storage = getMediaStorage();
  const workDir = path.join(scratchDirectory(), `process-${id}-${randomBytes(4).toString("hex")}`);
  const newKeys: string[] = [];
  try {
    const changes = await storage.withLocalFile(upload.storageKey, async (file) => {
      if (upload.type === "IMAGE") {
        const copies = await makeImageCopies(file, upload.mimeType!, upload.rotation, workDir);
        if (!copies) return {};
        const displayKey = `media/${id}/${randomBytes(9).toString("base64url")}.${copies.display.ext}`;
        const thumbnailKey = `media/${id}/${randomBytes(9).toString("base64url")}-thumb.jpg`;
        await storeFile(displayKey, copies.display.file, copies.display.mime);
        newKeys.push(displayKey);
        await storeFile(thumbnailKey, copies.thumbnail, "image/jpeg");
        newKeys.push(thumbnailKey);
        return {
          displayKey,
          thumbnailKey,
          url: mediaUrl(id, displayKey),
          thumbnailUrl: mediaUrl(id, thumbnailKey),
          width: copies.width,
          height: copies.height,
        };
      }
      const facts = await probeVideo(file);
      const poster = await makeVideoPoster(file, facts?.durationSec ?? null, workDir);
      const thumbnailKey = poster ? `media/${id}/${randomBytes(9).toString("base64url")}-poster.jpg` : null;
      if (poster && thumbnailKey) {
        await storeFile(thumbnailKey, poster, "image/jpeg");
        newKeys.push(thumbnailKey);
      }
      return {
        displayKey: upload.storageKey,
        thumbnailKey,
        url: mediaUrl(id, upload.storageKey!),
        thumbnailUrl: thumbnailKey ? mediaUrl(id, thumbnailKey) : null,
        width: facts?.width ?? null,
        height: facts?.height ?? null,
        durationSec: facts?.durationSec ?? null,
      };
    });
    const updated = db
      .update(uploads)
      .set({ ...changes, processedAt: new Date() })
      .where(and(eq(uploads.id, id), inArray(uploads.status, ["PENDING", "APPROVED"])))
      .returning()
      .get();
    if (!updated) {
      // Rejected while we worked: its files must not outlive it.
      await Promise.all(newKeys.map((key) => storage.delete(key)));
      return;
    }
    const replaced = [upload.displayKey, upload.thumbnailKey].filter(
      (key): key is string => !!key && key !== upload.storageKey && !newKeys.includes(key),
    );
    await Promise.all(replaced.map((key) => storage.delete(key)));
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

async function storeFile(key: string, file: string, contentType: string) {
  await getMediaStorage().write(key, createReadStream(file), { contentType, maxBytes: Number.MAX_SAFE_INTEGER });
}

/** Uploads whose processing a restart interrupted. */
export function requeueUnprocessedUploads() {
  const waiting = db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(inArray(uploads.status, ["PENDING", "APPROVED"]), isNull(uploads.processedAt)))
    .all();
  for (const row of waiting) void enqueueProcessing(row.id);
  return waiting.length;
}

export function getUpload(id: number): Upload | undefined {
  return db.select().from(uploads).where(eq(uploads.id, id)).get();
}

/**
 * Publishes or rejects an upload. A rejected upload's files are deleted from
 * storage at once: the family asked for it to be gone.
 */
export async function setUploadStatus(id: number, status: Status) {
  const current = getUpload(id);
  if (!current) return undefined;
  if (current.status === "REJECTED" && status !== "REJECTED") {
    throw new UploadRefused(409, "status", "This upload was deleted permanently and cannot be published.");
  }
  const upload = db.update(uploads).set({ status }).where(eq(uploads.id, id)).returning().get();
  if (!upload) return undefined;
  if (status === "REJECTED") {
    const keys = [...new Set([upload.storageKey, upload.displayKey, upload.thumbnailKey].filter((key): key is string => !!key))];
    await Promise.all(keys.map((key) => getMediaStorage().delete(key)));
    return db
      .update(uploads)
      .set({ storageKey: null, displayKey: null, thumbnailKey: null })
      .where(eq(uploads.id, id))
      .returning()
      .get();
  }
  return upload;
}

export function toGalleryItem(upload: Pick<Upload, "id" | "type" | "url" | "thumbnailUrl" | "originalName" | "durationSec">): GalleryItem {
  return {
    id: upload.id,
    type: upload.type,
    url: upload.url,
    thumbnailUrl: upload.thumbnailUrl,
    originalName: upload.originalName,
    durationSec: upload.durationSec,
  };
}

/** Published media, newest first, optionally only photos or only videos. */
export function listGallery({ type, limit, offset }: { type: GalleryFilter; limit: number; offset: number }): GalleryItem[] {
  const approved = eq(uploads.status, "APPROVED");
  return db
    .select({
      id: uploads.id,
      type: uploads.type,
      url: uploads.url,
      thumbnailUrl: uploads.thumbnailUrl,
      originalName: uploads.originalName,
      durationSec: uploads.durationSec,
    })
    .from(uploads)
    .where(type === "ALL" ? approved : and(approved, eq(uploads.type, type as MediaType)))
    .orderBy(desc(uploads.createdAt), desc(uploads.id))
    .limit(limit)
    .offset(offset)
    .all()
    .map(toGalleryItem);
}

/** One published item of the gallery (the video page without JavaScript). */
export function getGalleryItem(id: number): GalleryItem | undefined {
  const upload = getUpload(id);
  return upload?.status === "APPROVED" ? toGalleryItem(upload) : undefined;
}

export interface MediaFile {
  key: string;
  contentType: string;
  public: boolean;
  downloadName?: string;
}

/**
 * Which stored object an address /media/{id}/{file} names, and whether
 * anyone may see it. Only published public copies are public; the original
 * of a photo (which may carry its GPS location) and anything not yet
 * published are for the admin only.
 */
export function findMediaFile(id: number, file: string): { upload: Upload; media: MediaFile } | undefined {
  const upload = getUpload(id);
  if (!upload || upload.status === "REJECTED") return undefined;
  const published = upload.status === "APPROVED";
  const named = (key: string | null) => !!key && path.posix.basename(key) === file;
  if (named(upload.displayKey)) {
    const contentType = upload.displayKey === upload.storageKey ? upload.mimeType! : mimeFromKey(upload.displayKey!);
    return { upload, media: { key: upload.displayKey!, contentType, public: published } };
  }
  if (named(upload.thumbnailKey)) {
    return { upload, media: { key: upload.thumbnailKey!, contentType: "image/jpeg", public: published } };
  }
  if (named(upload.storageKey)) {
    return {
      upload,
      media: { key: upload.storageKey!, contentType: upload.mimeType ?? "application/octet-stream", public: false, downloadName: upload.originalName ?? undefined },
    };
  }
  return undefined;
}

function mimeFromKey(key: string) {
  const ext = key.split(".").pop();
  return ext === "png" ? "image/png" : ext === "webp" ? "image/webp" : ext === "gif" ? "image/gif" : "image/jpeg";
}

/** What the administrator sees of an upload: who sent it, the format, and the original file. */
export interface AdminUpload extends UploadView {
  submittedBy: string | null;
  mimeType: string | null;
  sizeBytes: number | null;
  /** The file exactly as it was sent (HEIC stays HEIC), for the family to download. */
  originalUrl: string | null;
}

export function toAdminUpload(upload: Upload): AdminUpload {
  return {
    ...toUploadView(upload),
    submittedBy: upload.submittedBy,
    mimeType: upload.mimeType,
    sizeBytes: upload.sizeBytes,
    originalUrl: upload.storageKey ? mediaUrl(upload.id, upload.storageKey) : null,
  };
}

/** Uploads waiting for review, oldest first. */
export function listPendingUploads(): AdminUpload[] {
  return db
    .select()
    .from(uploads)
    .where(eq(uploads.status, "PENDING"))
    .orderBy(uploads.createdAt, uploads.id)
    .all()
    .map(toAdminUpload);
}

export function countPendingUploads(): number {
  return db.select({ n: count() }).from(uploads).where(eq(uploads.status, "PENDING")).get()?.n ?? 0;
}

export function getAdminUpload(id: number): AdminUpload | undefined {
  const upload = getUpload(id);
  return upload ? toAdminUpload(upload) : undefined;
}

export type RotateDirection = "left" | "right";

/**
 * Turns a photo a quarter left or right. The public copy and thumbnail are
 * made again from the original under new names, so no cache can show the old
 * picture, and the old files are removed.
 */
export async function rotateUpload(id: number, direction: RotateDirection): Promise<{ newUrl: string; upload: AdminUpload } | undefined> {
  const upload = getUpload(id);
  if (!upload || upload.status === "REJECTED") return undefined;
  if (upload.type !== "IMAGE" || !upload.storageKey) throw new UploadRefused(400, "id", "Only photos can be rotated.");
  await processingIdle();
  const rotation = (((upload.rotation + (direction === "right" ? 1 : -1)) % 4) + 4) % 4;
  db.update(uploads).set({ rotation }).where(eq(uploads.id, id)).run();
  await enqueueProcessing(id);
  const updated = getUpload(id)!;
  if (updated.url === upload.url) {
    db.update(uploads).set({ rotation: upload.rotation }).where(eq(uploads.id, id)).run();
    throw new UploadRefused(422, "id", "This image could not be read, so it cannot be rotated.");
  }
  return { newUrl: updated.url, upload: toAdminUpload(updated) };
}
