import { createJobQueue } from "./processing-queue.server";

/**
 * The one queue of heavy media work on this machine (one process, one
 * queue): visitors' photos and videos, and the family's hero photo, so two
 * encodes never run side by side on a small box.
 */
export const mediaJobs = createJobQueue();

/**
 * The site's other heavy media work (the family's new hero photo) in the
 * same one-at-a-time queue, ahead of visitors' uploads still waiting: it
 * never runs beside another job on a small machine, and waits at most for
 * the one in progress. Rejects with JobTimedOut past `limitMs`.
 */
export function runUrgentMediaJob<T>(run: (signal: AbortSignal) => Promise<T>, limitMs: number): Promise<T> {
  return mediaJobs.enqueue(run, { limitMs, urgent: true });
}
