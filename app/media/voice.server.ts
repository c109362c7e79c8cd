import fs from "node:fs/promises";
import { VOICE_MAX_SECONDS, voiceSeconds } from "./limits";
import { VOICE_OVER_LIMIT, voiceTooLong } from "./voice-length";
import { MediaProblem } from "./processing-limits.server";
import { CpuBudgetExceeded } from "./cpu-budget.server";
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
      durationSec: voiceSeconds(seconds),
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
export async function makeVoiceCopy(
  input: string,
  facts: VoiceFacts,
  workDir: string,
  options: RunOptions = {},
): Promise<{ file: string; durationSec: number }> {
  await fs.mkdir(workDir, { recursive: true });
  const read = ["-nostats", "-hide_banner", "-threads", "1", "-i", input, "-map", "0:a:0", "-vn", "-sn", "-dn"];
  // Time counted from the decoded samples, never from the file's own timestamps, and decoding stopped at the cap.
  const capped = ["-t", String(VOICE_DECODE_CAP_SECONDS)];
  let meter: string;
  let progress = "";
  try {
    meter = await runTool(
      "ffmpeg",
      [
        "-v",
        "info",
        ...read,
        "-af",
        "asetpts=N/SR/TB,ebur128=peak=true:framelog=verbose",
        ...capped,
        "-progress",
        "pipe:1",
        "-f",
        "null",
        "-",
      ],
      {
        ...voiceTool(options, VOICE_DECODE_CAP_SECONDS, VOICE_CPU.meterPerSecond),
        stderr: true,
        // Only the last figure matters: the length decoded.
        onOutput: (chunk) => (progress = (progress + chunk).slice(-4096)),
      },
    );
  } catch (error) {
    // Reading the recording is where a damaged file or one that is not a recording fails.
    throw voiceToolProblem(error, "unreadable");
  }
  const durationSec = decodedLength(progress, facts);
  const gain = voiceGain(measured(meter).loudness);
  const ceiling = 10 ** (VOICE_LOUDNESS.truePeak / 20);
  const output = scratchName(workDir, "m4a");
  try {
    await runTool(
      "ffmpeg",
      [
        ...["-v", "error", ...read],
        ...[
          "-af",
          `asetpts=N/SR/TB,volume=${gain}dB,alimiter=limit=${ceiling.toFixed(3)}:attack=5:release=50:level=disabled,aresample=48000`,
        ],
        ...capped,
        ...["-ac", String(Math.min(facts.channels, 2)), "-c:a", "aac", "-b:a", facts.channels > 1 ? "128k" : "96k"],
        ...["-map_metadata", "-1", "-map_chapters", "-1", "-fflags", "+bitexact", "-movflags", "+faststart", "-f", "ipod"],
        ...["-y", output],
      ],
      voiceTool(options, durationSec, VOICE_CPU.copyPerSecond),
    );
  } catch (error) {
    await fs.rm(output, { force: true });
    // The whole recording was read above: a failure now is the server's (a full disk, a killed tool), never the file's.
    throw voiceToolProblem(error, "failed");
  }
  return { file: output, durationSec };
}

/**
 * Past this much decoded sound a recording is over the limit, whatever its
 * header said (an MP3 whose first frame claims 7 seconds may hold hours):
 * decoding stops there, so a forged length costs no more than a real one.
 */
const VOICE_DECODE_CAP_SECONDS = VOICE_MAX_SECONDS + 2;

/**
 * The CPU seconds each pass may use (user and system time, which a
 * throttled shared CPU stretches on the clock but never multiplies):
 * a start-up allowance and a share per second of sound. Ten minutes of
 * stereo WAV at 48 kHz, the costliest a phone sends, took 3.2 CPU seconds
 * to measure and 13.2 to copy on one core here (pinned, `nice -n 10`);
 * the budgets (22 and 70) are five to seven times that, for a slower CPU.
 */
const VOICE_CPU = { baseSeconds: 10, meterPerSecond: 0.02, copyPerSecond: 0.1 };

/**
 * How a voice's pass runs: within its CPU budget, and within a wall-clock
 * backstop of sixteen times that (a shared CPU at its 6.25% baseline takes
 * that long to use it up; the job's own limit comes first).
 */
function voiceTool(options: RunOptions, seconds: number, perSecond: number) {
  const cpuSeconds = Math.ceil(VOICE_CPU.baseSeconds + Math.min(seconds, VOICE_DECODE_CAP_SECONDS) * perSecond);
  return { cpuSeconds, timeoutMs: cpuSeconds * 16_000, signal: options.signal };
}

/**
 * What a pass's failure means for the recording: past its budget or its
 * time it is "too-slow", a tool that is missing, was killed or could not
 * write (a full disk) is the server's failure, and anything else is `kind`
 * ("unreadable" while reading it the first time, "failed" after).
 */
export function voiceToolProblem(error: unknown, kind: "unreadable" | "failed"): MediaProblem {
  if (error instanceof MediaProblem) return error;
  if (error instanceof CpuBudgetExceeded)
    return new MediaProblem("too-slow", `preparing it used up its ${error.seconds} CPU seconds, so it was stopped`);
  if (error instanceof ToolFailed && error.missing) return toolMissing("ffmpeg");
  const serverFault =
    error instanceof ToolFailed && (error.killed || /No space left on device|Cannot allocate memory/i.test(error.message));
  if (kind === "failed" || serverFault) return new MediaProblem("failed", VOICE_COPY_FAILED);
  return new MediaProblem("unreadable", NOT_A_RECORDING);
}

const VOICE_COPY_FAILED = "the server could not finish its copy (it may be out of room or memory); the recording is kept";

/**
 * The recording's length, from the samples the meter decoded: the header's
 * when they agree within a second (the figure ffprobe gave, which the form's
 * own recorder shows too), else the decoded one. Refused when it is over
 * ten minutes.
 */
function decodedLength(progress: string, facts: VoiceFacts): number {
  const microseconds = Number([...progress.matchAll(/^out_time_us=(\d+)$/gm)].at(-1)?.[1]);
  const seconds = microseconds > 0 ? microseconds / 1_000_000 : facts.seconds;
  if (seconds >= VOICE_DECODE_CAP_SECONDS - 0.05) throw new MediaProblem("too-large", VOICE_OVER_LIMIT);
  const durationSec = Math.abs(seconds - facts.seconds) <= 1 ? facts.durationSec : voiceSeconds(seconds);
  checkVoiceLength({ durationSec });
  return durationSec;
}
