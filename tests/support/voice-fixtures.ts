// Voice recordings as phones and browsers make them, made with ffmpeg for the
// tests: the formats of issue 45 and one just over the ten-minute limit. The
// sound is speech-like (a voice's band of noise, rising and falling a few
// times a second) at a chosen loudness, so loudness normalisation has
// something real to measure; each carries a title tag, so a test can see that
// metadata is stripped.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

export type VoiceFormat =
  /** iPhone Voice Memos: AAC in an MP4 container with the "M4A " brand. */
  | "m4a"
  /** Chrome's and Firefox's MediaRecorder: Opus in WebM. */
  | "webm"
  /** Firefox, and "Save as Ogg" recorders: Opus in Ogg. */
  | "ogg"
  /** Android's recorders: AAC in a 3GPP container ("3gp4"). */
  | "3gp"
  | "mp3"
  | "wav";

const ENCODE: Record<VoiceFormat, string[]> = {
  m4a: ["-c:a", "aac", "-b:a", "64k", "-f", "ipod"],
  webm: ["-c:a", "libopus", "-b:a", "32k", "-f", "webm"],
  ogg: ["-c:a", "libopus", "-b:a", "32k", "-f", "ogg"],
  "3gp": ["-c:a", "aac", "-b:a", "32k", "-ar", "16000", "-f", "3gp"],
  mp3: ["-c:a", "libmp3lame", "-b:a", "64k", "-f", "mp3"],
  wav: ["-c:a", "pcm_s16le", "-f", "wav"],
};

export interface VoiceOptions {
  seconds?: number;
  /** Integrated loudness to make it at, in LUFS (a whisper about -35, a shout about -10); roughly, past a minute. */
  lufs?: number;
  title?: string;
}

/**
 * Writes a voice-like recording in `format` to `dir` and returns its path.
 * Ten seconds at -30 LUFS unless asked otherwise.
 */
export function makeVoiceFile(dir: string, format: VoiceFormat, options: VoiceOptions = {}): string {
  const seconds = options.seconds ?? 10;
  const lufs = options.lufs ?? -30;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `voice-${format}-${seconds}s-${Math.abs(lufs)}.${format}`);
  // Pink noise in a voice's band, its level swung at syllable pace, then set to the loudness asked for.
  const speech = `anoisesrc=color=pink:sample_rate=48000:duration=${seconds}:seed=7,highpass=f=150,lowpass=f=3500,volume='0.25+0.75*abs(sin(2*PI*2.7*t))':eval=frame`;
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", speech],
    // Measuring takes a while on long files: past a minute, a fixed gain near the loudness asked for.
    ...["-af", seconds > 60 ? `volume=${lufs + 14}dB` : `loudnorm=I=${lufs}:TP=-1:LRA=20,aresample=48000`, "-ac", "1"],
    ...["-metadata", `title=${options.title ?? "Voice memo at 12 Elm Street"}`],
    ...ENCODE[format],
    file,
  ]);
  return file;
}

/** Integrated loudness of a file in LUFS, as ffmpeg's EBU R128 scanner (ebur128) measures it. */
export function measureLufs(file: string): number {
  const run = spawnSync("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", "ebur128", "-f", "null", "-"], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`ffmpeg could not measure ${file}: ${run.stderr.slice(-300)}`);
  // ebur128 prints its summary on stderr.
  return parseIntegrated(run.stderr);
}

/** The "I: -16.0 LUFS" of ebur128's summary. */
function parseIntegrated(text: string): number {
  const summary = text.slice(text.lastIndexOf("Summary:"));
  const match = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  if (!match) throw new Error(`ebur128 printed no integrated loudness: ${summary.slice(0, 200)}`);
  return Number(match[1]);
}

/** What ffprobe says of a file: its container, its streams' codecs, its length and its tags. */
export function probe(file: string): { format: string; codecs: string[]; seconds: number; tags: Record<string, string> } {
  const json = JSON.parse(
    execFileSync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file], { encoding: "utf8" }),
  ) as {
    format: { format_name: string; duration?: string; tags?: Record<string, string> };
    streams: { codec_name: string; tags?: Record<string, string> }[];
  };
  const tags = { ...json.format.tags };
  for (const stream of json.streams) Object.assign(tags, stream.tags);
  return {
    format: json.format.format_name,
    codecs: json.streams.map((stream) => stream.codec_name),
    seconds: Number(json.format.duration ?? 0),
    tags,
  };
}
