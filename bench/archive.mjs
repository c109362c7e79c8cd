// "Download everything" with 1 GiB of media: GET /admin/exports/archive.zip
// saved to a file by a client on the same machine, with the server's peak
// RSS growth, next to `cp -r` of the same files to the same disk in the same
// run (best of 3 each, alternating, the files in the page cache for both).
// A bare Node HTTP server sending the same files (no ZIP, no Remix) is measured too:
// cp copies inside the kernel, while any server reads the files into memory and
// writes them to a socket, so that is what Node itself can do on this path.
// Targets: at least 80% of cp's speed, under 50 MB of RSS growth.
// The client is curl (Node's http module without it) writing the file, on the same cores as the server.
// Usage: npm run build && node bench/archive.mjs   (BENCH_ARCHIVE_MB=256 for a quicker run)
import { spawn, spawnSync } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { createReadStream, createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import http from "node:http";
import { pipeline } from "node:stream/promises";
import Database from "better-sqlite3";
import { adminCookie, startSite } from "./lib.mjs";
import { addToSummary } from "./summary.mjs";

const TOTAL_MB = Number(process.env.BENCH_ARCHIVE_MB ?? 1024);
const FILE_MB = 64;
const RUNS = 3;
const ADMIN = { username: "bench", password: "bench-password" };

const PORT = 3393;
const site = await startSite({ port: PORT, env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
const objects = path.join(site.dir, "uploads", "objects");
const media = path.join(objects, "originals");
const scratch = path.join(site.dir, "scratch");
mkdirSync(media, { recursive: true });
mkdirSync(scratch, { recursive: true });

// Random bytes (nothing to gain from compressing), published like visitors' photos and videos.
const sqlite = new Database(path.join(site.dir, "memorial.db"));
sqlite.pragma("busy_timeout = 5000");
const insert = sqlite.prepare(
  `insert into uploads (type, status, url, originalName, submittedBy, storageKey, mimeType, sizeBytes, processedAt)
   values (?, 'APPROVED', '', ?, 'Bench Visitor (bench@example.com)', ?, ?, ?, ?)`,
);
const chunk = Buffer.alloc(FILE_MB * 1024 * 1024);
const files = Math.max(1, Math.round(TOTAL_MB / FILE_MB));
for (let i = 0; i < files; i++) {
  randomFillSync(chunk);
  const video = i % 4 === 0;
  const name = `bench-${i}.${video ? "mp4" : "jpg"}`;
  writeFileSync(path.join(media, name), chunk);
  insert.run(video ? "VIDEO" : "IMAGE", name, `originals/${name}`, video ? "video/mp4" : "image/jpeg", chunk.length, Date.now());
}
sqlite.close();
const mediaBytes = files * chunk.length;

/** curl, if installed, is the client: native code like a browser's, so the figure is the server's, not a JavaScript client's. */
const CURL = spawnSync("curl", ["--version"]).status === 0;

/** Saves `url` (the archive) with curl; resolves with the bytes received. */
function curlTo(target, cookie, url = `${site.origin}/admin/exports/archive.zip`) {
  return new Promise((resolve, reject) => {
    // Any answer but 200 (a redirect to the login page) is a failure.
    const curl = spawn("curl", [
      "-sS",
      "--fail",
      "--max-redirs",
      "0",
      "-o",
      target,
      "-H",
      `Cookie: ${cookie}`,
      "-w",
      "%{size_download}",
      url,
    ]);
    let out = "";
    curl.stdout.on("data", (part) => (out += part));
    curl.stderr.on("data", (part) => (out += part));
    curl.on("exit", (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`curl failed (${code}): ${out}`))));
  });
}

/** Saves the archive with Node's http module, when there is no curl. */
function nodeHttpTo(target, cookie) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port: PORT, path: "/admin/exports/archive.zip", headers: { Cookie: cookie } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`archive answered ${res.statusCode}`));
      let received = 0;
      res.on("data", (part) => (received += part.length));
      pipeline(res, createWriteStream(target)).then(() => {
        if (!res.complete) reject(new Error(`the archive was cut off after ${received} bytes`));
        else resolve(received);
      }, reject);
    });
    req.on("error", reject);
  });
}

function rssKb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
}

function copyWithCp() {
  const target = path.join(scratch, "cp");
  const began = performance.now();
  const result = spawnSync("cp", ["-r", media, target]);
  const ms = performance.now() - began;
  if (result.status !== 0) throw new Error(`cp failed: ${result.stderr}`);
  rmSync(target, { recursive: true, force: true });
  return { ms };
}

// The same files sent one after another by a bare Node HTTP server in this
// process, read in the same chunks: what Node itself costs on this path.
const bareServer = http.createServer((_req, res) => {
  const files = readdirSync(media).sort();
  pipeline(async function* () {
    for (const name of files) yield* createReadStream(path.join(media, name), { highWaterMark: 1024 * 1024 });
  }, res).catch(() => res.destroy());
});
await new Promise((resolve) => bareServer.listen(0, "127.0.0.1", resolve));

async function downloadBare() {
  const target = path.join(scratch, "bare.bin");
  const cpu = process.cpuUsage();
  const began = performance.now();
  const url = `http://127.0.0.1:${bareServer.address().port}/`;
  const bytes = CURL ? await curlTo(target, "", url) : mediaBytes;
  const ms = performance.now() - began;
  const used = process.cpuUsage(cpu);
  rmSync(target, { force: true });
  return { ms, bytes, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** CPU seconds a process has used (user and system), from /proc. */
function cpuSecondsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function downloadArchive(cookie) {
  const target = path.join(scratch, "archive.zip");
  const baseline = rssKb(site.pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(site.pid))), 20);
  const cpu = cpuSecondsOf(site.pid);
  const began = performance.now();
  const bytes = CURL ? await curlTo(target, cookie) : await nodeHttpTo(target, cookie);
  const ms = performance.now() - began;
  const cpuSeconds = cpuSecondsOf(site.pid) - cpu;
  clearInterval(sampler);
  peak = Math.max(peak, rssKb(site.pid));
  rmSync(target, { force: true });
  if (bytes < mediaBytes) throw new Error(`the archive has ${bytes} bytes, less than the media's ${mediaBytes}`);
  return { ms, bytes, cpuSeconds, growthMb: (peak - baseline) / 1024 };
}

try {
  const cookie = await adminCookie(site.origin, ADMIN);
  // Warm-up: the route's code, and every file in the page cache for both.
  copyWithCp();
  await downloadArchive(cookie);
  const cp = [];
  const bare = [];
  const archive = [];
  for (let i = 0; i < RUNS; i++) {
    cp.push(copyWithCp());
    if (CURL) bare.push(await downloadBare());
    archive.push(await downloadArchive(cookie));
  }
  const best = (list) => list.reduce((a, b) => (a.ms <= b.ms ? a : b));
  const c = best(cp);
  const a = best(archive);
  const mbps = (bytes, ms) => bytes / 1024 / 1024 / (ms / 1000);
  const growth = Math.max(...archive.map((run) => run.growthMb));
  const speed = c.ms / a.ms;
  console.log(
    `${files} files, ${(mediaBytes / 1024 ** 3).toFixed(2)} GiB of media, best of ${RUNS}, client ${CURL ? "curl" : "Node http"}`,
  );
  console.table([
    { what: "cp -r of the media (same disk)", "time ms": Math.round(c.ms), "MiB/s": Math.round(mbps(mediaBytes, c.ms)) },
    ...(bare.length
      ? [
          {
            what: "the files from a bare Node HTTP server, to a file",
            "time ms": Math.round(best(bare).ms),
            "MiB/s": Math.round(mbps(best(bare).bytes, best(bare).ms)),
            "server CPU s/GiB": (Math.min(...bare.map((run) => run.cpuSeconds)) / (mediaBytes / 1024 ** 3)).toFixed(2),
          },
        ]
      : []),
    {
      what: "GET /admin/exports/archive.zip to a file",
      "time ms": Math.round(a.ms),
      "MiB/s": Math.round(mbps(a.bytes, a.ms)),
      "speed vs cp": `${Math.round(speed * 100)}%`,
      ...(bare.length ? { "vs bare Node": `${Math.round((best(bare).ms / a.ms) * 100)}%` } : {}),
      "server CPU s/GiB": (Math.min(...archive.map((run) => run.cpuSeconds)) / (mediaBytes / 1024 ** 3)).toFixed(2),
      "server RSS growth MB": growth.toFixed(1),
    },
  ]);
  console.log(`load average during the run: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
  addToSummary([
    {
      measure: `archive.zip of ${(mediaBytes / 1024 ** 3).toFixed(2)} GiB of media`,
      result: `${Math.round(mbps(a.bytes, a.ms))} MiB/s`,
      reference: `cp -r ${Math.round(mbps(mediaBytes, c.ms))} MiB/s${bare.length ? `; bare Node server ${Math.round(mbps(best(bare).bytes, best(bare).ms))} MiB/s (${Math.round((best(bare).ms / a.ms) * 100)}%)` : ""}`,
      ratio: `${Math.round(speed * 100)}% of cp`,
      target: "≥ 80%",
      met: speed >= 0.8,
    },
    { measure: "archive: server RSS growth", result: `${growth.toFixed(1)} MB`, reference: "", target: "< 50 MB", met: growth < 50 },
  ]);
} finally {
  bareServer.close();
  await site.stop();
}
