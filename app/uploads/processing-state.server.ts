import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { uploads, type Upload } from "../../db/schema";
import { db } from "~/platform/db.server";
import { DiskStorage } from "~/media/disk-storage.server";
import { getMediaStorage, scratchDirectory } from "~/media/media-storage.server";
import { minutesLeft } from "~/media/cpu-budget.server";
import { MediaProblem, tooSlow } from "~/media/processing-limits.server";
import { JobCancelled, JobTimedOut } from "~/media/processing-queue.server";
import { photoCopies } from "~/media/web-sizes";
import { parseSubmittedBy } from "~/utils/submitted-by";
import type { ProcessingState } from "./upload.schema";

// What the processing of uploads shares (upload-processing.server.ts for the
// first copies and turns, web-video-copy.server.ts for videos' web copies):
// which uploads are being worked on, what each still needs, and how a
// failure or a new copy is recorded.

/**
 * Uploads whose job is running now, with the share of a video's web copy
 * encoded so far (null until ffmpeg reports it, and for other jobs) and when
 * the job started. One process, one queue: the admin pages read it to show
 * "Being prepared: 40% done, still preparing — about 3 minutes".
 */
export const working = new Map<number, { percent: number | null; startedAt: number }>();

/** Long videos whose web copy is made in segments: how far it has come between two of them, and since when. */
export const partlyMade = new Map<number, { percent: number; startedAt: number }>();

/** Where a long video's finished segments are kept until its web copy is joined (a restart goes on from them). */
export const segmentsDirectory = (id: number) => path.join(scratchDirectory(), `web-video-${id}-segments`);

/** Where an upload's processing stands, as the admin sees it. */
export function processingStateOf(upload: Pick<Upload, "id" | "type" | "processedAt" | "processingError" | "webVideo">): ProcessingState {
  if (upload.processingError) return { state: "failed", reason: upload.processingError };
  if (isReady(upload)) return { state: "ready" };
  const job = working.get(upload.id) ?? partlyMade.get(upload.id);
  if (job) return { state: "processing", percent: job.percent, minutesLeft: minutesLeft(job.percent, job.startedAt, Date.now()) };
  return { state: "waiting" };
}

/** Whether an upload's public copies exist: a photo's web copies, or a video's poster and web copy. */
export function isReady(upload: Pick<Upload, "type" | "processedAt" | "processingError" | "webVideo">) {
  return !upload.processingError && upload.processedAt !== null && (upload.type !== "VIDEO" || upload.webVideo !== null);
}

/** What one processing job came to. */
export type ProcessingOutcome = { ok: true } | { ok: false; kind: MediaProblem["kind"]; reason: string };

export const CANNOT_ROTATE = "This image could not be read, so it cannot be rotated.";
export const SOMETHING_WENT_WRONG = "something went wrong while preparing it";

/** The address an upload's stored file is served at (`findMediaFile` reads it back). */
export const mediaUrl = (id: number, key: string) => `/media/${id}/${path.posix.basename(key)}`;
export const getRow = (id: number): Upload | undefined => db.select().from(uploads).where(eq(uploads.id, id)).get();
// An unpublished (HIDDEN) upload is kept, and may be published again: its copies are still made.
export const stillWanted = (id: number) => and(eq(uploads.id, id), inArray(uploads.status, ["PENDING", "APPROVED", "HIDDEN"]));

/**
 * How long one upload's job may take: the tools' own limits added up (three
 * minutes), and for every 4 MB of the file two more seconds to fetch and copy it.
 * A voice's tools are held to budgets of CPU seconds instead (about 90 for ten
 * minutes of sound, app/media/voice.server.ts), which a shared CPU at its
 * baseline stretches sixteen times on the clock: its job has twenty minutes.
 */
export function processingTimeLimitMs(upload: Pick<Upload, "sizeBytes"> & Partial<Pick<Upload, "type">>) {
  const perFourMegabytes = Math.ceil((upload.sizeBytes ?? 0) / (4 * 1024 * 1024));
  const limit = Math.min(3 * 60_000 + perFourMegabytes * 2000, 30 * 60_000);
  return upload.type === "AUDIO" ? Math.max(limit, 20 * 60_000) : limit;
}

/** A video processed before public copies of videos existed serves its original (with its location). */
const servesOriginal = (upload: Upload) => upload.type === "VIDEO" && !!upload.storageKey && upload.displayKey === upload.storageKey;

/** A photo processed before photos had web copies in several widths serves one full-size copy. */
const lacksWebSizes = (upload: Upload) => upload.type === "IMAGE" && !photoCopies(upload.displayKey);

/** A video's poster and measurements (the first, quick part of its processing) are still to be made. */
export const needsFirstPart = (upload: Upload) => upload.processedAt === null || servesOriginal(upload) || lacksWebSizes(upload);

/** A video without its web copy: the older public copy kept its codec, which not every browser plays. */
export const needsWebVideo = (upload: Upload) => upload.type === "VIDEO" && upload.webVideo === null;

export function needsProcessing(upload: Upload) {
  return upload.processingError === null && (needsFirstPart(upload) || needsWebVideo(upload));
}

/** The stored public copies of an upload: every width of a photo (or a video's one copy) and the thumbnail or poster. */
export function publicCopyKeys(upload: Pick<Upload, "storageKey" | "displayKey" | "thumbnailKey">): string[] {
  const display = upload.displayKey ? (photoCopies(upload.displayKey)?.map((copy) => copy.name) ?? [upload.displayKey]) : [];
  return [...display, upload.thumbnailKey].filter((key): key is string => !!key && key !== upload.storageKey);
}

/**
 * Who sent an upload, for the queue's turns (app/media/processing-queue.server.ts):
 * their address, or the upload itself when it has none.
 */
export function senderOf(upload: Pick<Upload, "id" | "submittedBy"> | undefined, id: number) {
  const email = upload?.submittedBy ? parseSubmittedBy(upload.submittedBy)?.email : undefined;
  return email ? email.toLowerCase() : `upload-${id}`;
}

export const giveUp =
  (id: number, limitMs: number, fail: (id: number, reason: string) => void = markFailed) =>
  (error: unknown) => {
    // Deleted or rejected meanwhile, or the server is stopping (the next start takes it up again).
    if (error instanceof JobCancelled) return { ok: false as const, kind: "failed" as const, reason: error.message };
    const problem = error instanceof JobTimedOut ? tooSlow(Math.round(limitMs / 1000)) : new MediaProblem("failed", SOMETHING_WENT_WRONG);
    console.error(JSON.stringify({ level: "error", msg: "media processing failed", uploadId: id, error: String(error) }));
    fail(id, problem.message);
    return { ok: false as const, kind: problem.kind, reason: problem.message };
  };

export function markFailed(id: number, reason: string) {
  try {
    db.update(uploads).set({ processedAt: new Date(), processingError: reason }).where(stillWanted(id)).run();
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "could not record a processing failure", uploadId: id, error: String(error) }));
  }
}

/** Processing writes its own results; an admin's turn of a photo is committed as the admin's change (Actor.commit). */
export const unattended = <T>(write: () => T) => write();

/** Stores a file made in the scratch directory as one of an upload's public copies (on disk, or in the bucket). */
export const storer =
  (id: number, newKeys: string[]) =>
  async (suffix: string, local: string, contentType: string, name = randomBytes(9).toString("base64url")) => {
    const key = `media/${id}/${name}${suffix}`;
    const storage = getMediaStorage();
    if (storage instanceof DiskStorage) await storage.adopt(key, local);
    else await storage.write(key, createReadStream(local), { contentType, maxBytes: Number.MAX_SAFE_INTEGER });
    newKeys.push(key);
    return key;
  };

export async function deleteKeys(keys: string[]) {
  await Promise.all(
    keys.map((key) =>
      getMediaStorage()
        .delete(key)
        .catch(() => {}),
    ),
  );
}
