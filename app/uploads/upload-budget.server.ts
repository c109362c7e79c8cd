import { and, eq, inArray, isNotNull, sum } from "drizzle-orm";
import { signedUploads, uploads, setAsideRows } from "../../db/schema";
import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { MAX_UPLOAD_BYTES } from "~/media/limits";
import { getMediaStorage } from "~/media/media-storage.server";
import { UploadRefused } from "./upload-refusal.server";

/**
 * What uploads may take of the site's storage. A 3 GB volume holds the
 * database, the published media and whatever strangers send before the family
 * has looked at it, so what waits for review has a budget of its own, the disk
 * always keeps some room free, and one network can only send so much a day.
 */
interface UploadBudget {
  /** Bytes that uploads not yet published may hold together (stored, half-sent and arriving). */
  pendingBytes: number;
  /** Free space the disk always keeps (the database and the published media need room too). */
  minFreeBytes: number;
  /** Bytes one network (an IPv4 address, an IPv6 /64) may send in 24 hours. */
  bytesPerDay: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const budget: UploadBudget = {
  pendingBytes: config.PENDING_UPLOAD_BYTES,
  minFreeBytes: config.MIN_FREE_DISK_BYTES,
  bytesPerDay: config.UPLOAD_BYTES_PER_DAY,
};
const bytesLimiter = createRateLimiter({ bucket: "upload-bytes", limit: budget.bytesPerDay, windowMs: DAY_MS });

export function resetUploadByteCounts() {
  bytesLimiter.reset();
}

export const TOO_LARGE = "The file is larger than 1 GB. Please choose a smaller file.";
const STORAGE_FULL_FOR_UPLOADS =
  "The memorial's storage is full right now, so this file can't be accepted. The family has been told; please try again later.";
export const STORAGE_FULL_FOR_FORM =
  "The memorial's storage is full right now, so your files can't be accepted. The family has been told; please try again later.";
const TOO_MUCH_AT_ONCE = "These files together are more than the memorial can take at once. Please send fewer files at a time.";

function tryAgainIn(seconds: number) {
  const hours = Math.round(seconds / 3600);
  if (hours >= 2) return `in about ${hours} hours`;
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes >= 60 ? "in about an hour" : `in about ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

function dailyBudgetSpent(retryAfterSeconds: number) {
  return `So much has been uploaded from your network today that the memorial can't take more from it for now. Please try again ${tryAgainIn(retryAfterSeconds)}.`;
}

/** One request's bytes on their way to storage, counted before they are read. */
interface Reservation {
  bytes: number;
  clientKey: string;
  uploadId?: string;
  partNumber?: number;
}

const inFlight = new Set<Reservation>();
const total = (list: Iterable<Reservation>) => {
  let bytes = 0;
  for (const reservation of list) bytes += reservation.bytes;
  return bytes;
};

/** Bytes held for review: uploads not yet published, files sent and not completed, and bytes arriving now. */
function pendingBytes(): number {
  const registered = db
    .select({ bytes: sum(uploads.sizeBytes) })
    .from(uploads)
    .where(and(eq(uploads.status, "PENDING"), isNotNull(uploads.storageKey)))
    .get();
  const unfinished = db
    .select({ bytes: sum(signedUploads.bytes) })
    .from(signedUploads)
    .get();
  return Number(registered?.bytes ?? 0) + Number(unfinished?.bytes ?? 0) + total(inFlight);
}

let lastFullNotice = 0;

function storageFull(details: Record<string, unknown>): never {
  // The family learns of it in the admin panel; the log says why, once a minute at most.
  if (Date.now() - lastFullNotice > 60_000) {
    lastFullNotice = Date.now();
    console.error(
      JSON.stringify({ time: new Date().toISOString(), level: "error", msg: "uploads refused: storage budget reached", ...details }),
    );
  }
  throw new UploadRefused(507, "file", STORAGE_FULL_FOR_UPLOADS);
}

type IntakeKind = "file" | "part" | "form";

export interface IntakeRequest {
  kind: IntakeKind;
  /** The bytes about to arrive (a Content-Length), or what a browser says it will send. */
  bytes: number;
  clientIp?: string;
  /** For a part: which, and the bytes of this upload's other parts already stored (read after any await). */
  part?: { uploadId: string; partNumber: number; otherPartsStored: () => number };
}

/**
 * Every rule on bytes, checked in one synchronous step after the free space
 * was read, so that two requests can never both take the last room.
 */
function checkRoom(request: IntakeRequest, freeBytes: number | null, clientKey: string, now: number) {
  const bytes = Math.max(request.bytes, 1);
  if (request.kind !== "form" && request.bytes > MAX_UPLOAD_BYTES) throw new UploadRefused(413, "file", TOO_LARGE);
  if (request.part) {
    const { uploadId, partNumber, otherPartsStored } = request.part;
    let others = otherPartsStored();
    for (const reservation of inFlight)
      if (reservation.uploadId === uploadId && reservation.partNumber !== partNumber) others += reservation.bytes;
    if (others + request.bytes > MAX_UPLOAD_BYTES) throw new UploadRefused(413, "file", TOO_LARGE);
  }
  if (request.kind === "form" && bytes > budget.pendingBytes) throw new UploadRefused(413, "file", TOO_MUCH_AT_ONCE);
  const pending = pendingBytes();
  if (pending + bytes > budget.pendingBytes) storageFull({ reason: "pending uploads", pendingBytes: pending, limit: budget.pendingBytes });
  if (freeBytes !== null && freeBytes - total(inFlight) - bytes < budget.minFreeBytes) {
    storageFull({ reason: "free disk space", freeBytes, minFreeBytes: budget.minFreeBytes });
  }
  const sending = [...inFlight].filter((reservation) => reservation.clientKey === clientKey);
  const allowed = bytesLimiter.check(clientKey, now, total(sending) + bytes);
  if (!allowed.allowed) throw new UploadRefused(429, "file", dailyBudgetSpent(allowed.retryAfterSeconds), allowed.retryAfterSeconds);
}

/** Whether a file of this size (0 when the browser did not say) could be accepted now; nothing is reserved. */
export async function checkUploadRoom(request: IntakeRequest) {
  const freeBytes = await getMediaStorage().freeBytes();
  checkRoom(request, freeBytes, networkKey(request.clientIp), Date.now());
}

/** Bytes received and stored for an upload, and what is left of their reservation. */
export interface UploadIntake {
  /** Bytes still reserved and not yet stored. */
  readonly reserved: number;
  /**
   * These bytes are now stored and counted in the database (signed_uploads.bytes),
   * so they leave the reservation, and they count against the sender's daily budget.
   * Call it in the same synchronous step as the database update.
   */
  stored(bytes: number): void;
  /** Ends the reservation: what was not stored is free again. */
  release(): void;
}

/**
 * Reserves `bytes` for a request before its body is read, refusing it when
 * it would pass the per-file limit (413), the pending budget or the free-space
 * floor (507), or the sender's daily budget (429).
 */
export async function reserveUploadBytes(request: IntakeRequest): Promise<UploadIntake> {
  const freeBytes = await getMediaStorage().freeBytes();
  const clientKey = networkKey(request.clientIp);
  checkRoom(request, freeBytes, clientKey, Date.now());
  const reservation: Reservation = {
    bytes: request.bytes,
    clientKey,
    uploadId: request.part?.uploadId,
    partNumber: request.part?.partNumber,
  };
  inFlight.add(reservation);
  return {
    get reserved() {
      return reservation.bytes;
    },
    stored(bytes) {
      reservation.bytes = Math.max(0, reservation.bytes - bytes);
      if (bytes > 0) bytesLimiter.hit(clientKey, Date.now(), bytes);
    },
    release() {
      inFlight.delete(reservation);
    },
  };
}

/**
 * Counts a file that reached storage without passing through this server (a
 * bucket upload), at completion: refused when it does not fit the budgets.
 */
export function admitStoredBytes(bytes: number, clientKey: string | null) {
  if (bytes <= 0) return;
  const pending = pendingBytes();
  if (pending + bytes > budget.pendingBytes) storageFull({ reason: "pending uploads", pendingBytes: pending, limit: budget.pendingBytes });
  const key = clientKey ?? networkKey(undefined);
  const allowed = bytesLimiter.consume(key, Date.now(), bytes);
  if (!allowed.allowed) throw new UploadRefused(429, "file", dailyBudgetSpent(allowed.retryAfterSeconds), allowed.retryAfterSeconds);
}

/** Refuses to copy `bytes` on the disk (joining a multipart upload) when that would pass the free-space floor. */
export async function requireDiskRoom(bytes: number) {
  const freeBytes = await getMediaStorage().freeBytes();
  if (freeBytes !== null && freeBytes - total(inFlight) - bytes < budget.minFreeBytes) {
    storageFull({ reason: "free disk space", freeBytes, minFreeBytes: budget.minFreeBytes });
  }
}

export interface StorageUse {
  pendingBytes: number;
  publishedBytes: number;
  /** Kept with their files for the family to decide on: what helpers set aside. */
  setAsideBytes: number;
  /** Null when media lives in a bucket. */
  freeBytes: number | null;
  /** Why new uploads are being turned away right now, if they are. */
  full: "pending" | "disk" | null;
}

/** What the admin panel shows of the storage. */
export async function storageUse(): Promise<StorageUse> {
  const freeBytes = await getMediaStorage().freeBytes();
  const pending = pendingBytes();
  const published = db
    .select({ bytes: sum(uploads.sizeBytes) })
    .from(uploads)
    // Unpublished (HIDDEN) uploads are kept for the family, as published ones are.
    .where(and(inArray(uploads.status, ["APPROVED", "HIDDEN"]), isNotNull(uploads.storageKey)))
    .get();
  // Only a helper's rejection keeps its files (a family rejection deletes them at once).
  const setAside = db
    .select({ bytes: sum(uploads.sizeBytes) })
    .from(uploads)
    .where(and(setAsideRows(uploads), isNotNull(uploads.storageKey)))
    .get();
  const full =
    freeBytes !== null && freeBytes - total(inFlight) <= budget.minFreeBytes ? "disk" : pending >= budget.pendingBytes ? "pending" : null;
  return {
    pendingBytes: pending,
    publishedBytes: Number(published?.bytes ?? 0),
    setAsideBytes: Number(setAside?.bytes ?? 0),
    freeBytes,
    full,
  };
}

// The sizes of the parts each multipart upload has stored, kept here as they
// change so the per-file check never waits on the disk between reading them
// and reserving. Read once from storage after a restart.
const partSizes = new Map<string, Promise<Map<number, number>>>();

export async function storedPartSizes(uploadId: string, load: () => Promise<{ PartNumber: number; Size: number }[]>) {
  let sizes = partSizes.get(uploadId);
  if (!sizes) {
    sizes = load().then((parts) => new Map(parts.map((part) => [part.PartNumber, part.Size])));
    partSizes.set(uploadId, sizes);
    sizes.catch(() => partSizes.delete(uploadId));
  }
  return sizes;
}

export function forgetPartSizes(uploadId: string) {
  partSizes.delete(uploadId);
}
