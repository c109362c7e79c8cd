import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { MediaProblem, PROCESSING_LIMITS, type ProcessingLimits } from "./processing-limits.server";
import { runTool, ToolFailed, toolMissing } from "./run-tool.server";

const POSTER_WIDTH = 280;

export interface VideoFacts {
  durationSec: number | null;
  /** The first picture's size, which the web copy is made from. */
  width: number | null;
  height: number | null;
  /** Every picture in the file (a file may hold several, and a poster is taken from the largest). */
  pictures: { width: number | null; height: number | null }[];
}

export interface RunOptions {
  signal?: AbortSignal;
}

export const scratchName = (dir: string, ext: string) => path.join(dir, `${randomBytes(9).toString("base64url")}.${ext}`);

/** A file in a video's container with sound and no moving picture: processing makes it a voice memory. */
export class SoundOnly extends MediaProblem {
  constructor() {
    super("unreadable", "the file has sound but no picture, and only photos and videos can be shared");
  }
}

/** Duration and frame size from ffprobe; null when ffprobe cannot read the file (SoundOnly when it holds sound alone). */
export async function probeVideo(input: string, options: RunOptions = {}): Promise<VideoFacts | null> {
  let stdout: string;
  try {
    stdout = await runTool(
      "ffprobe",
      [
        "-v",
        "error",
        "-threads",
        "1",
        "-select_streams",
        "v",
        "-show_entries",
        "format=duration:stream=width,height,duration:stream_disposition=attached_pic",
        "-of",
        "json",
        input,
      ],
      { timeoutMs: 30_000, signal: options.signal },
    );
  } catch (error) {
    if (error instanceof MediaProblem) throw error;
    if (error instanceof ToolFailed && error.missing) throw toolMissing("ffprobe");
    return null;
  }
  try {
    const data = JSON.parse(stdout) as {
      format?: { duration?: string };
      streams?: { width?: number; height?: number; duration?: string; disposition?: { attached_pic?: number } }[];
    };
    // Sound in a video's container (an .m4a, a voice memo saved as .mp4, with or without a cover picture): nothing moves.
    data.streams = data.streams?.filter((stream) => !stream.disposition?.attached_pic);
    if (data.streams?.length === 0) throw new SoundOnly();
    // The longest the file says of itself or of any picture in it.
    const durations = [data.format?.duration, ...(data.streams ?? []).map((stream) => stream.duration)]
      .map(Number)
      .filter((value) => Number.isFinite(value));
    return {
      durationSec: durations.length > 0 ? Math.round(Math.max(...durations)) : null,
      width: data.streams?.[0]?.width ?? null,
      height: data.streams?.[0]?.height ?? null,
      pictures: (data.streams ?? []).map((stream) => ({ width: stream.width ?? null, height: stream.height ?? null })),
    };
  } catch (error) {
    if (error instanceof MediaProblem) throw error;
    return null;
  }
}

/**
 * Refuses, before any frame is decoded, a video with a picture larger than
 * this machine can decode (a file of a few kilobytes can claim 16000 ×
 * 16000), in any of its video streams: the poster is taken from the
 * largest, whichever comes first.
 */
export function checkVideoFrameSize(facts: VideoFacts, limits: ProcessingLimits = PROCESSING_LIMITS) {
  for (const { width, height } of [facts, ...facts.pictures]) {
    if (width === null || height === null) continue;
    if (width > limits.videoSide || height > limits.videoSide || width * height > limits.videoPixels) {
      throw new MediaProblem(
        "too-large",
        `the video is ${width} × ${height} pixels, and this site can show videos up to 4K (${limits.videoSide} pixels on the longest side); a copy recorded or saved at 4K or 1080p can be shared instead`,
      );
    }
  }
}

/**
 * Refuses, before any frame is decoded, a video longer than the site takes
 * (PROCESSING_LIMITS.videoSeconds): a file of a few hundred kilobytes can
 * carry hours of pictures, each of which the web copy encodes.
 */
export function checkVideoLength(facts: Pick<VideoFacts, "durationSec">, limits: ProcessingLimits = PROCESSING_LIMITS) {
  if (facts.durationSec === null || facts.durationSec <= limits.videoSeconds) return;
  const minutes = Math.ceil(facts.durationSec / 60);
  throw new MediaProblem(
    "too-large",
    `the video is ${minutes} minutes long, and videos up to ${limits.videoSeconds / 60} minutes can be shared; a shorter version, or the video in parts, can be shared instead`,
  );
}

/** A 280 px-wide JPEG frame from about one second in (or the first frame of a shorter clip). */
export async function makeVideoPoster(
  input: string,
  durationSec: number | null,
  workDir: string,
  options: RunOptions = {},
): Promise<string | null> {
  await fs.mkdir(workDir, { recursive: true });
  const output = scratchName(workDir, "jpg");
  const at = durationSec !== null && durationSec < 2 ? "0" : "1";
  try {
    await runTool(
      "ffmpeg",
      [
        "-v",
        "error",
        "-threads",
        "1",
        "-ss",
        at,
        "-i",
        input,
        "-frames:v",
        "1",
        "-vf",
        `scale=${POSTER_WIDTH}:-2`,
        "-q:v",
        "4",
        "-y",
        output,
      ],
      { timeoutMs: 60_000, signal: options.signal },
    );
    return (await fs.stat(output).catch(() => null))?.size ? output : null;
  } catch (error) {
    await fs.rm(output, { force: true });
    if (error instanceof MediaProblem) throw error;
    return null;
  }
}
