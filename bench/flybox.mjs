// The Fly box imitated (`npm run bench -- flybox`, as root): the production
// server in a memory cgroup of 512 MB without swap (cgroup v1's
// memory.limit_in_bytes or v2's memory.max, whichever the machine has),
// pinned to one core with taskset, and for the throttled case a cpu cgroup
// at Fly's shared-cpu-1x baseline (5 ms of CPU every 80 ms: 6.25% of a core).
// On 2,000 memories and 200 photos it reports:
//   - cold start: exec → first 200 for / (5 runs, min/median/max, and the CPU
//     seconds used), beside ../shared/bench/remix-peer started the same way,
//     and one start at the 6.25% cap against the health check's grace period (fly.toml);
//   - node's RSS idle, under 32 connections, and after three 100 MP photos;
//   - time to ready (and CPU seconds, ffmpeg included) of a 60 s 1080p HEVC
//     clip's web copy on a full core, and of a 10 s clip at the cap;
//   - a 3 s 4K 10-bit HEVC clip after the photos, and an 8K clip (refused);
//   - GET / latency while media work runs, and OOM kills in the box (must be 0).
// Inputs are made with ffmpeg and sharp under the OS's temporary folder, once
// per run, and removed at the end (about 150 MB in all). FLYBOX_VIDEO_SECONDS shortens the long clip for a quick look; FLYBOX_START_ONLY=1 measures the cold starts alone.
// Without root or cgroups it says so and stops.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { CONTAINER_ALLOCATOR, seedCrowd } from "./lib.mjs";
import { preparePeer } from "./remix-peer.mjs";
import { addToSummary } from "./summary.mjs";

const MEMORY_BYTES = 512 * 1024 * 1024;
const CAP = { quotaUs: 5_000, periodUs: 80_000 };
const CORE = os.cpus().length > 1 ? 1 : 0;
const LONG_SECONDS = Number(process.env.FLYBOX_VIDEO_SECONDS ?? 60);
const PORT = 3397;
const ORIGIN = `http://127.0.0.1:${PORT}`;
/** fly.toml's health check grace period, in seconds: the start at the cap must fit in it. */
const GRACE_SECONDS = Number(/grace_period = "(\d+)s"/.exec(readFileSync("fly.toml", "utf8"))?.[1] ?? 15);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- the box

/** A memory + cpu cgroup (v1 or v2) the server and its tools run in. */
class Box {
  constructor(name) {
    this.name = name;
    this.version = existsSync("/sys/fs/cgroup/cgroup.controllers") ? 2 : existsSync("/sys/fs/cgroup/memory/memory.limit_in_bytes") ? 1 : 0;
    if (!this.version) throw new Error("no cgroup v1 memory controller or cgroup v2 found under /sys/fs/cgroup");
    if (this.version === 2) {
      this.dir = path.join("/sys/fs/cgroup", name);
      writeFileSync("/sys/fs/cgroup/cgroup.subtree_control", "+memory +cpu");
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(path.join(this.dir, "memory.max"), String(MEMORY_BYTES));
      if (existsSync(path.join(this.dir, "memory.swap.max"))) writeFileSync(path.join(this.dir, "memory.swap.max"), "0");
      this.dirs = [this.dir];
    } else {
      this.memory = path.join("/sys/fs/cgroup/memory", name);
      this.cpu = path.join("/sys/fs/cgroup/cpu", name);
      this.cpuacct = existsSync("/sys/fs/cgroup/cpuacct/cpuacct.usage") ? path.join("/sys/fs/cgroup/cpuacct", name) : this.cpu;
      this.dirs = [...new Set([this.memory, this.cpu, this.cpuacct])];
      for (const dir of this.dirs) mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(this.memory, "memory.limit_in_bytes"), String(MEMORY_BYTES));
      // No swap: the memory+swap limit equals the memory limit, where the kernel accounts swap.
      const memsw = path.join(this.memory, "memory.memsw.limit_in_bytes");
      if (existsSync(memsw)) writeFileSync(memsw, String(MEMORY_BYTES));
      writeFileSync(path.join(this.memory, "memory.swappiness"), "0");
    }
    this.throttle(false);
  }

  /** At Fly's baseline (true) or a full core (false). */
  throttle(capped) {
    if (this.version === 2) {
      writeFileSync(path.join(this.dir, "cpu.max"), capped ? `${CAP.quotaUs} ${CAP.periodUs}` : `max ${CAP.periodUs}`);
    } else {
      writeFileSync(path.join(this.cpu, "cpu.cfs_period_us"), String(CAP.periodUs));
      writeFileSync(path.join(this.cpu, "cpu.cfs_quota_us"), capped ? String(CAP.quotaUs) : "-1");
    }
  }

  /** The files a process writes its pid into to join the box. */
  get procs() {
    return this.dirs.map((dir) => path.join(dir, "cgroup.procs"));
  }

  /** CPU seconds used by everything in the box so far. */
  cpuSeconds() {
    if (this.version === 2) {
      const usec = /usage_usec (\d+)/.exec(readFileSync(path.join(this.dir, "cpu.stat"), "utf8"))?.[1];
      return Number(usec) / 1e6;
    }
    return Number(readFileSync(path.join(this.cpuacct, "cpuacct.usage"), "utf8")) / 1e9;
  }

  oomKills() {
    const file = this.version === 2 ? path.join(this.dir, "memory.events") : path.join(this.memory, "memory.oom_control");
    return Number(/oom_kill (\d+)/.exec(readFileSync(file, "utf8"))?.[1] ?? Number.NaN);
  }

  /** The box's peak memory (page cache included), where the kernel reports it. */
  peakBytes() {
    const file = this.version === 2 ? path.join(this.dir, "memory.peak") : path.join(this.memory, "memory.max_usage_in_bytes");
    return existsSync(file) ? Number(readFileSync(file, "utf8")) : Number.NaN;
  }

  /** Spawns `command` in the box, pinned to one core: the shell joins the box, then becomes the command. */
  spawn(command, args, options) {
    const join = `for f in $BOX_PROCS; do echo $$ > "$f"; done; exec taskset -c ${CORE} "$@"`;
    return spawn("sh", ["-c", join, "box", command, ...args], {
      ...options,
      env: { ...options.env, BOX_PROCS: this.procs.join(" ") },
    });
  }

  remove() {
    for (const dir of this.dirs) {
      try {
        rmdirSync(dir);
      } catch {
        // A process still inside; the kernel removes nothing while one is.
      }
    }
  }
}

// ---------------------------------------------------------------- the server

function siteEnv(dir) {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATABASE_PATH: path.join(dir, "memorial.db"),
    STORAGE_DIR: path.join(dir, "uploads"),
    SESSION_SECRET: "flybox-secret",
    SUBMISSIONS_PER_10_MINUTES: "100000",
    LITESTREAM_REPLICA_URL: "off",
    ...CONTAINER_ALLOCATOR,
  };
}

const rssMb = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
};
const processCpu = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
};

/** Starts `command` in the box and waits for the first 200 of `url`: the seconds it took and the CPU seconds it used. */
async function coldStart(box, command, args, { cwd, env, url, limitMs = 120_000 }) {
  const started = process.hrtime.bigint();
  const child = box.spawn(command, args, { cwd, env, stdio: ["ignore", "ignore", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  for (;;) {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (ms > limitMs) throw new Error(`${command} did not answer ${url} within ${limitMs / 1000} s`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await sleep(20);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    seconds,
    cpu: processCpu(child.pid),
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const startSite = (box, dir, limitMs) =>
  coldStart(box, process.execPath, ["server/index.mjs"], { cwd: process.cwd(), env: siteEnv(dir), url: `${ORIGIN}/`, limitMs });

// ---------------------------------------------------------------- uploads

/** Shares `file` as a visitor does (sign, PUT, complete); the upload's id. */
async function share(file, mime, type) {
  const signed = await fetch(`${ORIGIN}/api/uploads/sign`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
  const { uploadURL } = await signed.json();
  const put = await fetch(new URL(uploadURL, ORIGIN), { method: "PUT", headers: { "Content-Type": mime }, body: readFileSync(file) });
  if (!put.ok) throw new Error(`PUT answered ${put.status}`);
  const completed = await fetch(`${ORIGIN}/api/uploads/complete`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ uploadURL, submittedBy: "Bench (bench@example.com)", type, originalName: path.basename(file) }),
  });
  const body = await completed.json();
  if (!completed.ok) return { id: null, refused: JSON.stringify(body.errors ?? body) };
  return { id: body.id, refused: null };
}

/** Waits until the upload is ready or failed: its state, the seconds and the box's CPU seconds it took. */
async function untilDone(dir, box, id, since) {
  const db = new Database(path.join(dir, "memorial.db"), { readonly: true, fileMustExist: true });
  try {
    for (;;) {
      const row = db.prepare("select type, processedAt, processingError, webVideo from uploads where id = ?").get(id);
      const ready = row && !row.processingError && row.processedAt && (row.type !== "VIDEO" || row.webVideo);
      if (!row || row.processingError || ready) {
        return {
          state: !row ? "gone" : row.processingError ? `failed: ${row.processingError}` : "ready",
          seconds: Number(process.hrtime.bigint() - since.at) / 1e9,
          cpu: box.cpuSeconds() - since.cpu,
        };
      }
      await sleep(500);
    }
  } finally {
    db.close();
  }
}

/** GET / every half second until `until` settles: the latencies in ms. */
async function latencyDuring(until) {
  const times = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    await (await fetch(`${ORIGIN}/`)).arrayBuffer();
    times.push(performance.now() - started);
    await sleep(500);
  }
  return times;
}

// ---------------------------------------------------------------- inputs

const ffmpeg = (...args) => {
  const result = spawnSync("ffmpeg", ["-v", "error", "-y", ...args], { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error(`ffmpeg ${args.join(" ")} failed`);
};

async function makeInputs(scratch) {
  const inputs = {
    photos: [0, 1, 2].map((i) => path.join(scratch, `photo-${i}.jpg`)),
    long: path.join(scratch, "long-hevc.mov"),
    short: path.join(scratch, "short-hevc.mov"),
    uhd: path.join(scratch, "uhd-hevc10.mov"),
    eightK: path.join(scratch, "eight-k.mp4"),
  };
  console.log("making three 100 MP photos…");
  for (const [i, file] of inputs.photos.entries()) {
    // Noise: nothing for the encoder to save, as many bytes (about 28 MB) as a worst-case camera file.
    await sharp({ create: { width: 10_000, height: 10_000, channels: 3, noise: { type: "gaussian", mean: 100 + 20 * i, sigma: 30 } } })
      .jpeg({ quality: 70 })
      .toFile(file);
  }
  const hevc = ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1"];
  const pattern = (size, seconds) => ["-f", "lavfi", "-i", `testsrc2=size=${size}:rate=30:duration=${seconds},noise=alls=12:allf=t`];
  const sound = (seconds) => ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`, "-c:a", "aac", "-b:a", "160k"];
  console.log(`making a ${LONG_SECONDS} s 1080p HEVC clip…`);
  ffmpeg(...pattern("1920x1080", LONG_SECONDS), ...sound(LONG_SECONDS), ...hevc, "-pix_fmt", "yuv420p10le", "-b:v", "8M", inputs.long);
  ffmpeg("-i", inputs.long, "-t", "10", "-c", "copy", inputs.short);
  console.log("making a 3 s 4K 10-bit HEVC clip and a 1 s 8K clip…");
  ffmpeg(...pattern("3840x2160", 3), ...sound(3), ...hevc, "-pix_fmt", "yuv420p10le", "-b:v", "20M", inputs.uhd);
  ffmpeg(...pattern("7680x4320", 1), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", inputs.eightK);
  return inputs;
}

// ---------------------------------------------------------------- the run

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) };
};
const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

async function main() {
  if (process.getuid?.() !== 0) {
    console.error("flybox needs root (it makes cgroups under /sys/fs/cgroup).");
    process.exit(1);
  }
  const box = new Box(`memorial-flybox-${process.pid}`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "memorial-flybox-"));
  const dir = path.join(scratch, "site");
  mkdirSync(dir);
  const load = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ");
  const rows = [];
  const out = (line) => {
    console.log(line);
    rows.push(line);
  };
  let site = null;
  try {
    console.log(`cgroup v${box.version}, server pinned to core ${CORE}, load average ${load()}`);
    // The database made, migrated and filled: 2,000 memories and 200 photos.
    site = await startSite(box, dir);
    await site.stop();
    seedCrowd(dir, { memories: 2000, uploads: 200 });

    // Cold starts, ours and the bare Remix app's, the same way.
    const ours = [];
    for (let i = 0; i < 5; i++) {
      const start = await startSite(box, dir);
      ours.push(start);
      await start.stop();
    }
    const peerDir = preparePeer();
    const peer = [];
    for (let i = 0; i < 5; i++) {
      const start = await coldStart(box, process.execPath, [path.join(peerDir, "node_modules/.bin/remix-serve"), "./build/index.js"], {
        cwd: peerDir,
        env: { ...process.env, NODE_ENV: "production", PORT: String(PORT) },
        url: `${ORIGIN}/`,
      });
      peer.push(start);
      await start.stop();
    }
    box.throttle(true);
    const capped = await startSite(box, dir, 300_000);
    await capped.stop();
    box.throttle(false);
    const o = stats(ours.map((s) => s.seconds));
    const p = stats(peer.map((s) => s.seconds));
    const oc = stats(ours.map((s) => s.cpu));
    out(
      `| cold start, exec → first 200 for / (one core, 5 runs) | ${fmt(o.min)} / ${fmt(o.median)} / ${fmt(o.max)} s (${fmt(oc.median)} CPU-s) | remix-peer ${fmt(p.min)} / ${fmt(p.median)} / ${fmt(p.max)} s | < 1 s |`,
    );
    out(
      `| cold start at the 6.25% cap | ${fmt(capped.seconds, 1)} s (${fmt(capped.cpu)} CPU-s) | health check grace ${GRACE_SECONDS} s (fly.toml) | within the grace period |`,
    );

    // FLYBOX_START_ONLY=1: the cold starts alone (a minute, not fifteen).
    if (process.env.FLYBOX_START_ONLY) return;
    const inputs = await makeInputs(scratch);
    site = await startSite(box, dir);
    await sleep(3000);
    const idleRss = rssMb(site.pid);
    // 32 connections asking for / for 5 s.
    let peakRss = idleRss;
    let stop = false;
    const sampler = (async () => {
      while (!stop) {
        peakRss = Math.max(peakRss, rssMb(site.pid));
        await sleep(100);
      }
    })();
    const until = Date.now() + 5000;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (Date.now() < until) await (await fetch(`${ORIGIN}/`)).arrayBuffer();
      }),
    );
    stop = true;
    await sampler;
    out(`| node RSS idle / under 32 connections | ${fmt(idleRss, 0)} / ${fmt(peakRss, 0)} MB | 512 MB box | — |`);

    // Three 100 MP photos, with / asked meanwhile.
    const photoStart = { at: process.hrtime.bigint(), cpu: box.cpuSeconds() };
    const photoIds = [];
    for (const file of inputs.photos) photoIds.push((await share(file, "image/jpeg", "IMAGE")).id);
    const photosDone = Promise.all(photoIds.map((id) => untilDone(dir, box, id, photoStart)));
    const photoLatency = await latencyDuring(photosDone);
    const photos = await photosDone;
    await sleep(5000);
    const afterPhotos = rssMb(site.pid);
    out(
      `| three 100 MP photos | ${photos.map((r) => r.state).join(", ")}; ${fmt(photos.at(-1).seconds, 1)} s, ${fmt(photos.at(-1).cpu, 1)} CPU-s | — | — |`,
    );
    out(`| node RSS after three 100 MP photos | ${fmt(afterPhotos, 0)} MB | — | < 160 MB |`);

    // 4K 10-bit HEVC after the photos, then 8K.
    const uhdStart = { at: process.hrtime.bigint(), cpu: box.cpuSeconds() };
    const uhd = await untilDone(dir, box, (await share(inputs.uhd, "video/quicktime", "VIDEO")).id, uhdStart);
    out(`| 3 s 4K 10-bit HEVC after the photos | ${uhd.state}, ${fmt(uhd.seconds, 1)} s, ${fmt(uhd.cpu, 1)} CPU-s | — | ready |`);
    const eightK = await share(inputs.eightK, "video/mp4", "VIDEO");
    const eightKState =
      eightK.id === null ? `refused at sharing: ${eightK.refused}` : (await untilDone(dir, box, eightK.id, uhdStart)).state;
    out(`| 1 s 8K H.264 | ${eightKState} | — | refused with a reason, no OOM kill |`);

    // The long clip on a full core, / asked meanwhile.
    const longStart = { at: process.hrtime.bigint(), cpu: box.cpuSeconds() };
    const longDone = share(inputs.long, "video/quicktime", "VIDEO").then(({ id }) => untilDone(dir, box, id, longStart));
    const longLatency = await latencyDuring(longDone);
    const long = await longDone;
    out(
      `| ${LONG_SECONDS} s 1080p HEVC, full core: time to ready | ${long.state}, ${fmt(long.seconds, 1)} s, ${fmt(long.cpu, 1)} CPU-s | — | ready |`,
    );

    // The 10 s clip at the cap.
    box.throttle(true);
    const shortStart = { at: process.hrtime.bigint(), cpu: box.cpuSeconds() };
    const shortDone = share(inputs.short, "video/quicktime", "VIDEO").then(({ id }) => untilDone(dir, box, id, shortStart));
    const shortLatency = await latencyDuring(shortDone);
    const short = await shortDone;
    box.throttle(false);
    out(
      `| 10 s 1080p HEVC at the 6.25% cap: time to ready | ${short.state}, ${fmt(short.seconds, 0)} s, ${fmt(short.cpu, 1)} CPU-s | — | ready, not failed |`,
    );
    const full = stats([...photoLatency, ...longLatency]);
    const slow = stats(shortLatency);
    out(`| GET / during processing, full core (median / max) | ${fmt(full.median, 0)} / ${fmt(full.max, 0)} ms | — | < 1 s |`);
    out(`| GET / during processing at the cap (median / max) | ${fmt(slow.median, 0)} / ${fmt(slow.max, 0)} ms | — | — |`);
    out(`| OOM kills in the box | ${box.oomKills()} (box peak ${fmt(box.peakBytes() / 2 ** 20, 0)} MB, page cache included) | — | 0 |`);
    await site.stop();
    site = null;

    console.log(
      `\nFly box — Node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, ${new Date().toISOString()}, load average at the end ${load()}`,
    );
    console.log("| measure | result | reference | goal |\n|---|---|---|---|");
    for (const line of rows) console.log(line);
    addToSummary([
      {
        measure: "flybox cold start (1 core, median)",
        result: `${fmt(o.median)} s`,
        reference: `remix-peer ${fmt(p.median)} s`,
        target: "< 1 s",
        met: o.median < 1,
      },
      {
        measure: "flybox cold start at 6.25%",
        result: `${fmt(capped.seconds, 1)} s`,
        reference: `grace ${GRACE_SECONDS} s`,
        met: capped.seconds < GRACE_SECONDS,
      },
      {
        measure: "flybox RSS after 3 × 100 MP",
        result: `${fmt(afterPhotos, 0)} MB`,
        reference: "512 MB box",
        target: "< 160 MB",
        met: afterPhotos < 160,
      },
      { measure: "flybox 10 s clip at 6.25%", result: short.state, reference: `${fmt(short.seconds, 0)} s`, met: short.state === "ready" },
      { measure: "flybox OOM kills", result: String(box.oomKills()), reference: "—", target: "0", met: box.oomKills() === 0 },
    ]);
  } finally {
    await site?.stop();
    box.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
