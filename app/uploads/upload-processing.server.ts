import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { uploads, type Upload } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { DiskStorage } from "~/media/disk-storage.server";
import { getMediaStorage, scratchDirectory } from "~/media/media-storage.server";
import { makeImageCopies } from "~/media/process.server";
import {
  checkVideoFrameSize,
  checkVideoLength,
  encodeVideoSegment,
  joinVideoSegments,
  makeVideoPoster,
  makeWebVideo,
  probeForWeb,
  probeVideo,
  segmentPlan,
} from "~/media/video.server";
import { CpuBudgetExceeded, mayTryAgain, minutesLeft, webVideoCpuSeconds } from "~/media/cpu-budget.server";
import { MediaProblem, tooSlow } from "~/media/processing-limits.server";
import { mediaJobs as queue } from "~/media/media-jobs.server";
import { JobCancelled, JobTimedOut } from "~/media/processing-queue.server";
import { stopAllTools } from "~/media/run-tool.server";
import { photoCopies, photoCopyName } from "~/media/web-sizes";
import { Refusal } from "~/platform/refusal.server";
import { parseSubmittedBy } from "~/utils/submitted-by";
import type { ProcessingState } from "./upload.schema";

// Processing: the public copy, thumbnail and measurements of each upload,
// made from its original one job at a time, each job within a time limit.
// A job that fails for any reason leaves the upload marked with the reason
// (processingError), which the admin sees and which keeps it unpublished.

/**
 * Uploads whose job is running now, with the share of a video's web copy
 * encoded so far (null until ffmpeg reports it, and for other jobs) and when
 * the job started. One process, one queue: the admin pages read it to show
 * "Being prepared: 40% done, still preparing — about 3 minutes".
 */
const working = new Map<number, { percent: number | null; startedAt: number }>();

/** Long videos whose web copy is made in segments: how far it has come between two of them, and since when. */
const partlyMade = new Map<number, { percent: number; startedAt: number }>();

/** Where a long video's finished segments are kept until its web copy is joined (a restart goes on from them). */
const segmentsDirectory = (id: number) => path.join(scratchDirectory(), `web-video-${id}-segments`);

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

const CANNOT_ROTATE = "This image could not be read, so it cannot be rotated.";
const SOMETHING_WENT_WRONG = "something went wrong while preparing it";

/** The address an upload's stored file is served at (`findMediaFile` reads it back). */
export const mediaUrl = (id: number, key: string) => `/media/${id}/${path.posix.basename(key)}`;
const getRow = (id: number): Upload | undefined => db.select().from(uploads).where(eq(uploads.id, id)).get();
// An unpublished (HIDDEN) upload is kept, and may be published again: its copies are still made.
const stillWanted = (id: number) => and(eq(uploads.id, id), inArray(uploads.status, ["PENDING", "APPROVED", "HIDDEN"]));

/**
 * How long one upload's job may take: the tools' own limits added up (three
 * minutes), and for every 4 MB of the file two more seconds to fetch and copy it.
 */
export function processingTimeLimitMs(upload: Pick<Upload, "sizeBytes">) {
  const perFourMegabytes = Math.ceil((upload.sizeBytes ?? 0) / (4 * 1024 * 1024));
  return Math.min(3 * 60_000 + perFourMegabytes * 2000, 30 * 60_000);
}

/** A video processed before public copies of videos existed serves its original (with its location). */
const servesOriginal = (upload: Upload) => upload.type === "VIDEO" && !!upload.storageKey && upload.displayKey === upload.storageKey;

/** A photo processed before photos had web copies in several widths serves one full-size copy. */
const lacksWebSizes = (upload: Upload) => upload.type === "IMAGE" && !photoCopies(upload.displayKey);

/** A video's poster and measurements (the first, quick part of its processing) are still to be made. */
const needsFirstPart = (upload: Upload) => upload.processedAt === null || servesOriginal(upload) || lacksWebSizes(upload);

/** A video without its web copy: the older public copy kept its codec, which not every browser plays. */
const needsWebVideo = (upload: Upload) => upload.type === "VIDEO" && upload.webVideo === null;

function needsProcessing(upload: Upload) {
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
function senderOf(upload: Pick<Upload, "id" | "submittedBy"> | undefined, id: number) {
  const email = upload?.submittedBy ? parseSubmittedBy(upload.submittedBy)?.email : undefined;
  return email ? email.toLowerCase() : `upload-${id}`;
}

/** Queues one upload's processing; resolves (never rejects) once it has been processed or given up on. */
export function enqueueProcessing(id: number): Promise<ProcessingOutcome> {
  const upload = getRow(id);
  const limitMs = processingTimeLimitMs(upload ?? { sizeBytes: 0 });
  return queue
    .enqueue((signal) => processUpload(id, signal), { limitMs, owner: senderOf(upload, id), subject: id })
    .catch(giveUp(id, limitMs));
}

/**
 * Queues the making of a video's web copy behind every photo and poster
 * waiting (theirs are quick, and someone waits for them), within a budget
 * of CPU seconds for its length and frame size, never of wall-clock time
 * (app/media/cpu-budget.server.ts): try `attempt` of it. Nobody waits for
 * it: the sender's completion has been answered after the first part.
 */
function enqueueWebVideo(id: number, attempt = 1): Promise<ProcessingOutcome> {
  const upload = getRow(id);
  const cpuSeconds = webVideoCpuSeconds(upload ?? { sizeBytes: 0, durationSec: null, width: null, height: null }, attempt);
  return queue
    .enqueue((signal) => makeWebVideoFor(id, cpuSeconds, attempt, signal), { priority: "long", owner: senderOf(upload, id), subject: id })
    .catch(giveUp(id, 0, webVideoFailed));
}

const giveUp =
  (id: number, limitMs: number, fail: (id: number, reason: string) => void = markFailed) =>
  (error: unknown) => {
    // Deleted or rejected meanwhile, or the server is stopping (the next start takes it up again).
    if (error instanceof JobCancelled) return { ok: false as const, kind: "failed" as const, reason: error.message };
    const problem = error instanceof JobTimedOut ? tooSlow(Math.round(limitMs / 1000)) : new MediaProblem("failed", SOMETHING_WENT_WRONG);
    console.error(JSON.stringify({ level: "error", msg: "media processing failed", uploadId: id, error: String(error) }));
    fail(id, problem.message);
    return { ok: false as const, kind: problem.kind, reason: problem.message };
  };

/** A video processed before web copies existed: its public copy is the original's pictures and sound without metadata. */
const hasOlderPublicCopy = (upload: Upload) => upload.type === "VIDEO" && !!upload.displayKey && upload.displayKey !== upload.storageKey;

/**
 * A web copy that could not be made. A new video is marked failed (the
 * admin sees why, and it cannot be published); a video that already has an
 * older public copy keeps serving it ("kept"), so a video the family
 * published before web copies existed never leaves the gallery, and it is
 * not tried again at every start.
 */
function webVideoFailed(id: number, reason: string) {
  const upload = getRow(id);
  if (!upload || !hasOlderPublicCopy(upload)) return markFailed(id, reason);
  db.update(uploads)
    .set({ webVideo: "kept" })
    .where(and(eq(uploads.id, id), isNull(uploads.webVideo)))
    .run();
  console.error(JSON.stringify({ level: "warn", msg: "web video failed; the older public copy stays", uploadId: id, reason }));
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

function markFailed(id: number, reason: string) {
  try {
    db.update(uploads).set({ processedAt: new Date(), processingError: reason }).where(stillWanted(id)).run();
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "could not record a processing failure", uploadId: id, error: String(error) }));
  }
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

/** Processing writes its own results; an admin's turn of a photo is committed as the admin's change (Actor.commit). */
const unattended = <T>(write: () => T) => write();

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

/** Stores a file made in the scratch directory as one of an upload's public copies (on disk, or in the bucket). */
const storer =
  (id: number, newKeys: string[]) =>
  async (suffix: string, local: string, contentType: string, name = randomBytes(9).toString("base64url")) => {
    const key = `media/${id}/${name}${suffix}`;
    const storage = getMediaStorage();
    if (storage instanceof DiskStorage) await storage.adopt(key, local);
    else await storage.write(key, createReadStream(local), { contentType, maxBytes: Number.MAX_SAFE_INTEGER });
    newKeys.push(key);
    return key;
  };

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
  const facts = await probeVideo(file, { signal });
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
 * Makes a video's web copy (app/media/video.server.ts) from its original and
 * records it, with the size and length it came out at. Never throws: a
 * failure is written to the upload and returned.
 */
async function makeWebVideoFor(id: number, cpuSeconds: number, attempt: number, signal: AbortSignal): Promise<ProcessingOutcome> {
  const upload = getRow(id);
  if (!upload || upload.status === "REJECTED" || !upload.storageKey || upload.processingError || !needsWebVideo(upload))
    return { ok: true };
  const startedAt = partlyMade.get(id)?.startedAt ?? Date.now();
  working.set(id, { percent: partlyMade.get(id)?.percent ?? 0, startedAt });
  const workDir = path.join(scratchDirectory(), `web-video-${id}-${randomBytes(4).toString("hex")}`);
  const segmentsDir = segmentsDirectory(id);
  const newKeys: string[] = [];
  let finished = false;
  try {
    const made = await getMediaStorage().withLocalFile(upload.storageKey, async (file) => {
      const facts = await probeForWeb(file, { signal });
      if (!facts?.video) throw new MediaProblem("unreadable", "the video could not be read; the file may be damaged or not really a video");
      const plan = segmentPlan(upload.mimeType ?? "", facts);
      let copy: { file: string; mime: string; reencoded: boolean; originalPlays: boolean };
      if (!plan) {
        copy = await makeWebVideo(file, upload.mimeType ?? "", facts, workDir, {
          signal,
          cpuSeconds,
          onProgress: (percent) => working.set(id, { percent, startedAt }),
        });
      } else {
        // A long video: one segment per job, the next queued behind other senders' jobs (docs/media.md).
        const segments = await segmentsFor(segmentsDir, plan);
        const next = segments.findIndex((segment) => !segment.made);
        if (next >= 0) {
          const budget = webVideoCpuSeconds({ ...facts.video, durationSec: plan.seconds, sizeBytes: upload.sizeBytes }, attempt);
          const part = segments[next]!.file;
          await encodeVideoSegment(file, next * plan.seconds, plan.seconds, `${part}.part`, { cpuSeconds: budget, signal });
          await fs.rename(`${part}.part`, part);
          const percent = Math.min(99, Math.floor(((next + 1) / (plan.count + 1)) * 100));
          partlyMade.set(id, { percent, startedAt });
          return null;
        }
        await fs.mkdir(workDir, { recursive: true });
        const joinBudget = webVideoCpuSeconds({ durationSec: facts.durationSec, width: 400, height: 100, sizeBytes: null }, attempt);
        copy = await joinVideoSegments(
          file,
          upload.mimeType ?? "",
          facts,
          segments.map((segment) => segment.file),
          workDir,
          { cpuSeconds: joinBudget, signal },
        );
      }
      const measured = await probeVideo(copy.file, { signal });
      const displayKey = await storer(id, newKeys)(".mp4", copy.file, copy.mime);
      return {
        displayKey,
        url: mediaUrl(id, displayKey),
        width: measured?.width ?? upload.width,
        height: measured?.height ?? upload.height,
        durationSec: measured?.durationSec ?? upload.durationSec,
        webVideo: !copy.reencoded ? ("remuxed" as const) : copy.originalPlays ? ("resized" as const) : ("encoded" as const),
      };
    });
    if (made === null) {
      // The next segment waits its turn (a fresh budget: this one was enough).
      if (!signal.aborted) void enqueueWebVideo(id);
      return { ok: true };
    }
    finished = true;
    const changes = made;
    const updated = signal.aborted
      ? undefined
      : db
          .update(uploads)
          .set(changes)
          .where(and(stillWanted(id), isNull(uploads.processingError)))
          .returning()
          .all()[0];
    if (!updated) {
      await deleteKeys(newKeys);
      return { ok: true };
    }
    // The older public copy of a video processed before web copies existed.
    if (hasOlderPublicCopy(upload) && upload.displayKey !== updated.displayKey) {
      await deleteKeys([upload.displayKey!]);
    }
    return { ok: true };
  } catch (error) {
    await deleteKeys(newKeys);
    if (error instanceof CpuBudgetExceeded) {
      console.error(JSON.stringify({ level: "warn", msg: "web video used up its CPU budget", uploadId: id, cpuSeconds, attempt }));
      // Queued again with a larger budget (behind the photos and posters waiting), until the last try.
      if (mayTryAgain(attempt)) {
        void enqueueWebVideo(id, attempt + 1);
        return { ok: true };
      }
      finished = !signal.aborted;
      if (!signal.aborted) webVideoFailed(id, tooMuchWork(cpuSeconds).message);
      return { ok: false, kind: "too-slow", reason: tooMuchWork(cpuSeconds).message };
    }
    finished = !signal.aborted;
    const problem = error instanceof MediaProblem ? error : new MediaProblem("failed", SOMETHING_WENT_WRONG);
    if (!(error instanceof MediaProblem)) {
      console.error(JSON.stringify({ level: "error", msg: "web video failed", uploadId: id, error: String(error) }));
    }
    if (!signal.aborted) webVideoFailed(id, problem.message);
    return { ok: false, kind: problem.kind, reason: problem.message };
  } finally {
    working.delete(id);
    await fs.rm(workDir, { recursive: true, force: true });
    // Kept for the next segment, or for the next start after a shutdown; gone once the copy is made or given up on.
    if (finished) {
      partlyMade.delete(id);
      await fs.rm(segmentsDir, { recursive: true, force: true });
    }
  }
}

/**
 * A long video's segments, and which are made: the plan is written beside
 * them, and segments made under another plan are thrown away.
 */
async function segmentsFor(dir: string, plan: { seconds: number; count: number }) {
  await fs.mkdir(dir, { recursive: true });
  const planFile = path.join(dir, "plan.json");
  const written = await fs.readFile(planFile, "utf8").catch(() => null);
  if (written !== JSON.stringify(plan)) {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(planFile, JSON.stringify(plan));
  }
  return Promise.all(
    Array.from({ length: plan.count }, async (_, i) => {
      const file = path.join(dir, `segment-${String(i).padStart(5, "0")}.mp4`);
      return { file, made: !!(await fs.stat(file).catch(() => null))?.size };
    }),
  );
}

const tooMuchWork = (cpuSeconds: number) =>
  new MediaProblem(
    "too-slow",
    `preparing it needed more than ${Math.ceil(cpuSeconds / 60)} minutes of processor time, so it was stopped; a shorter clip, or one recorded at 1080p, can be shared instead`,
  );

async function deleteKeys(keys: string[]) {
  await Promise.all(
    keys.map((key) =>
      getMediaStorage()
        .delete(key)
        .catch(() => {}),
    ),
  );
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
