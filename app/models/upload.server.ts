import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";
import { and, count, desc, eq, isNull, lt } from "drizzle-orm";
import { z } from "zod";
import { signedUploads, uploads, type MediaType, type Status, type Upload } from "../../db/schema";
import { createRateLimiter, networkKey } from "~/auth/rate-limit.server";
import { db } from "~/db.server";
import { Refusal } from "~/utils/refusal.server";
import { MAX_PARTS, MAX_UPLOAD_BYTES } from "~/media/limits";
import { getMediaStorage } from "~/media/media-storage.server";
import { sniffMediaType } from "~/media/process.server";
import { InvalidPartsError, UploadTooLargeError } from "~/media/storage.server";
import { enqueueProcessing, forgetUnreadableUpload, turnImage } from "./upload-processing.server";
import type { GalleryFilter, GalleryItem } from "./upload.schema";

export { GALLERY_FILTERS, submitterLabel, type GalleryItem } from "./upload.schema";

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


/** A request the upload rules refuse; routes turn it into {"errors": {field: [message]}}. */
export class UploadRefused extends Refusal {
  name = "UploadRefused";
}

export const UNSUPPORTED_TYPE = "Only JPG, PNG, HEIC, WebP, GIF, MP4, MOV and AVI files can be shared.";
export const UNREADABLE_FILE =
  "This file could not be read as a photo or video; it may be damaged. Only JPG, PNG, HEIC, WebP, GIF, MP4, MOV and AVI files can be shared.";
export const TOO_LARGE = "The file is larger than 1 GB. Please choose a smaller file.";

/** Signed upload addresses stay usable this long: enough for a slow phone to start. */
const SIGNED_URL_SECONDS = 60 * 60;
/** Keys handed out and never completed are cleaned up after this. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

const SAFE_EXTENSIONS = new Set(["jpg", "jpeg", "png", "heic", "heif", "webp", "gif", "mp4", "mov", "avi"]);
const KEY_PATTERN = /(originals\/[A-Za-z0-9_-]{22}(?:\.[a-z0-9]{3,4})?)$/;

/**
 * Files one network address may start sending in 10 minutes: a whole family
 * at the reception sharing their phones' pictures stays well below it, a
 * script filling the disk does not.
 */
export const UPLOADS_PER_10_MINUTES = 300;
const uploadLimiter = createRateLimiter({ limit: UPLOADS_PER_10_MINUTES, windowMs: 10 * 60 * 1000, bucket: "uploads-started" });
export const TOO_MANY_UPLOADS =
  "Many files have been sent from your network in the last few minutes. Please wait a little while and try again.";

/** Counts one file about to be sent from this address, refusing it past the limit. */
function countUpload(clientIp: string | undefined) {
  const limit = uploadLimiter.consume(networkKey(clientIp));
  if (!limit.allowed) throw new UploadRefused(429, "file", TOO_MANY_UPLOADS, limit.retryAfterSeconds);
}

export function resetUploadLimits() {
  uploadLimiter.reset();
}

/** A fresh object key: a random id and, when the name suggests a known format, its extension. */
function newOriginalKey(filename?: string | null) {
  const ext = filename?.split(".").pop()?.toLowerCase();
  const id = randomBytes(16).toString("base64url").slice(0, 22);
  return `originals/${id}${ext && SAFE_EXTENSIONS.has(ext) ? `.${ext === "jpeg" ? "jpg" : ext}` : ""}`;
}

/** The key inside an upload address this server or its bucket handed out, or null. */
export function keyFromUploadUrl(uploadURL: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(uploadURL, "http://localhost").pathname);
  } catch {
    return null;
  }
  return KEY_PATTERN.exec(pathname)?.[1] ?? null;
}

/** Step one of a direct upload: a key of our own and an address to PUT the file to. */
export async function signUpload(origin: string, hint: { filename?: string | null } = {}, clientIp?: string) {
  countUpload(clientIp);
  const key = newOriginalKey(hint.filename);
  db.insert(signedUploads).values({ key }).run();
  const uploadURL = await getMediaStorage().signPutUrl(key, origin, SIGNED_URL_SECONDS);
  return { uploadURL, key };
}

/** Whether the key was handed out for a single PUT that has not arrived yet. */
export function isAwaitingDirectUpload(key: string) {
  const signed = db.select().from(signedUploads).where(eq(signedUploads.key, key)).get();
  return !!signed && !signed.multipartUploadId;
}

function requireSignedKey(uploadURL: string) {
  const key = keyFromUploadUrl(uploadURL);
  const signed = key ? db.select().from(signedUploads).where(eq(signedUploads.key, key)).get() : undefined;
  if (!key || !signed) {
    const done = key && db.select({ id: uploads.id }).from(uploads).where(eq(uploads.storageKey, key)).get();
    throw new UploadRefused(400, "uploadURL", done ? "This upload has already been completed." : "This uploadURL was not issued by this site.");
  }
  return signed;
}

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

const mediaUrl = (id: number, key: string) => `/media/${id}/${path.posix.basename(key)}`;

/**
 * Turns a stored object into a PENDING upload: checks its size, reads its
 * real type from the bytes (refusing and deleting anything else) and starts
 * the processing. Answers within about a second and a half even when the
 * processing (a large HEIC, a long video) takes longer.
 */
async function registerStoredObject(key: string, details: { submittedBy?: string | null; originalName: string }) {
  const storage = getMediaStorage();
  const stat = await storage.stat(key);
  if (!stat) throw new UploadRefused(400, "uploadURL", "No file has been uploaded to this uploadURL yet.");
  if (stat.size > MAX_UPLOAD_BYTES) {
    await forgetObject(key);
    throw new UploadRefused(413, "file", TOO_LARGE);
  }
  const sniffed = stat.size > 0 ? sniffMediaType(await storage.readHead(key, 64)) : null;
  if (!sniffed) {
    await forgetObject(key);
    throw new UploadRefused(415, "file", UNSUPPORTED_TYPE);
  }
  const upload = db.transaction((tx) => {
    tx.delete(signedUploads).where(eq(signedUploads.key, key)).run();
    const row = tx
      .insert(uploads)
      .values({
        submittedBy: details.submittedBy || null,
        type: sniffed.type,
        originalName: details.originalName,
        url: "",
        storageKey: key,
        mimeType: sniffed.mime,
        sizeBytes: stat.size,
      })
      .returning()
      .get();
    return tx.update(uploads).set({ url: mediaUrl(row.id, key) }).where(eq(uploads.id, row.id)).returning().get();
  });
  const processing = enqueueProcessing(upload.id);
  const outcome = await Promise.race([processing, new Promise<null>((r) => setTimeout(r, 1500, null))]);
  if (outcome && !outcome.ok && outcome.kind === "unreadable") {
    await forgetUnreadableUpload(upload.id);
    throw new UploadRefused(415, "file", UNREADABLE_FILE);
  }
  return toUploadView(outcome ? (getUpload(upload.id) ?? upload) : upload);
}

async function forgetObject(key: string) {
  await getMediaStorage().delete(key).catch(() => {});
  db.delete(signedUploads).where(eq(signedUploads.key, key)).run();
}

/** Step three of a direct upload (POST /api/uploads/complete). */
export async function completeUpload(input: CompleteUploadInput) {
  const signed = requireSignedKey(input.uploadURL);
  if (signed.multipartUploadId) {
    throw new UploadRefused(400, "uploadURL", "This multipart upload has not been completed yet.");
  }
  return registerStoredObject(signed.key, input);
}

/**
 * The form upload without JavaScript: streams one file to storage (never
 * holding it in memory) and registers it exactly as a direct upload would be.
 */
export async function storeFormUpload(
  file: { stream: Readable | AsyncIterable<Buffer>; filename?: string | null; contentType?: string },
  clientIp?: string,
) {
  countUpload(clientIp);
  const key = newOriginalKey(file.filename);
  db.insert(signedUploads).values({ key }).run();
  try {
    await getMediaStorage().write(key, file.stream, { contentType: file.contentType || "application/octet-stream", maxBytes: MAX_UPLOAD_BYTES });
  } catch (error) {
    await forgetObject(key);
    if (error instanceof UploadTooLargeError) throw new UploadRefused(413, "file", TOO_LARGE);
    throw error;
  }
  return key;
}

/** Registers objects stored by storeFormUpload once the whole form has been read. */
export async function registerFormUpload(key: string, details: { submittedBy: string; originalName: string }) {
  return registerStoredObject(key, details);
}

/** Removes an object stored by storeFormUpload when the rest of the form was refused. */
export async function discardFormUpload(key: string) {
  await forgetObject(key);
}

// Multipart uploads (files over 100 MB), in the calls Uppy's S3 plugin makes.

export async function createMultipartUpload(hint: { filename?: string | null; contentType?: string | null }, clientIp?: string) {
  countUpload(clientIp);
  const key = newOriginalKey(hint.filename);
  const uploadId = await getMediaStorage().createMultipartUpload(key, hint.contentType || "application/octet-stream");
  db.insert(signedUploads).values({ key, multipartUploadId: uploadId }).run();
  return { key, uploadId };
}

function requireMultipart(key: string | null, uploadId: string) {
  const signed = key ? db.select().from(signedUploads).where(eq(signedUploads.key, key)).get() : undefined;
  if (!key || !signed || signed.multipartUploadId !== uploadId) {
    throw new UploadRefused(404, "uploadId", "There is no such upload in progress.");
  }
  return key;
}

export function checkPartNumber(raw: string | undefined) {
  const partNumber = /^\d+$/.test(raw ?? "") ? Number(raw) : NaN;
  if (!Number.isSafeInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) {
    throw new UploadRefused(400, "partNumber", `partNumber must be a whole number from 1 to ${MAX_PARTS}`);
  }
  return partNumber;
}

export async function signMultipartPart(key: string | null, uploadId: string, partNumberRaw: string | undefined, origin: string) {
  const partNumber = checkPartNumber(partNumberRaw);
  const checked = requireMultipart(key, uploadId);
  return { url: await getMediaStorage().signPartUrl(checked, uploadId, partNumber, origin, SIGNED_URL_SECONDS) };
}

export async function listMultipartParts(key: string | null, uploadId: string) {
  return getMediaStorage().listParts(requireMultipart(key, uploadId), uploadId);
}

/** Whether a part of this size still fits in the per-file limit (the disk driver's PUT asks). */
export async function multipartRoomLeft(key: string, uploadId: string, partNumber: number) {
  const parts = await getMediaStorage().listParts(requireMultipart(key, uploadId), uploadId);
  const others = parts.filter((part) => part.PartNumber !== partNumber).reduce((sum, part) => sum + part.Size, 0);
  return Math.max(0, MAX_UPLOAD_BYTES - others);
}

export async function completeMultipartUpload(key: string | null, uploadId: string, parts: { PartNumber: number; ETag: string }[], origin: string) {
  const checked = requireMultipart(key, uploadId);
  try {
    await getMediaStorage().completeMultipartUpload(checked, uploadId, parts);
  } catch (error) {
    if (error instanceof InvalidPartsError) throw new UploadRefused(400, "parts", error.message);
    throw error;
  }
  db.update(signedUploads).set({ multipartUploadId: null }).where(eq(signedUploads.key, checked)).run();
  return { location: `${origin}/api/uploads/objects/${checked}` };
}

export async function abortMultipartUpload(key: string | null, uploadId: string) {
  const checked = requireMultipart(key, uploadId);
  await getMediaStorage().abortMultipartUpload(checked, uploadId);
  db.delete(signedUploads).where(eq(signedUploads.key, checked)).run();
}

/** Frees the bytes of uploads that were started and never completed. */
export async function cleanupAbandonedUploads(now = Date.now()) {
  const storage = getMediaStorage();
  const stale = db.select().from(signedUploads).where(lt(signedUploads.createdAt, new Date(now - ABANDONED_AFTER_MS))).all();
  for (const row of stale) {
    try {
      if (row.multipartUploadId) await storage.abortMultipartUpload(row.key, row.multipartUploadId);
      await storage.delete(row.key);
      db.delete(signedUploads).where(eq(signedUploads.key, row.key)).run();
    } catch (error) {
      console.error(JSON.stringify({ level: "warn", msg: "cleanup of an abandoned upload failed", key: row.key, error: String(error) }));
    }
  }
  return stale.length;
}

export { processingIdle, processUpload, requeueUnprocessedUploads } from "./upload-processing.server";

export function getUpload(id: number): Upload | undefined {
  return db.select().from(uploads).where(eq(uploads.id, id)).get();
}

/**
 * Publishes or rejects an upload. A rejected upload's files are deleted from
 * storage at once: the family asked for it to be gone. They are deleted only
 * once the rejection is committed, so a failed write (a full disk) never
 * leaves a PENDING upload whose files are gone.
 */
export async function setUploadStatus(id: number, status: Status) {
  const current = getUpload(id);
  if (!current) return undefined;
  if (current.status === "REJECTED" && status !== "REJECTED") {
    throw new UploadRefused(409, "status", "This upload was deleted permanently and cannot be published.");
  }
  if (status === "APPROVED" && current.processingError) {
    throw new UploadRefused(409, "status", cannotPublish(current.processingError));
  }
  if (status !== "REJECTED") {
    // All RETURNING rows are read, so a failed commit throws instead of passing unseen.
    return db.update(uploads).set({ status }).where(eq(uploads.id, id)).returning().all()[0];
  }
  const [rejected] = db
    .update(uploads)
    .set({ status, storageKey: null, displayKey: null, thumbnailKey: null })
    .where(eq(uploads.id, id))
    .returning()
    .all();
  if (!rejected) return undefined;
  const keys = [...new Set([current.storageKey, current.displayKey, current.thumbnailKey].filter((key): key is string => !!key))];
  await Promise.all(
    keys.map((key) =>
      getMediaStorage()
        .delete(key)
        .catch((error: unknown) => {
          console.error(JSON.stringify({ level: "warn", msg: "could not delete a rejected upload's file", key, error: String(error) }));
        }),
    ),
  );
  return rejected;
}

/** Why an upload processing gave up on stays unpublished, as the admin reads it. */
export const cannotPublish = (reason: string) =>
  `This file cannot be published because it could not be processed: ${reason}. You can delete it, or ask the sender for another copy.`;

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
  const approved = and(eq(uploads.status, "APPROVED"), isNull(uploads.processingError));
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
  return upload?.status === "APPROVED" && !upload.processingError ? toGalleryItem(upload) : undefined;
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
 * of a photo or video (which may carry where it was taken) and anything not
 * yet published are for the admin only.
 */
export function findMediaFile(id: number, file: string): { upload: Upload; media: MediaFile } | undefined {
  const upload = getUpload(id);
  if (!upload || upload.status === "REJECTED") return undefined;
  // A video processed before videos had public copies serves its original: never publicly.
  const published = upload.status === "APPROVED" && upload.displayKey !== upload.storageKey;
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

const PUBLIC_COPY_TYPES: Record<string, string> = {
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  mov: "video/quicktime",
  avi: "video/x-msvideo",
};

function mimeFromKey(key: string) {
  return PUBLIC_COPY_TYPES[key.split(".").pop() ?? ""] ?? "image/jpeg";
}

/** What the administrator sees of an upload: who sent it, the format, and the original file. */
export interface AdminUpload extends UploadView {
  submittedBy: string | null;
  mimeType: string | null;
  sizeBytes: number | null;
  /** The file exactly as it was sent (HEIC stays HEIC), for the family to download. */
  originalUrl: string | null;
  /** Why it could not be processed (then it cannot be published), or null. */
  processingError: string | null;
}

export function toAdminUpload(upload: Upload): AdminUpload {
  return {
    ...toUploadView(upload),
    submittedBy: upload.submittedBy,
    mimeType: upload.mimeType,
    sizeBytes: upload.sizeBytes,
    originalUrl: upload.storageKey ? mediaUrl(upload.id, upload.storageKey) : null,
    processingError: upload.processingError,
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
  const turned = await turnImage(id, direction);
  return turned ? { newUrl: turned.url, upload: toAdminUpload(turned) } : undefined;
}
