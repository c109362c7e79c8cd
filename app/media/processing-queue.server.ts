/**
 * Heavy media work, one job at a time (a burst of large photos must not
 * exhaust a small machine's memory), with two promises the plain chain of
 * promises it replaces could not keep:
 *
 * - a job may have a time limit: past it, its signal is aborted (which kills
 *   its child processes), its promise rejects with JobTimedOut, and the next
 *   job starts, whatever the late one is still doing (a video's web copy has
 *   none: it is budgeted in CPU seconds instead, app/media/cpu-budget.server.ts);
 * - jobs run by priority, first come first served within one: urgent jobs
 *   (an admin turning a photo), then the quick ones a sender or the gallery
 *   waits for (a photo's copies, a video's poster), then the long ones
 *   nobody waits for (a video's web copy), so a poster never waits behind
 *   another video's encode, only for the one job in progress.
 */
export class JobTimedOut extends Error {
  name = "JobTimedOut";
  constructor(readonly limitMs: number) {
    super(`The job took longer than ${Math.round(limitMs / 1000)} seconds`);
  }
}

/** Lower runs first. */
const JOB_PRIORITY = { urgent: 0, quick: 1, long: 2 } as const;

export interface JobOptions {
  /** Wall-clock limit; none for a job budgeted in CPU time. */
  limitMs?: number;
  urgent?: boolean;
  /** "quick" unless urgent. */
  priority?: keyof typeof JOB_PRIORITY;
}

interface Entry {
  run: (signal: AbortSignal) => Promise<unknown>;
  limitMs: number | undefined;
  rank: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createJobQueue() {
  const waiting: Entry[] = [];
  let running = false;
  /** Jobs past their limit that have not settled yet: idle() still waits for them. */
  const late = new Set<Promise<unknown>>();
  let idleWaiters: (() => void)[] = [];

  function settleIdle() {
    if (running || waiting.length > 0 || late.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function next() {
    const entry = waiting.shift();
    if (!entry) {
      running = false;
      settleIdle();
      return;
    }
    running = true;
    const controller = new AbortController();
    let finished = false;
    const finish = () => {
      if (finished) return false;
      finished = true;
      if (timer) clearTimeout(timer);
      // A job that settles synchronously must not start the next one inside its own call.
      queueMicrotask(next);
      return true;
    };
    const limitMs = entry.limitMs;
    const timer =
      limitMs === undefined
        ? undefined
        : setTimeout(() => {
            const error = new JobTimedOut(limitMs);
            controller.abort(error);
            if (finish()) {
              late.add(work);
              entry.reject(error);
            }
          }, limitMs);
    let work: Promise<unknown>;
    try {
      work = Promise.resolve(entry.run(controller.signal));
    } catch (error) {
      work = Promise.reject(error);
    }
    work
      .then(
        (value) => finish() && entry.resolve(value),
        (error: unknown) => finish() && entry.reject(error),
      )
      .finally(() => {
        if (late.delete(work)) settleIdle();
      });
  }

  return {
    /** Runs `run` when its turn comes (after every job of a higher or the same priority already waiting); rejects with JobTimedOut past `limitMs`. */
    enqueue<T>(run: (signal: AbortSignal) => Promise<T>, options: JobOptions): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const entry: Entry = {
          run,
          limitMs: options.limitMs,
          rank: JOB_PRIORITY[options.urgent ? "urgent" : (options.priority ?? "quick")],
          resolve: resolve as (value: unknown) => void,
          reject,
        };
        const firstBehind = waiting.findIndex((other) => other.rank > entry.rank);
        if (firstBehind >= 0) waiting.splice(firstBehind, 0, entry);
        else waiting.push(entry);
        if (!running) next();
      });
    },

    /** Resolves once nothing is running or waiting (jobs past their limit included). */
    idle(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },

    /** Whether a job is running (or past its limit and not settled) or waiting. */
    get busy() {
      return running || waiting.length > 0 || late.size > 0;
    },

    /** How many jobs are waiting behind the one in progress. */
    get waiting() {
      return waiting.length;
    },
  };
}
