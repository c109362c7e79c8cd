import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { uploads, type Upload } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { getMediaStorage, scratchDirectory } from "~/media/media-storage.server";
import { makeImageCopies, soundOf } from "~/media/process.server";
import { checkVideoFrameSize, checkVideoLength, makeVideoPoster, probeVideo, SoundOnly } from "~/media/video.server";
import { checkVoiceLength, makeVoiceCopy, probeVoice } from "~/media/voice.server";
import { MediaProblem } from "~/media/processing-limits.server";
import { mediaJobs as queue } from "~/media/media-jobs.server";
import { JobTimedOut } from "~/media/processing-queue.server";
import { stopAllTools } from "~/media/run-tool.server";
import { photoCopyName } from "~/media/web-sizes";
import { Refusal } from "~/platform/refusal.server";
import {
  CANNOT_ROTATE,
  deleteKeys,
  getRow,
  giveUp,
  mediaUrl,
  markFailed,
  needsFirstPart,
  needsProcessing,
  needsWebVideo,
  partlyMade,
  processingTimeLimitMs,
  publicCopyKeys,
  segmentsDirectory,
  senderOf,
  SOMETHING_WENT_WRONG,
  stillWanted,
  storer,
  unattended,
  working,
  type ProcessingOutcome,
} from "./processing-state.server";
import { enqueueWebVideo } from "./web-video-copy.server";

// Processing: the public copy, thumbnail and measurements of each upload,
// made from its original one job at a time, each job within a time limit.
// A job that fails for any reason leaves the upload marked with the reason
// (processingError), which the admin sees and which keeps it unpublished.

/** Queues one upload's processing; resolves (never rejects) once it has been processed or given up on. */
export function enqueueProcessing(id: number): Promise<ProcessingOutcome> {
  const upload = getRow(id);
  const limitMs = processingTimeLimitMs(upload ?? { sizeBytes: 0 });
  return queue
    .enqueue((signal) => processUpload(id, signal), { limitMs, owner: senderOf(upload, id), subject: id })
    .catch(giveUp(id, limitMs));
}

/** Whether media work is running or waiting: the server does not stop itself for being idle meanwhile (server/idle-exit.mjs). */
export function processingPending() {
  return queue.busy;
}

/**
 * An upload deleted or rejected: its waiting jobs are dropped and its
 * running one is stopped, ffmpeg included, so no work goes on for a file
 * that is gone.
 */
export function cancelProcessing(id: number) {
  queue.cancel(id);
  partlyMade.delete(id);
  void fs.rm(segmentsDirectory(id), { recursive: true, force: true });
}

/**
 * On shutdown: the running job is stopped (its tools killed) and nothing
 * else starts; the upload stays as it was, and the next start takes it up
 * again (requeueUnprocessedUploads). Waits a little for the stopped job to
 * settle, so it does not write after the database closes.
 */
export async function stopProcessing() {
  queue.stop();
  stopAllTools();
  await Promise.race([queue.idle(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
}

/** Waits until every processing job queued so far has finished (jobs stopped at their time limit included). */
export function processingIdle() {
  return queue.idle();
}

/**
 * Makes the public copy, thumbnail and measurements of one upload from its
 * original. Never throws: a failure is written to the upload and returned.
 */
export async function processUpload(id: number, signal?: AbortSignal): Promise<ProcessingOutcome> {
  const upload = getRow(id);
  if (!upload || upload.status === "REJECTED" || !upload.storageKey || !upload.mimeType || !needsProcessing(upload)) return { ok: true };
  try {
    working.set(id, { percent: null, startedAt: Date.now() });
    const updated = needsFirstPart(upload) ? await replaceCopies(upload, upload.rotation, signal, {}) : upload;
    // The web copy of a video takes longer: it waits its own turn, and no one waits for it.
    if (updated && needsWebVideo(updated)) void enqueueWebVideo(id);
    return { ok: true };
  } catch (error) {
    const problem = error instanceof MediaProblem ? error : new MediaProblem("failed", SOMETHING_WENT_WRONG);
    if (!(error instanceof MediaProblem)) {
      console.error(JSON.stringify({ level: "error", msg: "media processing failed", uploadId: id, error: String(error) }));
    }
    // Past its time limit the queue has already recorded why.
    if (!signal?.aborted) markFailed(id, problem.message);
    return { ok: false, kind: problem.kind, reason: problem.message };
  } finally {
    // The web copy's job (which counts from 0) may already have begun.
    if (working.get(id)?.percent === null) working.delete(id);
  }
}

/**
 * Makes new copies of an upload (turned `rotation` quarter turns) under new
 * names, so no cache can show old ones, records them with `extra` (through
 * `commit`), and removes the copies they replace. Undefined when the upload
 * was rejected meanwhile (nothing is kept) or the job ran out of time
 * (nothing is written); when the record is refused, the new copies go too.
 */
async function replaceCopies(
  upload: Upload,
  rotation: number,
  signal: AbortSignal | undefined,
  extra: Partial<Upload>,
  commit: <T>(write: () => T) => T = unattended,
) {
  const storage = getMediaStorage();
  const workDir = path.join(scratchDirectory(), `process-${upload.id}-${randomBytes(4).toString("hex")}`);
  const newKeys: string[] = [];
  try {
    const changes = await storage.withLocalFile(upload.storageKey!, (file) => makeCopies(upload, file, rotation, workDir, newKeys, signal));
    const updated = signal?.aborted
      ? undefined
      : commit(() =>
          db
            .update(uploads)
            .set({ ...changes, ...extra, processedAt: new Date(), processingError: null })
            .where(stillWanted(upload.id))
            .returning()
            // All rows read: a failed commit (a full disk) throws instead of passing unseen.
            .all(),
        )[0];
    if (!updated) {
      // Rejected while we worked, or too late: these files must not outlive the job.
      await deleteKeys(newKeys);
      return undefined;
    }
    const kept = publicCopyKeys(updated);
    const replaced = publicCopyKeys(upload).filter((key) => !kept.includes(key));
    await deleteKeys(replaced);
    return updated;
  } catch (error) {
    await deleteKeys(newKeys);
    throw error;
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

async function makeCopies(upload: Upload, file: string, rotation: number, workDir: string, newKeys: string[], signal?: AbortSignal) {
  const id = upload.id;
  const store = storer(id, newKeys);
  if (upload.type === "IMAGE") {
    const copies = await makeImageCopies(file, upload.mimeType!, rotation, workDir, { signal });
    // Every size shares one random name, so the largest one's name tells the others (app/media/web-sizes.ts).
    const name = randomBytes(9).toString("base64url");
    let displayKey = "";
    for (const size of copies.sizes) {
      displayKey = await store(photoCopyName("", size.width, copies.format.ext), size.file, copies.format.mime, name);
    }
    const thumbnailKey = await store("-thumb.jpg", copies.thumbnail, "image/jpeg");
    return {
      displayKey,
      thumbnailKey,
      url: mediaUrl(id, displayKey),
      thumbnailUrl: mediaUrl(id, thumbnailKey),
      width: copies.width,
      height: copies.height,
    };
  }
  if (upload.type === "AUDIO") return makeVoiceCopies(id, file, workDir, store, signal);
  const facts = await probeVideo(file, { signal }).catch((error: unknown) => {
    if (error instanceof SoundOnly) return "sound only" as const;
    throw error;
  });
  // An MP4, 3GP, WebM or Ogg with sound and no picture (a voice memo saved as .mp4, an Android or a browser's recording): a voice memory.
  if (facts === "sound only")
    return { ...(await makeVoiceCopies(id, file, workDir, store, signal)), type: "AUDIO" as const, mimeType: soundOf(upload.mimeType!) };
  if (!facts) throw new MediaProblem("unreadable", "the video could not be read; the file may be damaged or not really a video");
  checkVideoFrameSize(facts);
  checkVideoLength(facts);
  // The poster and measurements now (ffmpeg turns the frame upright); the web copy in a job of its own.
  const poster = await makeVideoPoster(file, facts.durationSec, workDir, { signal });
  const thumbnailKey = poster ? await store("-poster.jpg", poster, "image/jpeg") : null;
  return {
    thumbnailKey,
    thumbnailUrl: thumbnailKey ? mediaUrl(id, thumbnailKey) : null,
    width: facts.width,
    height: facts.height,
    durationSec: facts.durationSec,
  };
}

/**
 * A voice memory's one public copy (AAC in M4A at -16 LUFS, app/media/voice.server.ts)
 * and its length; the sound of a file that also holds pictures, when the sender
 * chose it as a voice.
 */
async function makeVoiceCopies(id: number, file: string, workDir: string, store: ReturnType<typeof storer>, signal?: AbortSignal) {
  const facts = await probeVoice(file, { signal });
  if (!facts) throw new MediaProblem("unreadable", "the recording could not be read; the file may be damaged or not really a recording");
  checkVoiceLength(facts);
  // The length is the sound's own, found while decoding it: a header may say less than the file holds.
  const { file: copy, durationSec } = await makeVoiceCopy(file, facts, workDir, { signal });
  const displayKey = await store("-voice.m4a", copy, "audio/mp4");
  return {
    displayKey,
    url: mediaUrl(id, displayKey),
    thumbnailKey: null,
    thumbnailUrl: null,
    width: null,
    height: null,
    durationSec,
  };
}

/**
 * Uploads whose processing a restart interrupted, videos still served from
 * their original, and photos made before they had copies in several widths. Uploads processing gave up on stay as they are: the
 * same file would fail the same way at every start.
 */
export function requeueUnprocessedUploads() {
  const waiting = db
    .select({ id: uploads.id })
    .from(uploads)
    .where(
      and(
        inArray(uploads.status, ["PENDING", "APPROVED", "HIDDEN"]),
        isNull(uploads.processingError),
        or(
          isNull(uploads.processedAt),
          and(eq(uploads.type, "VIDEO"), eq(uploads.displayKey, uploads.storageKey)),
          // A video whose web copy a restart interrupted, or made before web copies existed.
          and(eq(uploads.type, "VIDEO"), isNull(uploads.webVideo)),
          // Roughly photoCopies' pattern; processUpload checks each exactly.
          sql`${uploads.type} = 'IMAGE' and coalesce(${uploads.displayKey}, '') not glob '*-[0-9]*w.jpg' and coalesce(${uploads.displayKey}, '') not glob '*-[0-9]*w.gif'`,
        ),
      ),
    )
    .all();
  for (const row of waiting) void enqueueProcessing(row.id);
  return waiting.length;
}

/** Removes an upload found unreadable while its sender was still waiting: they are told, nothing is kept. */
export async function forgetUnreadableUpload(id: number) {
  const upload = getRow(id);
  if (!upload) return;
  await deleteKeys([...new Set([upload.storageKey, ...publicCopyKeys(upload)].filter((key): key is string => !!key))]);
  db.delete(uploads).where(eq(uploads.id, id)).run();
}

/**
 * Turns a photo a quarter left or right: new copies from the original. It
 * goes ahead of every upload waiting to be processed, so the admin waits at
 * most for the one job in progress. A failure keeps the previous copies.
 */
export async function turnImage(id: number, direction: "left" | "right", by: Actor): Promise<Upload | undefined> {
  const upload = getRow(id);
  if (!upload || upload.status === "REJECTED") return undefined;
  if (upload.type !== "IMAGE" || !upload.storageKey) throw new Refusal(400, "id", "Only photos can be rotated.");
  if (upload.processingError) throw new Refusal(422, "id", CANNOT_ROTATE);
  const turn = direction === "right" ? 1 : -1;
  try {
    return await queue.enqueue(
      async (signal) => {
        // Read again in the job: an earlier turn may have changed it meanwhile.
        const current = getRow(id);
        if (!current || current.status === "REJECTED" || !current.storageKey) return undefined;
        const rotation = (((current.rotation + turn) % 4) + 4) % 4;
        return replaceCopies(current, rotation, signal, { rotation }, (write) => by.commit(write));
      },
      { limitMs: processingTimeLimitMs(upload), urgent: true },
    );
  } catch (error) {
    if (error instanceof MediaProblem || error instanceof JobTimedOut) {
      console.error(JSON.stringify({ level: "warn", msg: "rotation failed", uploadId: id, error: String(error) }));
      throw new Refusal(422, "id", error instanceof JobTimedOut ? "Turning this image took too long. Please try again." : CANNOT_ROTATE);
    }
    throw error;
  }
}
