// Video benchmark, run by hand (never part of the test suite): how long the
// web copy of a phone video takes, on ONE core, as on a shared-CPU Fly
// machine. For each of
//   - an iPhone-like clip: 1920×1080, 30 fps, 10-bit HEVC + AAC in a .mov, and
//   - an Android-like clip: 1920×1080, 30 fps, H.264 High + AAC in an .mp4,
// BENCH_VIDEO_SECONDS long (60 unless set), with moving noise over a test
// pattern so the encoder has real work (made first with Debian's ffmpeg, on
// every core, not timed), the app's own makeWebVideo() (imported from
// app/media/video.server.ts with tsx's tsImport) runs in a child process
// pinned with `taskset -c 0`, under GNU time for the peak resident memory of
// the largest process (ffmpeg). Reported: encode time, speed as a multiple
// of real time (video seconds per second of encoding; above 1× is faster
// than playing it), and peak RSS next to the encode's address-space cap.
//
// Usage: node bench/video.mjs   (or npm run bench -- video; BENCH_VIDEO_SECONDS=20 for a quick look)
// Needs: ffmpeg with libx265 and libx264, taskset (util-linux), /usr/bin/time. Takes about 5 minutes.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { addToSummary } from "./summary.mjs";

const run = promisify(execFile);
const THIS_FILE = fileURLToPath(import.meta.url);
const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS ?? 60);

if (process.argv[2] === "--encode") {
  await encodeOnce(process.argv[3], process.argv[4]);
} else {
  await main();
}

/** In the pinned child: one makeWebVideo, its time printed as JSON on the last line. */
async function encodeOnce(file, mime) {
  const { tsImport } = await import("tsx/esm/api");
  const { makeWebVideo, probeForWeb } = await tsImport("../app/media/video.server.ts", import.meta.url);
  const facts = await probeForWeb(file);
  const workDir = path.join(path.dirname(file), "work");
  const started = process.hrtime.bigint();
  const copy = await makeWebVideo(file, mime, facts, workDir, { cpuSeconds: 60 * 60 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const probe = JSON.parse(
    execFileSync("ffprobe", [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=width,height,profile:format=bit_rate",
      "-of",
      "json",
      copy.file,
    ]),
  );
  console.log(
    JSON.stringify({
      seconds,
      reencoded: copy.reencoded,
      width: probe.streams[0].width,
      height: probe.streams[0].height,
      profile: probe.streams[0].profile,
      kbps: Math.round(Number(probe.format.bit_rate) / 1000),
      bytes: statSync(copy.file).size,
    }),
  );
}

async function main() {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "memorial-bench-video-"));
  const cleanup = () => rmSync(scratch, { recursive: true, force: true });
  process.on("SIGINT", () => {
    cleanup();
    process.exit(130);
  });
  try {
    const clips = [
      {
        name: `iPhone-like ${SECONDS} s 1080p30 HEVC 10-bit .mov`,
        file: path.join(scratch, "iphone.mov"),
        mime: "video/quicktime",
        codec: [
          "-c:v",
          "libx265",
          "-preset",
          "ultrafast",
          "-x265-params",
          "log-level=error",
          "-pix_fmt",
          "yuv420p10le",
          "-tag:v",
          "hvc1",
          "-b:v",
          "8M",
        ],
      },
      {
        name: `Android-like ${SECONDS} s 1080p30 H.264 High .mp4`,
        file: path.join(scratch, "android.mp4"),
        mime: "video/mp4",
        codec: ["-c:v", "libx264", "-preset", "ultrafast", "-profile:v", "high", "-pix_fmt", "yuv420p", "-b:v", "16M"],
      },
    ];
    const results = [];
    for (const clip of clips) {
      console.log(`making ${clip.name}…`);
      await run("ffmpeg", [
        ...["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=1920x1080:rate=30:duration=${SECONDS},noise=alls=12:allf=t`],
        ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${SECONDS}`, ...clip.codec, "-c:a", "aac", "-b:a", "160k", clip.file],
      ]);
      console.log(`encoding on one core (taskset -c 0)…`);
      const { stdout, stderr } = await run(
        "/usr/bin/time",
        ["-f", "peak-rss-kb=%M", "taskset", "-c", "0", process.execPath, THIS_FILE, "--encode", clip.file, clip.mime],
        { maxBuffer: 16 * 1024 * 1024 },
      );
      const result = JSON.parse(stdout.trim().split("\n").pop());
      const peakKb = Number(/peak-rss-kb=(\d+)/.exec(stderr)?.[1] ?? 0);
      results.push({ clip, result, peakMb: peakKb / 1024, inputMb: statSync(clip.file).size / 2 ** 20 });
    }

    const { WEB_VIDEO } = await (await import("tsx/esm/api")).tsImport("../app/media/video.server.ts", import.meta.url);
    console.log(
      `\nVideo benchmark — Node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, pinned to 1 of ${os.cpus().length} CPUs, ${new Date().toISOString()}`,
    );
    console.log("| clip | input | encode (1 core) | speed | web copy | peak RSS |");
    console.log("|---|---|---|---|---|---|");
    for (const { clip, result, peakMb, inputMb } of results) {
      const speed = SECONDS / result.seconds;
      console.log(
        `| ${clip.name} | ${inputMb.toFixed(1)} MiB | ${result.seconds.toFixed(1)} s | ${speed.toFixed(2)}× real time | ${result.width}×${result.height} H.264 ${result.profile}, ${result.kbps} kbit/s, ${(result.bytes / 2 ** 20).toFixed(1)} MiB${result.reencoded ? "" : " (copied)"} | ${peakMb.toFixed(0)} MB (cap ${WEB_VIDEO.memoryBytes / 2 ** 20} MB address space) |`,
      );
    }
    addToSummary(
      results.map(({ clip, result, peakMb }) => ({
        measure: `web copy of ${clip.name}, 1 core`,
        result: `${result.seconds.toFixed(1)} s, ${(SECONDS / result.seconds).toFixed(2)}× real time`,
        reference: `${SECONDS} s of video; peak RSS ${peakMb.toFixed(0)} MB`,
        ratio: `${(result.seconds / SECONDS).toFixed(2)} s per video second`,
      })),
    );
  } finally {
    cleanup();
  }
}
