// Resumable (multipart) uploads in the calls Uppy's S3 plugin makes, and the
// local-disk driver's signed PUT of a file or a part. Every byte that arrives
// is reserved against the storage budget before it is read.
import type { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { signedUploads } from "../../db/schema";
import { networkKey } from "~/platform/rate-limit.server";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { DiskStorage, ObjectExistsError, UnknownUploadError } from "~/media/disk-storage.server";
import { MAX_PARTS } from "~/media/limits";
import { getMediaStorage } from "~/media/media-storage.server";
import { readGrant } from "~/media/signature.server";
import { InvalidPartsError, UploadTooLargeError } from "~/media/storage.server";
import {
  checkUploadRoom,
  forgetPartSizes,
  requireDiskRoom,
  reserveUploadBytes,
  storedPartSizes,
  TOO_LARGE,
  type UploadIntake,
} from "./upload-budget.server";
import {
  countUpload,
  findSignedUpload,
  isAwaitingDirectUpload,
  LENGTH_REQUIRED,
  newOriginalKey,
  SIGNED_URL_SECONDS,
  type UploadHint,
} from "./upload-intake.server";
import { UploadRefused } from "./upload-refusal.server";

export async function createMultipartUpload(hint: UploadHint & { contentType?: string | null }, clientIp?: string) {
  await checkUploadRoom({ kind: "file", bytes: hint.size ?? 0, clientIp });
  countUpload(clientIp);
  const key = newOriginalKey(hint.filename);
  const uploadId = await getMediaStorage().createMultipartUpload(key, hint.contentType || "application/octet-stream");
  db.insert(signedUploads)
    .values({ key, multipartUploadId: uploadId, clientKey: networkKey(clientIp) })
    .run();
  return { key, uploadId };
}

const NO_SUCH_UPLOAD = "There is no such upload in progress.";

function requireMultipart(key: string | null, uploadId: string) {
  const signed = key ? findSignedUpload(key) : undefined;
  if (!key || !signed || signed.multipartUploadId !== uploadId) throw new UploadRefused(404, "uploadId", NO_SUCH_UPLOAD);
  return key;
}

function checkPartNumber(raw: string | undefined) {
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

/** The parts an upload holds on the local disk, kept up to date as parts arrive. */
function partSizesOnDisk(storage: DiskStorage, key: string, uploadId: string) {
  return storedPartSizes(uploadId, () => storage.listParts(key, uploadId)).catch((error: unknown) => {
    if (error instanceof UnknownUploadError) throw new UploadRefused(404, "uploadId", NO_SUCH_UPLOAD);
    throw error;
  });
}

const sumOf = (sizes: Map<number, number>, except?: number) => {
  let bytes = 0;
  for (const [partNumber, size] of sizes) if (partNumber !== except) bytes += size;
  return bytes;
};

/**
 * Joins the parts into the file. `location` is an address that answers (GET)
 * with what the site knows of the file, and is what the browser then sends
 * as the uploadURL to complete the upload.
 */
export async function completeMultipartUpload(
  key: string | null,
  uploadId: string,
  parts: { PartNumber: number; ETag: string }[],
  origin: string,
) {
  const checked = requireMultipart(key, uploadId);
  const storage = getMediaStorage();
  let joined: number | null = null;
  if (storage instanceof DiskStorage) {
    // The parts are copied into one file before they are removed: that copy needs room.
    const sizes = await partSizesOnDisk(storage, checked, uploadId);
    joined = parts.reduce((bytes, part) => bytes + (sizes.get(part.PartNumber) ?? 0), 0);
    await requireDiskRoom(joined);
  }
  try {
    await storage.completeMultipartUpload(checked, uploadId, parts);
  } catch (error) {
    if (error instanceof InvalidPartsError) throw new UploadRefused(400, "parts", error.message);
    throw error;
  }
  forgetPartSizes(uploadId);
  db.update(signedUploads)
    .set(joined === null ? { multipartUploadId: null } : { multipartUploadId: null, bytes: joined })
    .where(eq(signedUploads.key, checked))
    .run();
  return { location: `${origin}/api/uploads/objects/${checked}` };
}

export async function abortMultipartUpload(key: string | null, uploadId: string) {
  const checked = requireMultipart(key, uploadId);
  await getMediaStorage().abortMultipartUpload(checked, uploadId);
  forgetPartSizes(uploadId);
  db.delete(signedUploads).where(eq(signedUploads.key, checked)).run();
}

/** What the browser sent to a signed address of the local-disk driver. */
export interface SignedPut {
  key: string;
  /** The address's query: its expiry and signature, and for a part its uploadId and partNumber. */
  searchParams: URLSearchParams;
  contentLength: string | null;
  contentType: string | null;
  body: Readable;
  clientIp?: string;
}

const TAKEN = "A file has already been uploaded to this address.";

/**
 * Stores the body of a PUT to a signed address: a whole file, or one part of
 * a multipart upload. The signature is checked first. Its Content-Length is
 * required (browsers always send it): it is reserved before the body is read
 * and the body is never stored past it; the body is streamed to a temporary
 * file, never held in memory. Answers with the ETag the browser lists on
 * completion.
 */
export async function receiveSignedPut(signed: SignedPut): Promise<{ etag: string }> {
  const check = readGrant(signed.key, signed.searchParams, config.sessionSecrets);
  if (!check.ok)
    throw new UploadRefused(403, "signature", check.reason === "expired" ? "Request has expired" : "This upload address is not valid.");
  const put: GrantedPut = { ...signed, ...check.grant };
  const storage = getMediaStorage();
  if (!(storage instanceof DiskStorage)) throw new UploadRefused(404, "uploadURL", "Uploads go straight to the bucket");
  const bytes = put.contentLength !== null && /^\d+$/.test(put.contentLength.trim()) ? Number(put.contentLength) : NaN;
  if (!Number.isSafeInteger(bytes)) throw new UploadRefused(411, "file", LENGTH_REQUIRED);
  try {
    if (put.uploadId !== undefined && put.partNumber !== undefined)
      return await receivePart(storage, put, put.uploadId, put.partNumber, bytes);
    return await receiveFile(storage, put, bytes);
  } catch (error) {
    if (error instanceof UploadTooLargeError) throw new UploadRefused(413, "file", TOO_LARGE);
    if (error instanceof ObjectExistsError) throw new UploadRefused(409, "uploadURL", TAKEN);
    if (error instanceof UnknownUploadError) throw new UploadRefused(404, "uploadId", NO_SUCH_UPLOAD);
    // The upload was cancelled (its folder removed) while this part was arriving.
    if (put.uploadId !== undefined && (error as NodeJS.ErrnoException).code === "ENOENT")
      throw new UploadRefused(404, "uploadId", NO_SUCH_UPLOAD);
    throw error;
  }
}

type GrantedPut = SignedPut & { uploadId?: string; partNumber?: number };

async function receivePart(storage: DiskStorage, put: GrantedPut, uploadId: string, partNumber: number, bytes: number) {
  const key = requireMultipart(put.key, uploadId);
  const sizes = await partSizesOnDisk(storage, key, uploadId);
  const intake: UploadIntake = await reserveUploadBytes({
    kind: "part",
    bytes,
    clientIp: put.clientIp,
    part: { uploadId, partNumber, otherPartsStored: () => sumOf(sizes, partNumber) },
  });
  try {
    const { etag, size } = await storage.receivePart(key, uploadId, partNumber, put.body, bytes);
    sizes.set(partNumber, size);
    db.update(signedUploads)
      .set({ bytes: sumOf(sizes) })
      .where(and(eq(signedUploads.key, key), eq(signedUploads.multipartUploadId, uploadId)))
      .run();
    intake.stored(size);
    return { etag };
  } finally {
    intake.release();
  }
}

async function receiveFile(storage: DiskStorage, put: GrantedPut, bytes: number) {
  if (!isAwaitingDirectUpload(put.key) || (await storage.exists(put.key))) throw new UploadRefused(409, "uploadURL", TAKEN);
  const intake = await reserveUploadBytes({ kind: "file", bytes, clientIp: put.clientIp });
  try {
    const { size } = await storage.write(put.key, put.body, { contentType: put.contentType ?? "", maxBytes: bytes });
    db.update(signedUploads).set({ bytes: size }).where(eq(signedUploads.key, put.key)).run();
    intake.stored(size);
  } finally {
    intake.release();
  }
  return { etag: `"${put.key.split("/").pop()}"` };
}
