import fs from "node:fs/promises";

/**
 * A video's web copy is budgeted in CPU seconds, never in wall-clock time:
 * on a shared CPU that has used up its burst balance the same encode takes
 * sixteen times longer on the clock (Fly's baseline for shared-cpu-1x is
 * 6.25% of a core) but exactly the same CPU time. The budget grows with
 * what decoding and encoding cost: the clip's length times its frame's
 * pixels. A job stopped by its budget is queued again with a larger one
 * (docs/decisions/029-fly-box.md).
 */
export const VIDEO_CPU_BUDGET = {
  /** Starting ffmpeg, the sound, moving the index first. */
  baseSeconds: 20,
  /**
   * Per second of video and megapixel of its frame. Measured on one core:
   * a 60 s 1080p (2.07 MP) HEVC clip took 50 CPU seconds with x264's
   * veryfast preset, 0.4 per megapixel-second; the first budget is three times that.
   */
  secondsPerMegapixelSecond: 1.2,
  /** When the length or the frame size is unknown: per megabyte of the file. */
  secondsPerMegabyte: 2,
  /** Each new try gets this many times the last one's budget… */
  growth: 2,
  /** …up to this many tries in all (1, 2 and 4 times the first budget). */
  attempts: 3,
};

type BudgetFacts = { durationSec: number | null; width: number | null; height: number | null; sizeBytes: number | null };

/** The CPU seconds try number `attempt` (from 1) of a video's web copy may use. */
export function webVideoCpuSeconds(facts: BudgetFacts, attempt = 1, budget = VIDEO_CPU_BUDGET): number {
  const { durationSec, width, height } = facts;
  const work =
    durationSec !== null && width && height
      ? Math.max(durationSec, 1) * ((width * height) / 1_000_000) * budget.secondsPerMegapixelSecond
      : ((facts.sizeBytes ?? 0) / 1_000_000) * budget.secondsPerMegabyte;
  return Math.ceil((budget.baseSeconds + work) * budget.growth ** (Math.max(attempt, 1) - 1));
}

/** Whether a try stopped by its budget gets another, larger one. */
export const mayTryAgain = (attempt: number, budget = VIDEO_CPU_BUDGET) => attempt < budget.attempts;

/** A tool stopped because it used up its CPU budget. */
export class CpuBudgetExceeded extends Error {
  name = "CpuBudgetExceeded";
  constructor(readonly seconds: number) {
    super(`It used up its budget of ${seconds} CPU seconds`);
  }
}

/** Linux's clock ticks per second (USER_HZ), the unit of /proc/<pid>/stat's times: 100 on every usual build. */
const TICKS_PER_SECOND = 100;

/** The CPU seconds (user and system) a running process has used; null where there is no /proc or no such process. */
export async function processCpuSeconds(pid: number): Promise<number | null> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8");
    // The command's name (field 2) may hold spaces and parentheses: count from the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * The family's words for a video still being prepared: how many minutes are
 * left, measured from how fast it has gone so far (null until there is
 * enough to measure).
 */
export function minutesLeft(percent: number | null, startedAt: number, now: number): number | null {
  if (percent === null || percent < 1) return null;
  const elapsed = Math.max(now - startedAt, 0);
  return Math.max(1, Math.ceil((elapsed * (100 - percent)) / percent / 60_000));
}
