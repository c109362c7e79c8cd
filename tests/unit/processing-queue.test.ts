import { afterEach, describe, expect, it, vi } from "vitest";
import { createJobQueue, JobCancelled, JobTimedOut } from "~/media/processing-queue.server";

afterEach(() => {
  vi.useRealTimers();
});

/** A job that runs until the test lets it finish. */
function heldJob(log: string[], name: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const run = async (signal: AbortSignal) => {
    log.push(`${name} started`);
    await released;
    log.push(`${name} finished${signal.aborted ? " late" : ""}`);
    return name;
  };
  return { run, release };
}

describe("the media processing queue", () => {
  it("stops waiting for a job past its time limit: its signal is aborted and the next job starts", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const queue = createJobQueue();
    const log: string[] = [];
    const stuck = heldJob(log, "stuck");
    let stuckSignal: AbortSignal | undefined;
    const first = queue.enqueue(
      (signal) => {
        stuckSignal = signal;
        return stuck.run(signal);
      },
      { limitMs: 60_000 },
    );
    const second = queue.enqueue(
      async () => {
        log.push("next started");
        return "next";
      },
      { limitMs: 60_000 },
    );

    vi.advanceTimersByTime(59_999);
    await Promise.resolve();
    expect(log).toEqual(["stuck started"]);

    vi.advanceTimersByTime(1);
    await expect(first).rejects.toBeInstanceOf(JobTimedOut);
    expect(stuckSignal?.aborted).toBe(true);
    await expect(second).resolves.toBe("next");
    expect(log).toEqual(["stuck started", "next started"]);

    // idle() still waits for the late job to settle, so nothing is left running behind a test.
    let idle = false;
    const idlePromise = queue.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    stuck.release();
    await idlePromise;
    expect(log).toEqual(["stuck started", "next started", "stuck finished late"]);
  });

  it("runs one job at a time, and an urgent job goes ahead of every job still waiting", async () => {
    const queue = createJobQueue();
    const log: string[] = [];
    const running = heldJob(log, "running");
    const done: string[] = [];
    const track = (promise: Promise<string>) => promise.then((name) => done.push(name));
    const jobs = [
      track(queue.enqueue(running.run, { limitMs: 60_000 })),
      track(queue.enqueue(heldJob(log, "waiting-1").run, { limitMs: 60_000 })),
      track(queue.enqueue(heldJob(log, "waiting-2").run, { limitMs: 60_000 })),
    ];
    expect(queue.waiting).toBe(2);
    const urgent = track(queue.enqueue(async () => "urgent", { limitMs: 60_000, urgent: true }));
    const secondUrgent = track(queue.enqueue(async () => "urgent-2", { limitMs: 60_000, urgent: true }));
    expect(log).toEqual(["running started"]);
    running.release();
    await urgent;
    await secondUrgent;
    expect(done).toEqual(["running", "urgent", "urgent-2"]);
    expect(log).toEqual(["running started", "running finished", "waiting-1 started"]);
    void jobs;
  });

  it("a job that throws is reported to its caller and the queue moves on", async () => {
    const queue = createJobQueue();
    const failing = queue.enqueue(
      () => {
        throw new Error("boom");
      },
      { limitMs: 1000 },
    );
    const after = queue.enqueue(async () => "after", { limitMs: 1000 });
    await expect(failing).rejects.toThrow("boom");
    await expect(after).resolves.toBe("after");
    await queue.idle();
  });
});

describe("the order of the media processing queue", () => {
  it("runs photos and posters (quick) ahead of every web copy (long) still waiting, first come first served within each", async () => {
    const queue = createJobQueue();
    const log: string[] = [];
    const running = heldJob(log, "web-copy-0");
    const done: string[] = [];
    const add = (name: string, priority?: "quick" | "long") =>
      queue.enqueue(async () => void done.push(name), priority ? { priority } : {}).then(() => name);
    const first = queue.enqueue(running.run, { priority: "long" });
    const jobs = [
      add("web-copy-1", "long"),
      add("poster-1"),
      add("web-copy-2", "long"),
      add("photo-1", "quick"),
      queue.enqueue(async () => void done.push("turn"), { urgent: true }),
      add("poster-2"),
    ];
    running.release();
    await first;
    await Promise.all(jobs);
    // The encode in progress is never interrupted; what waited goes by priority.
    expect(done).toEqual(["turn", "poster-1", "photo-1", "poster-2", "web-copy-1", "web-copy-2"]);
  });

  it("gives a job without a time limit (budgeted in CPU time instead) all the wall-clock time it takes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const queue = createJobQueue();
    const log: string[] = [];
    const slow = heldJob(log, "encode");
    const result = queue.enqueue(slow.run, { priority: "long" });
    // A day on the clock, as at a throttled CPU's baseline: still running, not given up on.
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(log).toEqual(["encode started"]);
    slow.release();
    await expect(result).resolves.toBe("encode");
    expect(log).toEqual(["encode started", "encode finished"]);
  });

  it("lets senders take turns: one sender's many videos do not hold another's behind them", async () => {
    const queue = createJobQueue();
    const done: string[] = [];
    const running = heldJob([], "ann-1");
    const first = queue.enqueue(running.run, { priority: "long", owner: "ann" });
    const add = (name: string, owner: string) => queue.enqueue(async () => void done.push(name), { priority: "long", owner });
    const jobs = [add("ann-2", "ann"), add("ann-3", "ann"), add("ann-4", "ann"), add("bo-1", "bo"), add("cy-1", "cy"), add("bo-2", "bo")];
    running.release();
    await first;
    await Promise.all(jobs);
    expect(done).toEqual(["bo-1", "cy-1", "ann-2", "bo-2", "ann-3", "ann-4"]);
  });

  it("drops the jobs of a cancelled upload and aborts the one running", async () => {
    const queue = createJobQueue();
    const log: string[] = [];
    let runningSignal: AbortSignal | undefined;
    const encode = heldJob(log, "encode");
    const first = queue.enqueue(
      (signal) => {
        runningSignal = signal;
        return encode.run(signal);
      },
      { priority: "long", subject: 7 },
    );
    const waiting = queue.enqueue(async () => log.push("its next part"), { priority: "long", subject: 7 });
    const other = queue.enqueue(async () => log.push("another upload"), { priority: "long", subject: 8 });
    queue.cancel(7);
    expect(runningSignal?.aborted).toBe(true);
    await expect(waiting).rejects.toBeInstanceOf(JobCancelled);
    encode.release();
    await first;
    await other;
    expect(log).toEqual(["encode started", "encode finished late", "another upload"]);
  });

  it("starts nothing once stopped (the server shutting down)", async () => {
    const queue = createJobQueue();
    const log: string[] = [];
    const encode = heldJob(log, "encode");
    const first = queue.enqueue(encode.run, { priority: "long" });
    const waiting = queue.enqueue(async () => log.push("next"), {});
    queue.stop();
    await expect(waiting).rejects.toBeInstanceOf(JobCancelled);
    await expect(queue.enqueue(async () => log.push("later"), {})).rejects.toBeInstanceOf(JobCancelled);
    encode.release();
    await first;
    await queue.idle();
    expect(log).toEqual(["encode started", "encode finished late"]);
  });
});
