// Media benchmark, run by hand (never part of the test suite), all in one run:
//  1. Upload throughput of a 1 GiB file (random-ish bytes) PUT with
//     http.request + fs.createReadStream, Content-Length set, to
//     (a) the app's signed address (POST /api/uploads/sign, local-disk
//         driver) on the production build, and
//     (b) a bare Node http.createServer that pipes the request into
//         fs.createWriteStream with stream.pipeline and answers 200. It is
//         this same file, started as a child process with --bare-server, so
//         it has its own process and event loop like the app server rather
//         than sharing the client's. A second bare variant writes with
//         { flush: true } (fsync before close), as the app's disk driver does,
//         to tell the cost of the flush from the cost of the app.
//     Best of 2 each; target: app ≥ 80% of the bare server.
//  2. The app server's RSS growth during its upload, sampled from
//     /proc/<pid>/status (VmRSS every 50 ms, plus VmHWM); target < 50 MB.
//     Also each server's CPU time per upload (/proc/<pid>/stat), to tell
//     where the app's extra time goes.
//  3. Image processing, in this process with sharp (median of 3 after one
//     warm-up): a 24 MP JPEG with EXIF orientation 6 — decode only, and the
//     thumbnail path (autoOrient, resize to 280 px, JPEG q80); a 12 MP HEIC
//     made with Debian's heif-enc — heif-convert alone (the app's arguments),
//     and the app's own makeImageCopies(), imported from
//     app/media/process.server.ts through tsx's tsImport (tsx is already in
//     node_modules as a dependency of drizzle-kit; nothing is re-implemented).
//     Reference timings from /work/shared/STACK-NOTES.md.
// All temporary files (the 1 GiB ones too) are removed at the end, on error
// and on Ctrl-C.
//
// Usage: npm run build && node bench/media.mjs     (or npm run bench:media)
// Needs: the production build (npm run build), heif-enc and heif-convert
// (Debian package libheif-examples). Takes 1–2 minutes.
import { execFile, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { addToSummary } from "./summary.mjs";

const run = promisify(execFile);
const THIS_FILE = fileURLToPath(import.meta.url);
const MiB = 1024 * 1024;
const UPLOAD_BYTES = 1024 * MiB;
const UPLOAD_RUNS = 2;
const IMAGE_RUNS = 3;
const SAMPLE_MS = 50;
const CLOCK_TICKS = 100; // USER_HZ, the unit of utime/stime in /proc/<pid>/stat on Linux

if (process.argv[2] === "--bare-server") {
  bareServer(process.argv[3]);
} else {
  await main();
}

/** The baseline server: the request body straight into a file, then 200. */
function bareServer(dir) {
  const server = http.createServer(async (req, res) => {
    const file = path.join(dir, `bare-${randomBytes(6).toString("hex")}`);
    const flush = req.url?.includes("flush=1") ?? false;
    try {
      await pipeline(req, createWriteStream(file, { flush }));
      res.writeHead(200).end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    } finally {
      res.once("finish", () => fs.rm(file, { force: true }));
    }
  });
  server.listen(0, "127.0.0.1", () => process.send?.({ port: server.address().port }));
  // Leave with the parent, whatever way it goes.
  process.on("disconnect", () => process.exit(0));
}

function procStatusKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Runs fn while sampling pid's RSS; peak counts VmHWM too when it rose during fn. */
async function sampleRss(pid, fn) {
  const cpuBefore = cpuSeconds(pid);
  const before = procStatusKb(pid);
  let peak = before.rss;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, procStatusKb(pid).rss);
    } catch {
      // The process ended between two samples: its last peak stands.
    }
  }, SAMPLE_MS);
  let result;
  try {
    result = await fn();
  } finally {
    clearInterval(timer);
  }
  const after = procStatusKb(pid);
  peak = Math.max(peak, after.rss);
  if (after.hwm > before.hwm) peak = Math.max(peak, after.hwm);
  return { result, baselineKb: before.rss, peakKb: peak, cpuSec: cpuSeconds(pid) - cpuBefore };
}

/** PUTs a file with http.request, streamed, Content-Length set; resolves at the end of the response. */
function putFile(url, file, size, headers = {}) {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    let answered = false;
    const req = http.request(url, {
      method: "PUT",
      agent: false,
      headers: { "Content-Type": "application/octet-stream", "Content-Length": String(size), ...headers },
    });
    req.on("response", (res) => {
      answered = true;
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ ms: performance.now() - began, status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", (error) => answered || reject(error));
    pipeline(createReadStream(file, { highWaterMark: MiB }), req).catch((error) => answered || reject(error));
  });
}

/** Pixels with gradients and per-pixel noise, so JPEG/HEVC have real work to do. */
function photoLikePixels(width, height) {
  const raw = Buffer.allocUnsafe(width * height * 3);
  const noise = randomBytes(width * height);
  const wave = new Float64Array(width + height);
  for (let i = 0; i < wave.length; i++) wave[i] = 128 + 100 * Math.sin(i / 180);
  const clamp = (v) => (v < 0 ? 0 : v > 255 ? 255 : v);
  for (let y = 0, p = 0, i = 0; y < height; y++) {
    const gy = (y * 255) / height;
    for (let x = 0; x < width; x++, p++, i += 3) {
      const n = (noise[p] & 31) - 16;
      raw[i] = clamp((x * 255) / width + n);
      raw[i + 1] = clamp(gy + n);
      raw[i + 2] = clamp(wave[x + y] + n);
    }
  }
  return { raw, info: { raw: { width, height, channels: 3 } } };
}

/** Median ms of IMAGE_RUNS timed runs after one untimed warm-up. */
async function medianMs(fn, after = async () => {}) {
  await fn();
  await after();
  const times = [];
  for (let i = 0; i < IMAGE_RUNS; i++) {
    const began = performance.now();
    await fn();
    times.push(performance.now() - began);
    await after();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function main() {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "memorial-bench-media-"));
  let site = null;
  let bare = null;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    if (bare && bare.exitCode === null) {
      bare.kill("SIGTERM");
      await new Promise((resolve) => bare.once("exit", resolve));
    }
    if (site) {
      // startSite's stop() waits for an exit that already happened if the server died.
      let alive = true;
      try {
        process.kill(site.pid, 0);
      } catch {
        alive = false;
      }
      if (alive) await Promise.race([site.stop().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 15_000))]);
      rmSync(site.dir, { recursive: true, force: true });
    }
    rmSync(scratch, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => cleanup().finally(() => process.exit(130)));
  }

  const rows = [];
  const row = (measure, result, target = "", ok = null) => rows.push({ measure, result, target, ok });
  const mibs = (ms) => UPLOAD_BYTES / MiB / (ms / 1000);
  const kbToMiB = (kb) => kb / 1024;
  let imageMethod = "";

  try {
    // ---------- 1 & 2: uploads ----------
    const { startSite } = await import("./lib.mjs");
    const bigFile = path.join(scratch, "upload-1GiB.bin");
    {
      const block = randomBytes(16 * MiB);
      const handle = await fs.open(bigFile, "w");
      try {
        for (let written = 0; written < UPLOAD_BYTES; written += block.length) {
          block.writeUInt32LE(written / block.length, 0); // no two blocks quite alike
          await handle.write(block);
        }
      } finally {
        await handle.close();
      }
    }
    const smallFile = path.join(scratch, "warmup.bin");
    await fs.writeFile(smallFile, randomBytes(MiB));

    const bareDir = path.join(scratch, "bare-uploads");
    await fs.mkdir(bareDir);
    bare = fork(THIS_FILE, ["--bare-server", bareDir], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const barePort = await new Promise((resolve, reject) => {
      bare.once("message", (message) => resolve(message.port));
      bare.once("exit", (code) => reject(new Error(`bare server exited (${code})`)));
    });
    const bareUrl = (flush) => `http://127.0.0.1:${barePort}/upload${flush ? "?flush=1" : ""}`;

    site = await startSite();
    const health = await fetch(`${site.origin}/healthz`).catch(() => null);
    if (!health?.ok) throw new Error("the app server did not start: is there a build (npm run build)?");

    async function appUpload(file, size) {
      const signed = await fetch(`${site.origin}/api/uploads/sign`, { method: "POST", headers: { Origin: site.origin } });
      if (!signed.ok) throw new Error(`POST /api/uploads/sign answered ${signed.status}: ${await signed.text()}`);
      const { uploadURL } = await signed.json();
      const put = await putFile(uploadURL, file, size, { Origin: site.origin });
      if (put.status !== 200) throw new Error(`PUT to the signed address answered ${put.status}: ${put.body}`);
      const key = decodeURIComponent(new URL(uploadURL).pathname.replace(/^\/api\/uploads\/put\//, ""));
      const stored = path.join(site.dir, "uploads", "objects", key);
      const storedSize = (await fs.stat(stored)).size;
      if (storedSize !== size) throw new Error(`stored ${storedSize} bytes, sent ${size}`);
      await fs.rm(stored, { force: true });
      return put;
    }
    async function bareUpload(file, size, flush) {
      const put = await putFile(bareUrl(flush), file, size);
      if (put.status !== 200) throw new Error(`bare server answered ${put.status}: ${put.body}`);
      return put;
    }

    // Warm-up: code paths, JIT, the database.
    await appUpload(smallFile, MiB);
    await bareUpload(smallFile, MiB, false);
    await bareUpload(smallFile, MiB, true);

    const best = { bare: Infinity, bareFlush: Infinity, app: Infinity };
    const memory = { app: null, bare: null };
    const cpu = { bare: Infinity, app: Infinity };
    const worse = (previous, sample) =>
      !previous || sample.peakKb - sample.baselineKb > previous.peakKb - previous.baselineKb ? sample : previous;
    for (let i = 0; i < UPLOAD_RUNS; i++) {
      process.stderr.write(`upload run ${i + 1}/${UPLOAD_RUNS}…\n`);
      // Each upload starts with no dirty pages left over from the one before.
      await run("sync");
      const b = await sampleRss(bare.pid, () => bareUpload(bigFile, UPLOAD_BYTES, false));
      best.bare = Math.min(best.bare, b.result.ms);
      cpu.bare = Math.min(cpu.bare, b.cpuSec);
      memory.bare = worse(memory.bare, b);
      await run("sync");
      const bf = await sampleRss(bare.pid, () => bareUpload(bigFile, UPLOAD_BYTES, true));
      best.bareFlush = Math.min(best.bareFlush, bf.result.ms);
      await run("sync");
      const a = await sampleRss(site.pid, () => appUpload(bigFile, UPLOAD_BYTES));
      best.app = Math.min(best.app, a.result.ms);
      cpu.app = Math.min(cpu.app, a.cpuSec);
      memory.app = worse(memory.app, a);
    }
    await fs.rm(bigFile, { force: true });

    const ratio = mibs(best.app) / mibs(best.bare);
    const growthMiB = kbToMiB(memory.app.peakKb - memory.app.baselineKb);
    row(
      "Upload 1 GiB → bare Node server (pipeline → createWriteStream), best of 2",
      `${mibs(best.bare).toFixed(0)} MiB/s (${(best.bare / 1000).toFixed(2)} s)`,
      "baseline",
    );
    row(
      "Upload 1 GiB → bare Node server, createWriteStream({ flush: true }), best of 2",
      `${mibs(best.bareFlush).toFixed(0)} MiB/s (${(best.bareFlush / 1000).toFixed(2)} s)`,
      "reference (the app's driver flushes too)",
    );
    row(
      "Upload 1 GiB → app signed PUT /api/uploads/put/…, best of 2",
      `${mibs(best.app).toFixed(0)} MiB/s (${(best.app / 1000).toFixed(2)} s)`,
    );
    row("App / bare throughput", `${(ratio * 100).toFixed(0)}%`, "≥ 80%", ratio >= 0.8);
    row("App / bare-with-flush throughput", `${((mibs(best.app) / mibs(best.bareFlush)) * 100).toFixed(0)}%`, "reference");
    row("App server RSS before upload (VmRSS)", `${kbToMiB(memory.app.baselineKb).toFixed(1)} MiB`);
    row("App server peak RSS during upload (VmRSS every 50 ms, VmHWM)", `${kbToMiB(memory.app.peakKb).toFixed(1)} MiB`);
    row("App server RSS growth during upload (worse of 2)", `${growthMiB.toFixed(1)} MiB`, "< 50 MB (47.7 MiB)", growthMiB * MiB < 50e6);
    row(
      "Server CPU time (user + system) per 1 GiB upload: app / bare, least of 2",
      `${cpu.app.toFixed(2)} s / ${cpu.bare.toFixed(2)} s`,
      "reference",
    );
    row(
      "Bare server RSS growth during upload (worse of 2)",
      `${kbToMiB(memory.bare.peakKb - memory.bare.baselineKb).toFixed(1)} MiB`,
      "reference",
    );

    addToSummary([
      {
        measure: "1 GiB signed PUT to local disk",
        result: `${mibs(best.app).toFixed(0)} MiB/s`,
        reference: `bare Node ${mibs(best.bare).toFixed(0)} MiB/s; with flush ${mibs(best.bareFlush).toFixed(0)} MiB/s`,
        ratio: `${(ratio * 100).toFixed(0)}% of bare Node`,
        target: "≥ 80%",
        met: ratio >= 0.8,
      },
      {
        measure: "upload: server RSS growth",
        result: `${growthMiB.toFixed(1)} MiB`,
        reference: `bare Node ${kbToMiB(memory.bare.peakKb - memory.bare.baselineKb).toFixed(1)} MiB`,
        target: "< 50 MB",
        met: growthMiB * MiB < 50e6,
      },
    ]);

    await site.stop();
    site = null;

    // ---------- 3: images ----------
    process.stderr.write("images…\n");
    const { default: sharp } = await import("sharp");
    const jpeg = path.join(scratch, "photo-24mp.jpg");
    {
      const { raw, info } = photoLikePixels(6000, 4000);
      await sharp(raw, info).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toFile(jpeg);
    }
    const heicSource = path.join(scratch, "photo-12mp.png");
    const heic = path.join(scratch, "photo-12mp.heic");
    {
      const { raw, info } = photoLikePixels(4032, 3024);
      await sharp(raw, info).png({ compressionLevel: 1 }).toFile(heicSource);
    }
    await run("heif-enc", ["-q", "60", "-o", heic, heicSource], { timeout: 120_000 });
    await fs.rm(heicSource);
    const jpegMeta = await sharp(jpeg).metadata();
    const jpegMiB = (await fs.stat(jpeg)).size / MiB;
    const heicMiB = (await fs.stat(heic)).size / MiB;

    const decodeMs = await medianMs(() => sharp(jpeg).raw().toBuffer());
    const thumbMs = await medianMs(() => sharp(jpeg).autoOrient().resize({ width: 280 }).jpeg({ quality: 80 }).toBuffer());
    const convertOut = path.join(scratch, "converted.jpg");
    const heifConvertMs = await medianMs(
      () => run("heif-convert", ["-q", "92", heic, convertOut], { timeout: 120_000 }),
      () => fs.rm(convertOut, { force: true }),
    );

    let copiesHeicMs = null;
    let copiesJpegMs = null;
    let heicCopies = null;
    try {
      const { tsImport } = await import("tsx/esm/api");
      const { makeImageCopies } = await tsImport("../app/media/process.server.ts", import.meta.url);
      imageMethod = "makeImageCopies imported from app/media/process.server.ts with tsx's tsImport (in this process)";
      const workDir = path.join(scratch, "work");
      const clearWork = () => fs.rm(workDir, { recursive: true, force: true });
      copiesHeicMs = await medianMs(async () => {
        heicCopies = await makeImageCopies(heic, "image/heic", 0, workDir);
        if (!heicCopies) throw new Error("makeImageCopies returned null for the HEIC (heif-convert failed?)");
      }, clearWork);
      copiesJpegMs = await medianMs(async () => {
        if (!(await makeImageCopies(jpeg, "image/jpeg", 0, workDir))) throw new Error("makeImageCopies returned null for the JPEG");
      }, clearWork);
    } catch (error) {
      if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
      imageMethod = "tsx not found in node_modules: makeImageCopies rows skipped";
    }

    const ms = (v) => (v === null ? "skipped" : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(0)} ms`);
    row(
      `24 MP JPEG (${jpegMeta.width}×${jpegMeta.height}, orientation ${jpegMeta.orientation}, ${jpegMiB.toFixed(1)} MiB): sharp decode only, raw().toBuffer()`,
      ms(decodeMs),
      "baseline",
    );
    row("24 MP JPEG: thumbnail path autoOrient().resize({width: 280}).jpeg({quality: 80})", ms(thumbMs), "STACK-NOTES: 56 ms");
    row(
      '24 MP JPEG: app makeImageCopies(jpeg, "image/jpeg", 0) — web copies (640/1280/2560) + thumbnail',
      ms(copiesJpegMs),
      "STACK-NOTES: full-size re-encode 450 ms",
    );
    row(
      `12 MP HEIC (4032×3024, heif-enc -q 60, ${heicMiB.toFixed(1)} MiB): heif-convert -q 92 alone`,
      ms(heifConvertMs),
      "STACK-NOTES: 0.88 s",
    );
    row(
      `12 MP HEIC: app makeImageCopies(heic, "image/heic", 0)${heicCopies ? ` → ${heicCopies.width}×${heicCopies.height} + thumbnail` : ""}`,
      ms(copiesHeicMs),
      "reference: heif-convert + sharp",
    );

    addToSummary([
      {
        measure: "24 MP JPEG → public copy + thumbnail",
        result: ms(copiesJpegMs),
        reference: `sharp decode alone ${ms(decodeMs)}`,
        ratio: copiesJpegMs === null ? "" : `${(copiesJpegMs / decodeMs).toFixed(2)}×`,
      },
      {
        measure: "12 MP HEIC → JPEG + thumbnail",
        result: ms(copiesHeicMs),
        reference: `heif-convert alone ${ms(heifConvertMs)}`,
        ratio: copiesHeicMs === null ? "" : `${(copiesHeicMs / heifConvertMs).toFixed(2)}×`,
      },
    ]);

    const mark = (ok) => (ok === null ? "" : ok ? "✅" : "❌");
    console.log(
      `\nMedia benchmark — Node ${process.version}, ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${new Date().toISOString()}`,
    );
    console.log(
      `Uploads: ${UPLOAD_RUNS} runs each of 1 GiB, timed from request start to end of response. Images: median of ${IMAGE_RUNS} after a warm-up.`,
    );
    console.log(`makeImageCopies: ${imageMethod}.\n`);
    console.log("| Measure | Result | Target / reference | |");
    console.log("|---|---|---|---|");
    for (const r of rows) console.log(`| ${r.measure} | ${r.result} | ${r.target} | ${mark(r.ok)} |`);
  } finally {
    await cleanup();
  }
}
