// The server stops itself on Fly only when idle with an empty media queue: an encode is never thrown away.
import { afterEach, describe, expect, it, vi } from "vitest";
import { idleExitFromEnv, UNASKED_IDLE_MS, watchIdle } from "../../server/idle-exit.mjs";

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
    // A visitor's upload queued the work.
    watch.request("/api/uploads/complete")();
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
    watch.request("/")();
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

  it("stays up while e-mail is due within the hour, however long, then stops after the idle time", () => {
    vi.useFakeTimers();
    let due = true;
    const onIdle = vi.fn();
    const watch = watchIdle({ idleMs: 15 * MINUTE, busy: () => false, dueSoon: () => due, onIdle });
    watch.request("/")();
    // A summary at 08:00 seen at 07:05: 55 minutes with nobody visiting.
    vi.advanceTimersByTime(55 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    due = false;
    vi.advanceTimersByTime(14 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2 * MINUTE);
    expect(onIdle).toHaveBeenCalledWith({ idleMs: 15 * MINUTE, asked: true });
    watch.stop();
  });

  it("stops a minute after a start no visitor asked for (a wake-up, health checks only) when nothing is due", () => {
    vi.useFakeTimers();
    const onIdle = vi.fn();
    const watch = watchIdle({ idleMs: 15 * MINUTE, busy: () => false, dueSoon: () => false, onIdle });
    watch.request("/healthz?wake=scheduled")();
    vi.advanceTimersByTime(30_000);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60_000);
    expect(onIdle).toHaveBeenCalledWith({ idleMs: UNASKED_IDLE_MS, asked: false });
    watch.stop();
  });

  it("a woken start with e-mail due stays up until it is sent, then stops a minute later", () => {
    vi.useFakeTimers();
    let due = true;
    const onIdle = vi.fn();
    const watch = watchIdle({ idleMs: 15 * MINUTE, busy: () => false, dueSoon: () => due, onIdle });
    for (let checks = 0; checks < 2 * 40; checks++) {
      watch.request("/healthz")();
      vi.advanceTimersByTime(30_000);
    }
    expect(onIdle).not.toHaveBeenCalled();
    due = false;
    vi.advanceTimersByTime(90_000);
    expect(onIdle).toHaveBeenCalledWith({ idleMs: UNASKED_IDLE_MS, asked: false });
    watch.stop();
  });

  it("a visitor after a wake-up gets the whole idle time", () => {
    vi.useFakeTimers();
    const onIdle = vi.fn();
    const watch = watchIdle({ idleMs: 15 * MINUTE, busy: () => false, dueSoon: () => false, onIdle });
    watch.request("/healthz")();
    vi.advanceTimersByTime(30_000);
    watch.request("/guestbook")();
    vi.advanceTimersByTime(14 * MINUTE);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2 * MINUTE);
    expect(onIdle).toHaveBeenCalledWith({ idleMs: 15 * MINUTE, asked: true });
    watch.stop();
  });
});
