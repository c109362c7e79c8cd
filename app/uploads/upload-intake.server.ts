// How files come in: signed addresses, completion, and the clean-up of what
// was started and never finished. The plain form is in upload-form.server.ts;
// resumable (multipart) uploads and the disk driver's PUT in
// upload-parts.server.ts; the storage budget in upload-budget.server.ts;
// processing in upload-processing.server.ts.
import { randomBytes } from "node:crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { signedUploads, uploads, type MediaType, type SignedUpload } from "../../db/schema";
import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { MAX_UPLOAD_BYTES, VOICE_EXTENSIONS } from "~/media/limits";
import { getMediaStorage } from "~/media/media-storage.server";
import { sniffMediaType, soundOf, type SniffedType } from "~/media/process.server";
import { admitStoredBytes, checkUploadRoom, forgetPartSizes, resetUploadByteCounts, TOO_LARGE } from "./upload-budget.server";
import { queueNewUploadMail } from "~/mail/notifications.server";
import { mailEnabled } from "~/mail/outbox.server";
import { UploadRefused } from "./upload-refusal.server";
import { mediaUrl } from "./processing-state.server";
import { enqueueProcessing, forgetUnreadableUpload } from "./upload-processing.server";
import { getUpload, toUploadView } from "./upload.server";
import type { CompleteUploadInput } from "./complete-upload.schema";
import type { Language } from "~/i18n/languages";

export const UNSUPPORTED_TYPE = "Only JPG, PNG, HEIC, WebP, GIF, MP4, MOV and AVI files can be shared.";
const NOT_A_RECORDING =
  "This file is not a voice recording we can accept. Voice memories can be M4A, WebM, Ogg, 3GP, MP3 or WAV recordings.";
export const UNREADABLE_FILE =
  "This file could not be read as a photo or video; it may be damaged. Only JPG, PNG, HEIC, WebP, GIF, MP4, MOV and AVI files can be shared.";

/** Signed upload addresses stay usable this long: enough for a slow phone to start. */
export const SIGNED_URL_SECONDS = 60 * 60;
/** Keys handed out and never completed are cleaned up after this (a resumable upload may be resumed until then). */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * A single PUT is completed right after it arrives, and its address expires
 * after an hour: one not completed within two hours never will be, and its
 * bytes must not keep counting against the storage budget for a whole day.
 */
const ABANDONED_DIRECT_AFTER_MS = 2 * 60 * 60 * 1000;

const SAFE_EXTENSIONS = new Set<string>(["jpg", "jpeg", "png", "heic", "heif", "webp", "gif", "mp4", "mov", "avi", ...VOICE_EXTENSIONS]);
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
export function countUpload(clientIp: string | undefined) {
  const limit = uploadLimiter.consume(networkKey(clientIp));
  if (!limit.allowed) throw new UploadRefused(429, "file", TOO_MANY_UPLOADS, limit.retryAfterSeconds);
}

export function resetUploadLimits() {
  uploadLimiter.reset();
  resetUploadByteCounts();
}

/**
 * The sniffed type, as the sender meant it where the bytes leave it open: a
 * file sent as a voice is one (an MP4 or MOV gives its sound), but a photo
 * sent as a voice is no recording (null).
 */
function asDeclared(sniffed: SniffedType | null, declared: MediaType | null | undefined): SniffedType | null {
  if (!sniffed || declared !== "AUDIO" || sniffed.type === "AUDIO") return sniffed;
  return sniffed.type === "VIDEO" ? { ...sniffed, type: "AUDIO", mime: soundOf(sniffed.mime) } : null;
}

/** A fresh object key: a random id and, when the name suggests a known format, its extension. */
export function newOriginalKey(filename?: string | null) {
  const ext = filename?.split(".").pop()?.toLowerCase();
  const id = randomBytes(16).toString("base64url").slice(0, 22);
  return `originals/${id}${ext && SAFE_EXTENSIONS.has(ext) ? `.${ext === "jpeg" ? "jpg" : ext}` : ""}`;
}

/** The key inside an upload address this server or its bucket handed out, or null. */
function keyFromUploadUrl(uploadURL: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(uploadURL, "http://localhost").pathname);
  } catch {
    return null;
  }
  return KEY_PATTERN.exec(pathname)?.[1] ?? null;
}

/** What the sender says of a file: who they are, and for a voice memory its line and whether visitors may hear it. */
export interface UploadDetails {
  submittedBy: string;
  originalName: string;
  notifyWhenPublished?: boolean;
  /** What the sender meant to share ("AUDIO" from the voice form): decides only what the bytes leave open (an MP4 with sound alone). */
  declaredType?: MediaType | null;
  /** A voice memory's typed line, its text alternative. */
  caption?: string | null;
  /** The guest book's permission box: false keeps a published voice for the family alone. */
  canDisplay?: boolean;
  /** The sender's language, for the e-mails written to them. */
  language?: Language;
}

/** What a browser may say about the file it is about to send. */
export interface UploadHint {
  filename?: string | null;
  /** The file's size in bytes, when the browser says: a file that cannot fit is refused before it is sent. */
  size?: number | null;
}

/** Step one of a direct upload: a key of our own and an address to PUT the file to. */
export async function signUpload(origin: string, hint: UploadHint = {}, clientIp?: string) {
  await checkUploadRoom({ kind: "file", bytes: hint.size ?? 0, clientIp });
  countUpload(clientIp);
  const key = newOriginalKey(hint.filename);
  db.insert(signedUploads)
    .values({ key, clientKey: networkKey(clientIp) })
    .run();
  const uploadURL = await getMediaStorage().signPutUrl(key, origin, SIGNED_URL_SECONDS);
  return { uploadURL, key };
}

export function findSignedUpload(key: string): SignedUpload | undefined {
  return db.select().from(signedUploads).where(eq(signedUploads.key, key)).get();
}

/** Whether the key was handed out for a single PUT that has not arrived yet. */
export function isAwaitingDirectUpload(key: string) {
  const signed = findSignedUpload(key);
  return !!signed && !signed.multipartUploadId;
}

function requireSignedKey(uploadURL: string) {
  const key = keyFromUploadUrl(uploadURL);
  const signed = key ? findSignedUpload(key) : undefined;
  if (!key || !signed) {
    const done = key && db.select({ id: uploads.id }).from(uploads).where(eq(uploads.storageKey, key)).get();
    throw new UploadRefused(
      400,
      "uploadURL",
      done ? "This upload has already been completed." : "This uploadURL was not issued by this site.",
    );
  }
  return signed;
}

/**
 * Turns a stored object into a PENDING upload: checks its size, reads its
 * real type from the bytes (refusing and deleting anything else) and starts
 * the processing. Answers within about a second and a half even when the
 * processing (a large HEIC, a long video) takes longer.
 */
export async function registerStoredObject(signed: SignedUpload, details: UploadDetails) {
  const { key } = signed;
  const storage = getMediaStorage();
  const stat = await storage.stat(key);
  if (!stat) throw new UploadRefused(400, "uploadURL", "No file has been uploaded to this uploadURL yet.");
  if (stat.size > MAX_UPLOAD_BYTES) {
    await forgetObject(key);
    throw new UploadRefused(413, "file", TOO_LARGE);
  }
  try {
    // Bytes this server did not receive itself (sent straight to a bucket) are counted now.
    admitStoredBytes(stat.size - signed.bytes, signed.clientKey);
  } catch (error) {
    await forgetObject(key);
    throw error;
  }
  const sniffed = asDeclared(stat.size > 0 ? sniffMediaType(await storage.readHead(key, 64)) : null, details.declaredType);
  const voice = details.declaredType === "AUDIO" || sniffed?.type === "AUDIO";
  if (!sniffed) {
    await forgetObject(key);
    throw new UploadRefused(415, "file", voice ? NOT_A_RECORDING : UNSUPPORTED_TYPE);
  }
  const upload = db.transaction((tx) => {
    tx.delete(signedUploads).where(eq(signedUploads.key, key)).run();
    const [row] = tx
      .insert(uploads)
      .values({
        submittedBy: details.submittedBy,
        type: sniffed.type,
        originalName: details.originalName,
        url: "",
        storageKey: key,
        mimeType: sniffed.mime,
        sizeBytes: stat.size,
        notifyWhenPublished: mailEnabled() && (details.notifyWhenPublished ?? false),
        caption: details.caption || null,
        canDisplay: details.canDisplay ?? true,
        language: details.language ?? "en",
      })
      .returning()
      .all();
    // The e-mail to the family is committed with the upload, and sent after.
    queueNewUploadMail(tx, row!, signed.clientKey);
    // All RETURNING rows read here too, as everywhere: one rule, whether or not a transaction surrounds the write.
    const [registered] = tx
      .update(uploads)
      .set({ url: mediaUrl(row!.id, key) })
      .where(eq(uploads.id, row!.id))
      .returning()
      .all();
    return registered!;
  });
  const processing = enqueueProcessing(upload.id);
  const outcome = await Promise.race([processing, new Promise<null>((r) => setTimeout(r, config.COMPLETION_WAIT_MS, null))]);
  // Found unreadable while the visitor waits: refused like any other file that is not a photo or video.
  if (outcome && !outcome.ok && outcome.kind === "unreadable") {
    await forgetUnreadableUpload(upload.id);
    throw new UploadRefused(415, "file", voice ? NOT_A_RECORDING : UNREADABLE_FILE);
  }
  // A recording over ten minutes: its sender is told how long it is; nothing is kept.
  if (outcome && !outcome.ok && outcome.kind === "too-large" && (voice || getUpload(upload.id)?.type === "AUDIO")) {
    await forgetUnreadableUpload(upload.id);
    throw new UploadRefused(400, "file", outcome.reason);
  }
  // A video larger than this machine can prepare (above 4K), found while the visitor waits: they are told why, nothing is kept.
  if (outcome && !outcome.ok && outcome.kind === "too-large" && upload.type === "VIDEO") {
    await forgetUnreadableUpload(upload.id);
    // A clause for the admin ("the video is 8K…") made a sentence; a voice's reason (a WebM with sound alone) is one already.
    const reason = `${outcome.reason.charAt(0).toUpperCase()}${outcome.reason.slice(1)}`;
    throw new UploadRefused(400, "file", reason.endsWith(".") ? reason : `${reason}.`);
  }
  return toUploadView(outcome ? (getUpload(upload.id) ?? upload) : upload);
}

export async function forgetObject(key: string) {
  await getMediaStorage()
    .delete(key)
    .catch(() => {});
  db.delete(signedUploads).where(eq(signedUploads.key, key)).run();
}

/** Step three of a direct upload (POST /api/uploads/complete). */
export async function completeUpload(input: CompleteUploadInput, language?: Language) {
  const signed = requireSignedKey(input.uploadURL);
  if (signed.multipartUploadId) {
    throw new UploadRefused(400, "uploadURL", "This multipart upload has not been completed yet.");
  }
  return registerStoredObject(signed, { ...input, declaredType: input.type, language });
}

/**
 * What an upload's `location` (the address a finished multipart upload
 * answers with) shows: the file is there and waits to be completed, or has
 * been. Null for anything else.
 */
export async function describeUploadedObject(key: string) {
  if (!/^originals\/[A-Za-z0-9_-]{22}(?:\.[a-z0-9]{3,4})?$/.test(key)) return null;
  const signed = findSignedUpload(key);
  if (signed && !signed.multipartUploadId) {
    const stat = await getMediaStorage().stat(key);
    return stat ? { key, status: "uploaded" as const, size: stat.size } : null;
  }
  const done = db.select({ id: uploads.id }).from(uploads).where(eq(uploads.storageKey, key)).get();
  return done ? { key, status: "completed" as const } : null;
}

export const LENGTH_REQUIRED =
  "Your browser did not say how large the upload is, so it can't be accepted. Please try again, or try another browser.";

/** Frees the bytes of uploads that were started and never completed. */
export async function cleanupAbandonedUploads(now = Date.now()) {
  const storage = getMediaStorage();
  const stale = db
    .select()
    .from(signedUploads)
    .where(
      or(
        lt(signedUploads.createdAt, new Date(now - ABANDONED_AFTER_MS)),
        and(isNull(signedUploads.multipartUploadId), lt(signedUploads.createdAt, new Date(now - ABANDONED_DIRECT_AFTER_MS))),
      ),
    )
    .all();
  for (const row of stale) {
    try {
      if (row.multipartUploadId) {
        await storage.abortMultipartUpload(row.key, row.multipartUploadId);
        forgetPartSizes(row.multipartUploadId);
      }
      await storage.delete(row.key);
      db.delete(signedUploads).where(eq(signedUploads.key, row.key)).run();
    } catch (error) {
      console.error(JSON.stringify({ level: "warn", msg: "cleanup of an abandoned upload failed", key: row.key, error: String(error) }));
    }
  }
  return stale.length;
}
