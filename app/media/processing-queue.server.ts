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
 *   another video's encode, only for the one job in progress;
 * - within one priority, senders take turns: the next job is the one whose
 *   `owner` started a job least recently (then the oldest), so one sender's
 *   many or long videos cannot hold everyone else's behind them;
 * - the jobs of one `subject` (an upload) can be cancelled: the waiting ones
 *   are dropped and the running one's signal is aborted, which kills its
 *   tools (an upload deleted or rejected mid-encode);
 * - `stop()` (the server shutting down) aborts the running job and starts no
 *   other.
 */
export class JobTimedOut extends Error {
  name = "JobTimedOut";
  constructor(readonly limitMs: number) {
    super(`The job took longer than ${Math.round(limitMs / 1000)} seconds`);
  }
}

/** A job dropped before it ran: its upload was deleted or rejected, or the server is stopping. */
export class JobCancelled extends Error {
  name = "JobCancelled";
  constructor() {
    super("The job was cancelled");
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
  /** Who the job is for (a sender): owners take turns within a priority. */
  owner?: string;
  /** What the job is about (an upload): `cancel(subject)` drops its jobs. */
  subject?: string | number;
}

interface Entry {
  run: (signal: AbortSignal) => Promise<unknown>;
  limitMs: number | undefined;
  rank: number;
  owner: string | undefined;
  subject: string | number | undefined;
  /** Arrival order. */
  seq: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createJobQueue() {
  const waiting: Entry[] = [];
  let running = false;
  /** Jobs past their limit that have not settled yet: idle() still waits for them. */
  const late = new Set<Promise<unknown>>();
  let idleWaiters: (() => void)[] = [];
  let arrivals = 0;
  let starts = 0;
  let stopped = false;
  /** When each owner's last job started (a count of starts). */
  const lastStart = new Map<string, number>();
  let current: { entry: Entry; controller: AbortController } | null = null;

  /** The waiting job to run next: the most urgent, then the owner who started one least recently, then the oldest. */
  function pick(): Entry | undefined {
    let best: Entry | undefined;
    const turn = (entry: Entry) => (entry.owner === undefined ? -1 : (lastStart.get(entry.owner) ?? -1));
    for (const entry of waiting) {
      if (
        !best ||
        entry.rank < best.rank ||
        (entry.rank === best.rank && (turn(entry) < turn(best) || (turn(entry) === turn(best) && entry.seq < best.seq)))
      )
        best = entry;
    }
    if (best) waiting.splice(waiting.indexOf(best), 1);
    return best;
  }

  function settleIdle() {
    if (running || waiting.length > 0 || late.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function next() {
    current = null;
    const entry = stopped ? undefined : pick();
    if (!entry) {
      running = false;
      settleIdle();
      return;
    }
    running = true;
    if (entry.owner !== undefined) lastStart.set(entry.owner, ++starts);
    const controller = new AbortController();
    current = { entry, controller };
    let finished = false;
    const finish = () => {
      if (finished) return false;
      finished = true;
      current = null;
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
        if (stopped) return reject(new JobCancelled());
        waiting.push({
          run,
          limitMs: options.limitMs,
          rank: JOB_PRIORITY[options.urgent ? "urgent" : (options.priority ?? "quick")],
          owner: options.owner,
          subject: options.subject,
          seq: ++arrivals,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
        if (!running) next();
      });
    },

    /** Drops the waiting jobs of `subject` (they reject with JobCancelled) and aborts its running one. */
    cancel(subject: string | number) {
      for (const entry of waiting.filter((other) => other.subject === subject)) {
        waiting.splice(waiting.indexOf(entry), 1);
        entry.reject(new JobCancelled());
      }
      if (current?.entry.subject === subject) current.controller.abort(new JobCancelled());
      settleIdle();
    },

    /** Starts nothing more: the waiting jobs reject with JobCancelled and the running one's signal is aborted. */
    stop() {
      stopped = true;
      for (const entry of waiting.splice(0)) entry.reject(new JobCancelled());
      current?.controller.abort(new JobCancelled());
      settleIdle();
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
