// Voice memory benchmark, run by hand (never part of the test suite): how
// long the published copy of the longest voice memory (ten minutes) takes on
// ONE core, as on a shared-CPU Fly machine, and how much memory it holds.
// For a WebM/Opus recording (Chrome's recorder) and a 16-bit WAV (the
// largest a visitor can send for ten minutes), each BENCH_VOICE_SECONDS long
// (600 unless set), made first with Debian's ffmpeg (not timed), the app's
// own probeVoice() and makeVoiceCopy() (app/media/voice.server.ts, imported
// with tsx's tsImport) run in a child process pinned with `taskset -c 0`,
// under GNU time for the peak resident memory of the largest process. The
// same recording decoded to nothing by bare ffmpeg in the same way is the
// reference: the copy's two loudness passes against one plain decode.
//
// Usage: node bench/voice.mjs   (or npm run bench -- voice)
// Needs: ffmpeg, taskset (util-linux), /usr/bin/time. Takes about a minute.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { addToSummary } from "./summary.mjs";

const run = promisify(execFile);
const THIS_FILE = fileURLToPath(import.meta.url);
const SECONDS = Number(process.env.BENCH_VOICE_SECONDS ?? 600);

if (process.argv[2] === "--copy") {
  await copyOnce(process.argv[3]);
} else {
  await main();
}

/** In the pinned child: one probe and copy, its time printed as JSON on the last line. */
async function copyOnce(file) {
  const { tsImport } = await import("tsx/esm/api");
  const { makeVoiceCopy, probeVoice } = await tsImport("../app/media/voice.server.ts", import.meta.url);
  const started = process.hrtime.bigint();
  const facts = await probeVoice(file);
  const { file: copy } = await makeVoiceCopy(file, facts, path.join(path.dirname(file), "work"));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(JSON.stringify({ seconds, bytes: statSync(copy).size }));
}

/** Runs a command pinned to one core under GNU time: wall seconds and peak RSS in MB. */
async function pinned(args) {
  const started = process.hrtime.bigint();
  const { stdout, stderr } = await run("/usr/bin/time", ["-f", "peak-rss-kb=%M", "taskset", "-c", "0", ...args], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  return { stdout, wall, peakMb: Number(/peak-rss-kb=(\d+)/.exec(stderr)?.[1] ?? 0) / 1024 };
}

async function main() {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "memorial-bench-voice-"));
  try {
    const speech = `anoisesrc=color=pink:sample_rate=48000:duration=${SECONDS}:seed=7,highpass=f=150,lowpass=f=3500,volume=-14dB`;
    const recordings = [
      {
        name: `Chrome-like ${SECONDS} s WebM/Opus mono`,
        file: path.join(scratch, "chrome.webm"),
        codec: ["-c:a", "libopus", "-b:a", "32k"],
      },
      { name: `${SECONDS} s WAV 16-bit 48 kHz stereo`, file: path.join(scratch, "long.wav"), codec: ["-ac", "2", "-c:a", "pcm_s16le"] },
    ];
    const results = [];
    for (const recording of recordings) {
      console.log(`making ${recording.name}…`);
      await run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", speech, ...recording.codec, recording.file]);
      console.log("decoding with bare ffmpeg, then making the published copy, each on one core (taskset -c 0)…");
      const bare = await pinned(["ffmpeg", "-v", "error", "-threads", "1", "-i", recording.file, "-f", "null", "-"]);
      const app = await pinned([process.execPath, THIS_FILE, "--copy", recording.file]);
      const result = JSON.parse(app.stdout.trim().split("\n").pop());
      results.push({ recording, result, peakMb: app.peakMb, bare, inputMb: statSync(recording.file).size / 2 ** 20 });
    }
    console.log(
      `\nVoice benchmark — Node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, pinned to 1 of ${os.cpus().length} CPUs, ${new Date().toISOString()}`,
    );
    console.log("| recording | input | published copy (1 core) | bare ffmpeg decode | ratio | copy | peak RSS |");
    console.log("|---|---|---|---|---|---|---|");
    for (const { recording, result, peakMb, bare, inputMb } of results) {
      console.log(
        `| ${recording.name} | ${inputMb.toFixed(1)} MiB | ${result.seconds.toFixed(1)} s | ${bare.wall.toFixed(1)} s | ${(result.seconds / bare.wall).toFixed(1)}× | AAC M4A ${(result.bytes / 2 ** 20).toFixed(1)} MiB | ${peakMb.toFixed(0)} MB (bare ${bare.peakMb.toFixed(0)} MB) |`,
      );
    }
    addToSummary(
      results.map(({ recording, result, peakMb, bare }) => ({
        measure: `published copy of ${recording.name}, 1 core`,
        result: `${result.seconds.toFixed(1)} s, ${(SECONDS / result.seconds).toFixed(0)}× real time`,
        reference: `bare ffmpeg decode ${bare.wall.toFixed(1)} s; peak RSS ${peakMb.toFixed(0)} MB`,
        ratio: `${(result.seconds / bare.wall).toFixed(1)}× the bare decode`,
      })),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
