// The server stops itself on Fly only when idle with an empty media queue: an encode is never thrown away.
import { afterEach, describe, expect, it, vi } from "vitest";
import { idleExitFromEnv, watchIdle } from "../../server/idle-exit.mjs";

afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;

describe("stopping when idle", () => {
  it("is off unless IDLE_EXIT_MINUTES is set, and refuses a value that is not minutes", () => {
    expect(idleExitFromEnv({})).toBeNull();
    expect(idleExitFromEnv({ IDLE_EXIT_MINUTES: "0" })).toBeNull();
    expect(idleExitFromEnv({ IDLE_EXIT_MINUTES: "15" })).toBe(15 * MINUTE);
    expect(() => idleExitFromEnv({ IDLE_EXIT_MINUTES: "soon" })).toThrow(/IDLE_EXIT_MINUTES/);
    expect(() => idleExitFromEnv({ IDLE_EXIT_MINUTES: "0.5" })).toThrow(/IDLE_EXIT_MINUTES/);
  });

  it("waits for the queue to be empty, however long an encode takes, then for the idle time again", () => {
    vi.useFakeTimers();
    let queued = true;
    const onIdle = vi.fn();
    const watch = watchIdle({ idleMs: 15 * MINUTE, busy: () => queued, onIdle });
    // Two hours of a throttled encode with nobody visiting: still running.
    vi.advanceTimersByTime(120 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    queued = false;
    vi.advanceTimersByTime(14 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
    watch.stop();
  });

  it("counts a request in flight and the time since the last one", () => {
    vi.useFakeTimers();
    const onIdle = vi.fn();
    const watch = watchIdle({ idleMs: 15 * MINUTE, busy: () => false, onIdle });
    vi.advanceTimersByTime(10 * MINUTE);
    const ended = watch.request("/admin/exports/archive.zip");
    // A long download in flight for 30 minutes.
    vi.advanceTimersByTime(30 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    ended();
    vi.advanceTimersByTime(14 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2 * MINUTE);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it("stops although Fly's health check asks for /healthz every 30 s: a health check is not a visit", () => {
    vi.useFakeTimers();
    const onIdle = vi.fn();
    const watch = watchIdle({ idleMs: 15 * MINUTE, busy: () => false, onIdle });
    for (let checks = 0; checks < 2 * 20; checks++) {
      watch.request(checks % 2 ? "/healthz?from=fly" : "/healthz")();
      vi.advanceTimersByTime(30_000);
    }
    expect(onIdle).toHaveBeenCalledTimes(1);
    watch.stop();
  });
});
