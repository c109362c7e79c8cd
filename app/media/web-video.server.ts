import fs from "node:fs/promises";
import path from "node:path";
import { CpuBudgetExceeded } from "./cpu-budget.server";
import { MediaProblem, PROCESSING_LIMITS } from "./processing-limits.server";
import { runTool, ToolFailed, toolMissing } from "./run-tool.server";
import { scratchName, type RunOptions } from "./video.server";

// A video's web copy: what every browser plays (WEB_VIDEO), the original's
// streams as ffprobe reads them, and the copy made by ffmpeg in one go or,
// for a long video, in segments joined at the end (docs/media.md).

/**
 * What the web copy of a video is (docs/decisions/016-web-video.md): H.264
 * High, yuv420p, with AAC sound, in an MP4 whose index comes first, its
 * longest side at most 1080 pixels, turned upright, and without any
 * metadata. Every browser plays it, and a phone on a slow connection too.
 */
export const WEB_VIDEO = {
  maxSide: 1080,
  /** The cap an encode keeps to (x264's VBV), and the most an original may carry to be copied as it is. */
  maxVideoBitsPerSecond: 3_000_000,
  maxRemuxBitsPerSecond: 4_000_000,
  audioBitsPerSecond: 128_000,
  maxFps: 60,
  /**
   * Address space for the encode: decoding a 4K 10-bit HEVC frame and
   * encoding 1080p with x264 on one thread failed under 512 MB and peaked
   * at 300 MB resident under this cap (docs/decisions/016-web-video.md).
   */
  memoryBytes: 768 * 1024 * 1024,
};

interface ProbedStream {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  bit_rate?: string;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number | string }[];
}

/** What deciding between copying and encoding needs to know of a video file. */
export interface WebVideoFacts {
  durationSec: number | null;
  bitRate: number | null;
  video: { codec: string; profile: string; pixFmt: string; width: number; height: number; rotation: number; bitRate: number | null } | null;
  audio: { codec: string } | null;
}

export async function probeForWeb(input: string, options: RunOptions = {}): Promise<WebVideoFacts | null> {
  let stdout: string;
  try {
    stdout = await runTool("ffprobe", ["-v", "error", "-threads", "1", "-show_format", "-show_streams", "-of", "json", input], {
      timeoutMs: 30_000,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof MediaProblem) throw error;
    if (error instanceof ToolFailed && error.missing) throw toolMissing("ffprobe");
    return null;
  }
  try {
    const data = JSON.parse(stdout) as { format?: { duration?: string; bit_rate?: string }; streams?: ProbedStream[] };
    const number = (value: unknown) => (Number.isFinite(Number(value)) && value !== undefined ? Number(value) : null);
    const video = data.streams?.find((stream) => stream.codec_type === "video");
    const audio = data.streams?.find((stream) => stream.codec_type === "audio");
    const rotation =
      number(video?.side_data_list?.find((side) => side.rotation !== undefined)?.rotation) ?? number(video?.tags?.rotate) ?? 0;
    return {
      durationSec: number(data.format?.duration),
      bitRate: number(data.format?.bit_rate),
      video: video
        ? {
            codec: video.codec_name ?? "",
            profile: video.profile ?? "",
            pixFmt: video.pix_fmt ?? "",
            width: video.width ?? 0,
            height: video.height ?? 0,
            rotation: ((rotation % 360) + 360) % 360,
            bitRate: number(video.bit_rate),
          }
        : null,
      audio: audio ? { codec: audio.codec_name ?? "" } : null,
    };
  } catch {
    return null;
  }
}

/** The web copy's pictures: at most 1080 px on the longest side, H.264 High on one thread (WEB_VIDEO). */
const VIDEO_ENCODE = [
  "-vf",
  `scale=w='min(${WEB_VIDEO.maxSide},iw)':h='min(${WEB_VIDEO.maxSide},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2,setsar=1,format=yuv420p`,
  "-fpsmax",
  String(WEB_VIDEO.maxFps),
  "-c:v",
  "libx264",
  "-preset",
  "veryfast",
  "-profile:v",
  "high",
  "-crf",
  "23",
  "-maxrate",
  String(WEB_VIDEO.maxVideoBitsPerSecond),
  "-bufsize",
  String(2 * WEB_VIDEO.maxVideoBitsPerSecond),
  "-threads",
  "1",
];

/** The web copy's sound: AAC, stereo. */
const AUDIO_ENCODE = ["-c:a", "aac", "-b:a", String(WEB_VIDEO.audioBitsPerSecond), "-ac", "2"];

/**
 * How a long video's web copy is made in parts (docs/media.md): its
 * pictures in segments of about 20 megapixel-seconds of work each (9 s of
 * 1080p, 5 s of 4K, a minute of small video), each a job of its own, so
 * other senders' clips take their turn between two segments and a restart
 * goes on from the segments already made; then the segments are joined
 * and the sound encoded in one pass. Null for a video made in one go: one
 * that is only copied, of unknown length, or shorter than two segments.
 */
export function segmentPlan(mime: string, facts: WebVideoFacts): { seconds: number; count: number } | null {
  const { video, durationSec } = facts;
  if (!video || !durationSec || playsEverywhere(mime, facts)) return null;
  const megapixels = Math.max((video.width * video.height) / 1_000_000, 0.01);
  const seconds = Math.max(5, Math.min(60, Math.floor(20 / megapixels)));
  if (durationSec < 2 * seconds) return null;
  return { seconds, count: Math.ceil(durationSec / seconds) };
}

/** One segment of a long video's web copy: `length` seconds of its pictures from `start`, without sound. */
export async function encodeVideoSegment(
  input: string,
  start: number,
  length: number,
  output: string,
  options: Pick<WebVideoOptions, "cpuSeconds" | "signal">,
) {
  await ffmpegTo(
    output,
    [
      "-v",
      "error",
      "-nostdin",
      "-threads",
      "1",
      "-ss",
      String(start),
      "-t",
      String(length),
      "-i",
      input,
      "-map",
      "0:v:0",
      "-an",
      ...VIDEO_ENCODE,
      ...STRIP_METADATA,
      "-f",
      "mp4",
      "-y",
    ],
    options,
  );
}

/** The web copy from its segments (copied as they are) and the original's sound (encoded once). */
export async function joinVideoSegments(
  input: string,
  mime: string,
  facts: WebVideoFacts,
  segments: string[],
  workDir: string,
  options: Pick<WebVideoOptions, "cpuSeconds" | "signal">,
) {
  const durationSec = facts.durationSec ?? PROCESSING_LIMITS.videoSeconds;
  const list = path.join(workDir, "segments.txt");
  await fs.writeFile(list, segments.map((file) => `file '${file.replace(/'/g, "'\\''")}'\n`).join(""));
  const output = scratchName(workDir, "mp4");
  await ffmpegTo(
    output,
    [
      "-v",
      "error",
      "-nostdin",
      "-threads",
      "1",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      list,
      "-i",
      input,
      "-map",
      "0:v:0",
      "-map",
      "1:a:0?",
      "-c:v",
      "copy",
      ...AUDIO_ENCODE,
      "-t",
      String(Math.min(durationSec, PROCESSING_LIMITS.videoSeconds)),
      ...STRIP_METADATA,
      "-movflags",
      "+faststart",
      "-f",
      "mp4",
      "-y",
    ],
    options,
  );
  return { file: output, ext: "mp4", mime: "video/mp4", reencoded: true, originalPlays: originalPlaysEverywhere(mime, facts) };
}

/**
 * Runs ffmpeg with `args` to write `output` (a web copy, or a part of one),
 * on one thread within its CPU budget. On any failure the partial output
 * goes, and the error reads as the family sees it: a known problem as it
 * is, a missing ffmpeg as such, anything else as a copy that could not be made.
 */
async function ffmpegTo(
  output: string,
  args: string[],
  options: Pick<WebVideoOptions, "cpuSeconds" | "signal"> & { onOutput?: (chunk: string) => void },
) {
  try {
    await runTool("ffmpeg", [...args, output], {
      cpuSeconds: options.cpuSeconds,
      signal: options.signal,
      memoryBytes: WEB_VIDEO.memoryBytes,
      onOutput: options.onOutput,
    });
    if (!(await fs.stat(output).catch(() => null))?.size) throw new ToolFailed("ffmpeg wrote nothing", false);
  } catch (error) {
    await fs.rm(output, { force: true });
    if (error instanceof MediaProblem || error instanceof CpuBudgetExceeded) throw error;
    if (error instanceof ToolFailed && error.missing) throw toolMissing("ffmpeg");
    console.error(JSON.stringify({ level: "warn", msg: "web video failed", error: String(error) }));
    throw new MediaProblem("failed", "the video could not be converted into a copy every browser plays");
  }
}

/**
 * Whether an original's pictures and sound play in every browser as they
 * are (H.264 + AAC in an MP4), whatever its size, rate or turn: its web copy
 * is then only a lighter one, not the one way to play it.
 */
function originalPlaysEverywhere(mime: string, facts: WebVideoFacts) {
  const { video, audio } = facts;
  return (
    mime === "video/mp4" &&
    video !== null &&
    video.codec === "h264" &&
    ["Constrained Baseline", "Baseline", "Main", "High"].includes(video.profile) &&
    video.pixFmt === "yuv420p" &&
    (audio === null || audio.codec === "aac")
  );
}

/** Whether an original already plays in every browser and is light enough to only need its metadata taken out. */
function playsEverywhere(mime: string, facts: WebVideoFacts) {
  const { video } = facts;
  if (!video || !originalPlaysEverywhere(mime, facts)) return false;
  const bitRate = facts.bitRate ?? video.bitRate ?? Infinity;
  return video.rotation === 0 && Math.max(video.width, video.height) <= WEB_VIDEO.maxSide && bitRate <= WEB_VIDEO.maxRemuxBitsPerSecond;
}

export interface WebVideoOptions extends RunOptions {
  /** The encode's CPU budget (app/media/cpu-budget.server.ts); past it, CpuBudgetExceeded. */
  cpuSeconds: number;
  /** Called with the share done (0 to 100) as ffmpeg reports it. */
  onProgress?: (percent: number) => void;
}

const STRIP_METADATA = [
  "-map_metadata",
  "-1",
  "-map_metadata:s",
  "-1",
  "-map_chapters",
  "-1",
  "-fflags",
  "+bitexact",
  "-flags:v",
  "+bitexact",
  "-flags:a",
  "+bitexact",
];

/**
 * The web copy of a video (see WEB_VIDEO): the original copied without its
 * metadata when it already plays everywhere ("remuxed"), or else encoded
 * ("encoded") on one thread, which ffmpeg reports the progress of.
 */
export async function makeWebVideo(input: string, mime: string, facts: WebVideoFacts, workDir: string, options: WebVideoOptions) {
  await fs.mkdir(workDir, { recursive: true });
  const output = scratchName(workDir, "mp4");
  const remux = playsEverywhere(mime, facts);
  const maps = ["-map", "0:v:0", "-map", "0:a:0?"];
  const codecs = remux ? ["-c", "copy"] : [...VIDEO_ENCODE, ...AUDIO_ENCODE];
  const duration = facts.durationSec;
  let buffered = "";
  const onOutput = (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      const match = /^out_time_us=(\d+)/.exec(line.trim());
      if (match && duration) options.onProgress?.(Math.min(99, Math.floor(Number(match[1]) / 10_000 / duration)));
    }
  };
  await ffmpegTo(
    output,
    [
      "-v",
      "error",
      "-nostats",
      "-progress",
      "pipe:1",
      "-stats_period",
      "2",
      "-threads",
      "1",
      "-i",
      input,
      ...maps,
      ...codecs,
      // Never past the longest video the site takes, whatever the file said of its length.
      "-t",
      String(PROCESSING_LIMITS.videoSeconds),
      ...STRIP_METADATA,
      "-movflags",
      "+faststart",
      "-f",
      "mp4",
      "-y",
    ],
    { ...options, onOutput },
  );
  return { file: output, ext: "mp4", mime: "video/mp4", reencoded: !remux, originalPlays: originalPlaysEverywhere(mime, facts) };
}
