// Replication with Litestream (docs/backups.md): what it costs a visitor's
// write, and how long a new machine takes to bring 10,000 memories back.
//   latency  POST /api/guestbook at 8 connections (wrk with a Lua script: every
//            message new, so every request writes), replication off and on (a
//            file replica), each on a fresh database, four rounds in turn
//   restore  10,000 memories (seedCrowd) replicated, then the volume lost:
//            `npm run restore` alone, and a start on the empty volume until
//            /healthz answers
// Usage: npm run build && node bench/replication.mjs   (wrk must be installed)
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { seedCrowd, startSite } from "./lib.mjs";
import { addToSummary } from "./summary.mjs";

const CONNECTIONS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Off and on in turn, so a neighbour's burst on a shared machine falls on both. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const MEMORIES = 10_000;

if (spawnSync("wrk", ["--version"]).error) {
  console.error("wrk is not installed (apt-get install wrk)");
  process.exit(1);
}

const scratch = mkdtempSync(path.join(tmpdir(), "memorial-bench-replication-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;
const folder = () => mkdtempSync(path.join(scratch, `${folders++}-`));

const script = path.join(scratch, "sign.lua");
writeFileSync(
  script,
  `-- Every request signs the guest book with a message of its own (the same one sent twice is kept once).
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end
local counter = 0
function request()
  counter = counter + 1
  local body = '{"name":"Bench Guest","email":"bench@example.com","canDisplay":true,"message":"A bench memory ' .. tid .. '-' .. counter .. ', with love."}'
  return wrk.format("POST", "/api/guestbook", { ["Content-Type"] = "application/json" }, body)
end
`,
);

/** wrk's latency figure ("812.00us", "3.21ms", "1.02s") in ms. @param {string} text */
function ms(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) return NaN;
  return Number(match[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[/** @type {"us" | "ms" | "s" | "m"} */ (match[2])];
}

/** @param {string} origin @param {number} seconds */
function wrk(origin, seconds) {
  const run = spawnSync("wrk", ["-t2", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-s", script, `${origin}/api/guestbook`], {
    encoding: "utf8",
  });
  const out = run.stdout;
  const percentile = (/** @type {string} */ p) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m").exec(out)?.[1] ?? "");
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const refused = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  if (run.status !== 0 || requests === 0) throw new Error(`wrk failed:\n${out}\n${run.stderr}`);
  return { p50: percentile("50"), p99: percentile("99"), perSecond: requests / seconds, refused };
}

const ENV = { SUBMISSIONS_PER_10_MINUTES: "100000000", LITESTREAM_REPLICA_URL: "off" };

/** @param {boolean} replicated */
async function measureWrites(replicated) {
  const dir = folder();
  const env = replicated ? { ...ENV, LITESTREAM_REPLICA_URL: `file://${path.join(folder(), "memorial")}` } : ENV;
  const site = await startSite({ port: 3391, dir, env, startScript: replicated });
  try {
    wrk(site.origin, 3);
    return wrk(site.origin, SECONDS);
  } finally {
    await site.stop();
  }
}

console.log(`POST /api/guestbook at ${CONNECTIONS} connections, ${SECONDS} s each, replication off and on in turn:`);
/** @type {Record<"off" | "on", ReturnType<typeof wrk>[]>} */
const results = { off: [], on: [] };
for (let round = 1; round <= ROUNDS; round++) {
  for (const mode of /** @type {const} */ (["off", "on"])) {
    const result = await measureWrites(mode === "on");
    results[mode].push(result);
    console.log(
      `  round ${round}, replication ${mode.padEnd(3)}  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms  ${Math.round(result.perSecond)} writes/s` +
        (result.refused ? `  (${result.refused} not 2xx)` : ""),
    );
  }
}
/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? (sorted[Math.floor(middle)] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};
const summary = (/** @type {"off" | "on"} */ mode) => ({
  p50: median(results[mode].map((r) => r.p50)),
  p99: median(results[mode].map((r) => r.p99)),
  perSecond: median(results[mode].map((r) => r.perSecond)),
});
const off = summary("off");
const on = summary("on");

// 10,000 memories, replicated, then the volume is lost.
const dir = folder();
const replicaUrl = `file://${path.join(folder(), "memorial")}`;
const replicatedEnv = { ...ENV, LITESTREAM_REPLICA_URL: replicaUrl };
const seeded = await startSite({ port: 3392, dir, env: replicatedEnv, startScript: true });
seedCrowd(dir, { memories: MEMORIES, uploads: 0 });
// SIGTERM: Litestream ships the last of it before the server exits.
await seeded.stop();
const database = path.join(dir, "memorial.db");
const megabytes = statSync(database).size / 1024 / 1024;
for (const file of [database, `${database}-wal`, `${database}-shm`]) rmSync(file, { force: true });

const restoreStarted = Date.now();
const restore = await new Promise((resolve) => {
  const child = spawn(process.execPath, ["scripts/restore.mjs", "--output", path.join(folder(), "restored.db")], {
    env: { ...process.env, ...replicatedEnv },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.once("exit", (code) => resolve({ code, out }));
});
const restoreSeconds = (Date.now() - restoreStarted) / 1000;
if (/** @type {{ code: number }} */ (restore).code !== 0) throw new Error("npm run restore failed");
console.log(`\n${/** @type {{ out: string }} */ (restore).out.trim()}`);

const startStarted = Date.now();
const restarted = await startSite({ port: 3393, dir, env: replicatedEnv, startScript: true });
const startSeconds = (Date.now() - startStarted) / 1000;
const check = await fetch(`${restarted.origin}/api/guestbook?limit=1`).then((res) => res.status);
await restarted.stop();

console.log(`\n${MEMORIES.toLocaleString("en-US")} memories (${megabytes.toFixed(1)} MB database):`);
console.log(`  npm run restore (node, litestream restore, integrity check): ${restoreSeconds.toFixed(2)} s`);
console.log(
  `  start on an empty volume until /healthz answers (restore, migrations, listen): ${startSeconds.toFixed(2)} s (guest book then answered ${check})`,
);
console.log(
  `\nPOST /api/guestbook, median of the rounds: off p50 ${off.p50.toFixed(2)} ms p99 ${off.p99.toFixed(2)} ms; on p50 ${on.p50.toFixed(2)} ms p99 ${on.p99.toFixed(2)} ms`,
);

addToSummary([
  {
    measure: `POST /api/guestbook p50 / p99 at ${CONNECTIONS} connections, replication on`,
    result: `${on.p50.toFixed(2)} / ${on.p99.toFixed(2)} ms (${Math.round(on.perSecond)}/s)`,
    reference: `off: ${off.p50.toFixed(2)} / ${off.p99.toFixed(2)} ms (${Math.round(off.perSecond)}/s)`,
    ratio: `${(on.p50 / off.p50).toFixed(2)}× / ${(on.p99 / off.p99).toFixed(2)}×`,
  },
  {
    measure: `restore of ${MEMORIES.toLocaleString("en-US")} memories (${megabytes.toFixed(1)} MB)`,
    result: `${restoreSeconds.toFixed(2)} s (npm run restore)`,
    reference: `${startSeconds.toFixed(2)} s to /healthz on an empty volume`,
  },
]);
process.exit(0);
