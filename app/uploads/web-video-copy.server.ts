import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { uploads, type Upload } from "../../db/schema";
import { db } from "~/platform/db.server";
import { getMediaStorage, scratchDirectory } from "~/media/media-storage.server";
import { probeVideo } from "~/media/video.server";
import { encodeVideoSegment, joinVideoSegments, makeWebVideo, probeForWeb, segmentPlan } from "~/media/web-video.server";
import { CpuBudgetExceeded, mayTryAgain, webVideoCpuSeconds } from "~/media/cpu-budget.server";
import { MediaProblem } from "~/media/processing-limits.server";
import { mediaJobs as queue } from "~/media/media-jobs.server";
import {
  deleteKeys,
  getRow,
  giveUp,
  markFailed,
  mediaUrl,
  needsWebVideo,
  partlyMade,
  segmentsDirectory,
  senderOf,
  SOMETHING_WENT_WRONG,
  stillWanted,
  storer,
  working,
  type ProcessingOutcome,
} from "./processing-state.server";

// A video's web copy (docs/media.md): made after its poster, in its own
// turn behind every photo waiting, within a budget of CPU seconds, and for a
// long video in segments that other senders' clips take turns between.

/**
 * Queues the making of a video's web copy behind every photo and poster
 * waiting (theirs are quick, and someone waits for them), within a budget
 * of CPU seconds for its length and frame size, never of wall-clock time
 * (app/media/cpu-budget.server.ts): try `attempt` of it. Nobody waits for
 * it: the sender's completion has been answered after the first part.
 */
export function enqueueWebVideo(id: number, attempt = 1): Promise<ProcessingOutcome> {
  const upload = getRow(id);
  const cpuSeconds = webVideoCpuSeconds(upload ?? { sizeBytes: 0, durationSec: null, width: null, height: null }, attempt);
  return queue
    .enqueue((signal) => makeWebVideoFor(id, cpuSeconds, attempt, signal), { priority: "long", owner: senderOf(upload, id), subject: id })
    .catch(giveUp(id, 0, webVideoFailed));
}

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
