// A video's web copy is budgeted in CPU seconds (never wall-clock time), and tried again with a larger budget.
// A tool run under such a budget: tests/integration/tool-cpu-budget.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import { mayTryAgain, minutesLeft, VIDEO_CPU_BUDGET, webVideoCpuSeconds } from "~/media/cpu-budget.server";

afterEach(() => {
  vi.useRealTimers();
});

const clip = (durationSec: number | null, width: number | null, height: number | null, sizeBytes = 50_000_000) => ({
  durationSec,
  width,
  height,
  sizeBytes,
});

describe("the CPU budget of a video's web copy", () => {
  it("grows with the clip's length and its frame's pixels", () => {
    const tenSeconds1080p = webVideoCpuSeconds(clip(10, 1920, 1080));
    // 20 s to start, and 1.2 CPU-s per second and megapixel (three times what one was measured to take).
    expect(tenSeconds1080p).toBe(Math.ceil(20 + 10 * 2.0736 * 1.2));
    expect(webVideoCpuSeconds(clip(60, 1920, 1080))).toBe(Math.ceil(20 + 60 * 2.0736 * 1.2));
    // Four times the pixels, about four times the work.
    expect(webVideoCpuSeconds(clip(10, 3840, 2160)) - 20).toBeCloseTo(4 * (tenSeconds1080p - 20), -1);
    // Even a one-frame clip gets its second's worth.
    expect(webVideoCpuSeconds(clip(0, 1920, 1080))).toBe(Math.ceil(20 + 2.0736 * 1.2));
  });

  it("is read from the file's size when the length or frame size is unknown", () => {
    expect(webVideoCpuSeconds(clip(null, 1920, 1080, 100_000_000))).toBe(20 + 100 * VIDEO_CPU_BUDGET.secondsPerMegabyte);
    expect(webVideoCpuSeconds(clip(30, null, null, 10_000_000))).toBe(20 + 10 * VIDEO_CPU_BUDGET.secondsPerMegabyte);
  });

  it("doubles at each new try, and a third try is the last", () => {
    const first = webVideoCpuSeconds(clip(10, 1920, 1080), 1);
    expect(webVideoCpuSeconds(clip(10, 1920, 1080), 2)).toBe(2 * first);
    expect(webVideoCpuSeconds(clip(10, 1920, 1080), 3)).toBe(4 * first);
    expect([1, 2, 3].map((attempt) => mayTryAgain(attempt))).toEqual([true, true, false]);
  });

  it("does not depend on the clock: an hour passing changes nothing", () => {
    vi.useFakeTimers();
    const before = webVideoCpuSeconds(clip(60, 1920, 1080));
    vi.advanceTimersByTime(60 * 60_000);
    expect(webVideoCpuSeconds(clip(60, 1920, 1080))).toBe(before);
  });
});

describe("the minutes left, as the family reads them", () => {
  it("are measured from how fast the copy has come so far", () => {
    vi.useFakeTimers({ now: new Date("2026-05-01T10:00:00Z") });
    const startedAt = Date.now();
    expect(minutesLeft(null, startedAt, Date.now())).toBeNull();
    expect(minutesLeft(0, startedAt, Date.now())).toBeNull();
    // 25% in 2 minutes: 6 minutes to go.
    vi.advanceTimersByTime(2 * 60_000);
    expect(minutesLeft(25, startedAt, Date.now())).toBe(6);
    // At a throttled CPU's pace: 10% in 5 minutes, 45 to go.
    vi.advanceTimersByTime(3 * 60_000);
    expect(minutesLeft(10, startedAt, Date.now())).toBe(45);
    // Never "about 0 minutes".
    expect(minutesLeft(99, startedAt, Date.now())).toBe(1);
  });
});
