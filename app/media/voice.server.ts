import fs from "node:fs/promises";
import { VOICE_MAX_SECONDS } from "./limits";
import { MediaProblem } from "./processing-limits.server";
import { runTool, ToolFailed, toolMissing } from "./run-tool.server";
import { scratchName, type RunOptions } from "./video.server";

// Voice memories (issue 45, docs/decisions/037-voice-memories.md): what a
// recording holds, and the one copy every browser plays.

/**
 * The loudness every published voice is brought to (EBU R128, as podcasts
 * and spoken-word players use), so a whisper and a shout play at one level;
 * peaks stay below -1.5 dBTP.
 */
const VOICE_LOUDNESS = { integrated: -16, truePeak: -1.5 } as const;

export interface VoiceFacts {
  /** Whole seconds, rounded up (a 10:00.4 recording is 601 seconds, over the limit). */
  durationSec: number;
  /** The exact length, for the limit. */
  seconds: number;
  channels: number;
}

const NOT_A_RECORDING = "the file has no sound that could be read; it may be damaged or not really a recording";

/**
 * The length and channels of a file's first sound stream, from ffprobe; null
 * when ffprobe cannot read the file or it holds no sound.
 */
export async function probeVoice(input: string, options: RunOptions = {}): Promise<VoiceFacts | null> {
  let stdout: string;
  try {
    stdout = await runTool(
      "ffprobe",
      ["-v", "error", "-threads", "1", "-show_entries", "format=duration:stream=codec_type,channels,duration"].concat([
        "-of",
        "json",
        input,
      ]),
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
      streams?: { codec_type?: string; channels?: number; duration?: string }[];
    };
    const streams = data.streams ?? [];
    const sound = streams.find((stream) => stream.codec_type === "audio");
    if (!sound) return null;
    const seconds =
      [sound.duration, data.format?.duration].map(Number).find((value) => Number.isFinite(value) && value > 0) ??
      (await lengthOfPackets(input, options));
    if (seconds === undefined) return null;
    return {
      seconds,
      durationSec: Math.ceil(seconds - 0.05),
      channels: sound.channels ?? 1,
    };
  } catch (error) {
    if (error instanceof MediaProblem) throw error;
    return null;
  }
}

/**
 * The length of a recording whose header does not say it: a browser's
 * MediaRecorder writes its WebM (Chrome, Firefox) as it records, with no
 * length in front. The sound's packets are read to the end, not decoded
 * (a few milliseconds for ten minutes); undefined when they cannot be.
 */
async function lengthOfPackets(input: string, options: RunOptions): Promise<number | undefined> {
  let progress: string;
  try {
    const read = ["-nostdin", "-hide_banner", "-v", "error", "-threads", "1", "-i", input, "-map", "0:a:0", "-c", "copy"];
    progress = await runTool("ffmpeg", [...read, "-f", "null", "-progress", "pipe:1", "-nostats", "-"], {
      timeoutMs: 30_000,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof MediaProblem) throw error;
    return undefined;
  }
  const microseconds = Number([...progress.matchAll(/^out_time_us=(\d+)$/gm)].at(-1)?.[1]);
  return microseconds > 0 ? microseconds / 1_000_000 : undefined;
}

/** The reason a recording is too long, as its sender reads it: "This recording is 10:01 long. …". */
function voiceTooLong(durationSec: number) {
  const length = `${Math.floor(durationSec / 60)}:${String(durationSec % 60).padStart(2, "0")}`;
  return `This recording is ${length} long. Voice memories can be at most ${VOICE_MAX_SECONDS / 60} minutes.`;
}

/** Refuses a recording over ten minutes, before any of it is decoded. */
export function checkVoiceLength(facts: Pick<VoiceFacts, "durationSec">) {
  if (facts.durationSec <= VOICE_MAX_SECONDS) return;
  throw new MediaProblem("too-large", voiceTooLong(facts.durationSec));
}

/** The integrated loudness (LUFS) and true peak (dBTP) of ebur128's summary, the end of what it prints on stderr. */
function measured(stderr: string) {
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  const loudness = Number(/I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1]);
  const peak = Number(/Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1]);
  return { loudness: Number.isFinite(loudness) ? loudness : null, peak: Number.isFinite(peak) ? peak : null };
}

/** The gain that brings a recording to the target: never more than +30 dB (a near-silent file stays a quiet one). */
export function voiceGain(loudness: number | null) {
  if (loudness === null) return 0;
  return Math.round(Math.max(-30, Math.min(30, VOICE_LOUDNESS.integrated - loudness)) * 100) / 100;
}

/**
 * The voice's public copy: AAC in an M4A (MP4) container, which every
 * browser since Safari 4 and Chrome 12 plays, at -16 LUFS, without any
 * metadata (a phone's title tag may be a place or a name), and with its
 * index at the front so a slow phone starts playing at once. Two passes:
 * ffmpeg's EBU R128 meter (ebur128) measures the whole recording, then one
 * steady gain brings it to the target, so the voice keeps its own rise and
 * fall, and a limiter holds the rare peak that would pass -1.5 dB. (loudnorm
 * does the same in one filter at five times the CPU: it works at 192 kHz.)
 */
export async function makeVoiceCopy(input: string, facts: VoiceFacts, workDir: string, options: RunOptions = {}): Promise<string> {
  await fs.mkdir(workDir, { recursive: true });
  const tool = { timeoutMs: 120_000, signal: options.signal };
  const read = ["-nostats", "-hide_banner", "-threads", "1", "-i", input, "-map", "0:a:0", "-vn", "-sn", "-dn"];
  let meter: string;
  try {
    meter = await runTool("ffmpeg", ["-v", "info", ...read, "-af", "ebur128=peak=true", "-f", "null", "-"], { ...tool, stderr: true });
  } catch (error) {
    if (error instanceof MediaProblem) throw error;
    if (error instanceof ToolFailed && error.missing) throw toolMissing("ffmpeg");
    throw new MediaProblem("unreadable", NOT_A_RECORDING);
  }
  const gain = voiceGain(measured(meter).loudness);
  const ceiling = 10 ** (VOICE_LOUDNESS.truePeak / 20);
  const output = scratchName(workDir, "m4a");
  try {
    await runTool(
      "ffmpeg",
      [
        ...["-v", "error", ...read],
        ...["-af", `volume=${gain}dB,alimiter=limit=${ceiling.toFixed(3)}:attack=5:release=50:level=disabled,aresample=48000`],
        ...["-ac", String(Math.min(facts.channels, 2)), "-c:a", "aac", "-b:a", facts.channels > 1 ? "128k" : "96k"],
        ...["-map_metadata", "-1", "-map_chapters", "-1", "-fflags", "+bitexact", "-movflags", "+faststart", "-f", "ipod"],
        ...["-y", output],
      ],
      tool,
    );
  } catch (error) {
    await fs.rm(output, { force: true });
    if (error instanceof MediaProblem) throw error;
    throw new MediaProblem("unreadable", NOT_A_RECORDING);
  }
  return output;
}
