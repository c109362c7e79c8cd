// Page and API throughput at 32 connections (autocannon), with 10,000 approved
// memories and 1,000 approved uploads, all in the same run:
// - from the render cache: /, /guestbook, /gallery, /poems, GET /api/guestbook
//   and GET /api/gallery, each next to a bare Node server sending the same
//   bytes, and next to the bare Remix app of ../shared/bench/remix-peer;
// - rendered every time: /guestbook on a second server with RENDER_CACHE=off;
// - a mixed run of 10,000 requests (reads of the guest book, page and API,
//   and the family approving memories one after another) counting stale
//   reads: a read that started after an approval was acknowledged and does
//   not show it.
// Targets (issue 18): cached ≥ 10× the Remix app and ≥ 30% of bare Node, p99
// < 30 ms; uncached /guestbook ≥ 80% of the Remix app; 0 stale reads.
// Usage: npm run build && node bench/pages.mjs   (BENCH_SECONDS=10 by default)
// BENCH_ONLY=uncached measures only remix-peer and the uncached /guestbook,
// alternately, BENCH_ROUNDS times (3 by default), with each server's CPU time
// per request: a quicker loop while working on the render itself.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { adminCookie, seedCrowd, startSite } from "./lib.mjs";
import { startRemixPeer } from "./remix-peer.mjs";
import { addToSummary } from "./summary.mjs";

const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const MEMORIES = 10_000;
const UPLOADS = 1_000;
const MIXED_REQUESTS = 10_000;
/** One request in ten of the mixed run is an approval. */
const MIXED_WRITES = MIXED_REQUESTS / 10;
const ADMIN = { username: "bench", password: "bench-admin-password" };
/** The site, the bare server, the uncached site and remix-peer listen here and on the next ports (BENCH_PORT moves them all). */
const PORT = Number(process.env.BENCH_PORT ?? 3390);
const BARE_PORT = PORT + 1;

const site = await startSite({
  port: PORT,
  env: { SUBMISSIONS_PER_10_MINUTES: "1000000", ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
});
/** The memories the mixed run approves, oldest first: the newest approved one is always the last approval. */
const waiting = seedCrowd(site.dir, { memories: MEMORIES, uploads: UPLOADS, pending: MIXED_WRITES });

// The same site rendering every request, on the same database.
const uncached = await startSite({ port: PORT + 3, dir: site.dir, env: { RENDER_CACHE: "off" } });
const peer = await startRemixPeer({ port: PORT + 4 });

if (process.env.BENCH_ONLY === "uncached") {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  /** CPU seconds a process has used (Linux), to divide by the requests it answered. */
  const cpuSeconds = (/** @type {number | undefined} */ pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return NaN;
    }
  };
  /** @param {string} url @param {number | undefined} pid */
  const measureWithCpu = async (url, pid) => {
    const before = cpuSeconds(pid);
    const result = await measure(url);
    return { result, cpuMs: ((cpuSeconds(pid) - before) * 1000) / result.requests.total };
  };
  const results = [];
  try {
    for (const url of [`${peer.origin}/`, `${uncached.origin}/guestbook`]) {
      await new Promise((resolve) => autocannon({ url, connections: CONNECTIONS, amount: 500 }, resolve));
    }
    for (let round = 1; round <= rounds; round++) {
      const peerRun = await measureWithCpu(`${peer.origin}/`, peer.pid);
      const uncachedRun = await measureWithCpu(`${uncached.origin}/guestbook`, uncached.pid);
      const peerReqs = Math.round(peerRun.result.requests.average);
      const uncachedReqs = Math.round(uncachedRun.result.requests.average);
      results.push({
        round,
        "remix-peer req/s": peerReqs,
        "/guestbook uncached req/s": uncachedReqs,
        "p99 ms": uncachedRun.result.latency.p99,
        "× remix-peer": (uncachedReqs / peerReqs).toFixed(2),
        "server CPU ms/request: peer": peerRun.cpuMs.toFixed(2),
        "/guestbook": uncachedRun.cpuMs.toFixed(2),
        "peer ÷ /guestbook": (peerRun.cpuMs / uncachedRun.cpuMs).toFixed(2),
        failed: uncachedRun.result.non2xx + uncachedRun.result.errors + peerRun.result.non2xx + peerRun.result.errors,
      });
    }
  } finally {
    await Promise.all([site.stop(), uncached.stop(), peer.stop()]);
  }
  console.log(`${MEMORIES.toLocaleString("en")} approved memories, ${CONNECTIONS} connections, ${DURATION}s each, alternately`);
  console.log(
    "server CPU per request: the server process's CPU time (/proc) over the requests it answered; less moved by other work on the machine than req/s",
  );
  console.table(results);
  process.exit(0);
}

const CACHED = [
  ["/", "/"],
  ["/guestbook", "/guestbook"],
  ["/gallery", "/gallery"],
  ["/poems", "/poems"],
  ["GET /api/guestbook", "/api/guestbook?limit=10&offset=0"],
  ["GET /api/gallery", "/api/gallery?limit=20&offset=0"],
];

// The bare reference: a Node HTTP server answering each address with the bytes the site sends for
// it, in a process of its own like the site (not sharing this one's event loop with autocannon).
const bytesDir = mkdtempSync(path.join(tmpdir(), "memorial-bench-bytes-"));
const sameBytes = [];
for (const [i, [, address]] of CACHED.entries()) {
  const response = await fetch(`${site.origin}${address}`, { headers: { "Accept-Encoding": "identity" } });
  writeFileSync(path.join(bytesDir, String(i)), Buffer.from(await response.arrayBuffer()));
  sameBytes.push({ address, type: response.headers.get("content-type"), file: path.join(bytesDir, String(i)) });
}
const BARE_SERVER = `
  import http from "node:http";
  import { readFileSync } from "node:fs";
  const answers = new Map(JSON.parse(process.argv[1]).map(({ address, type, file }) => [address, { type, body: readFileSync(file) }]));
  http.createServer((req, res) => {
    const answer = answers.get(req.url);
    res.writeHead(200, { "Content-Type": answer.type, "Content-Length": answer.body.length });
    res.end(answer.body);
  }).listen(Number(process.argv[2]), () => console.log("ready"));
`;
const bare = spawn(process.execPath, ["--input-type=module", "-e", BARE_SERVER, JSON.stringify(sameBytes), String(BARE_PORT)], {
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise((resolve) => bare.stdout.once("data", resolve));

/** autocannon as the issue measured with wrk: no Accept-Encoding, so every server sends the same uncompressed bytes. */
function measure(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** The mixed run: approvals and reads from 32 connections at once, counting reads that miss an acknowledged approval. */
async function mixedRun() {
  const cookie = await adminCookie(site.origin, ADMIN);
  let sent = 0;
  let nextWrite = 0;
  /** The newest approval acknowledged so far (its number in "Bench write #n"). */
  let acknowledged = 0;
  const tally = { reads: 0, writes: 0, stale: 0, fromCache: 0, failed: 0 };
  const newestShown = (text) => Number(/Bench write #(\d+)/.exec(text)?.[1] ?? 0);
  async function worker() {
    while (sent < MIXED_REQUESTS) {
      const n = sent++;
      if (n % 10 === 5 && nextWrite < waiting.length) {
        const number = ++nextWrite;
        const answer = await fetch(`${site.origin}/api/admin/memories/${waiting[number - 1]}`, {
          method: "PATCH",
          headers: { "Content-Type": "application/json", Cookie: cookie },
          body: JSON.stringify({ status: "APPROVED" }),
        });
        await answer.arrayBuffer();
        if (!answer.ok) tally.failed++;
        tally.writes++;
        acknowledged = Math.max(acknowledged, number);
      } else {
        const mustShow = acknowledged;
        const answer = await fetch(`${site.origin}${n % 2 ? "/guestbook" : "/api/guestbook?limit=10&offset=0"}`);
        const text = await answer.text();
        if (!answer.ok) tally.failed++;
        if (answer.headers.get("x-render-cache") === "hit") tally.fromCache++;
        if (newestShown(text) < mustShow) tally.stale++;
        tally.reads++;
      }
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return { ...tally, seconds: (performance.now() - started) / 1000 };
}

const rows = [];
let peerResult;
let uncachedResult;
let mixed;
try {
  const warm = [
    `${peer.origin}/`,
    `${uncached.origin}/guestbook`,
    ...CACHED.flatMap(([, a]) => [`${site.origin}${a}`, `http://localhost:${BARE_PORT}${a}`]),
  ];
  for (const url of warm) await new Promise((resolve) => autocannon({ url, connections: CONNECTIONS, amount: 200 }, resolve));
  peerResult = await measure(`${peer.origin}/`);
  uncachedResult = await measure(`${uncached.origin}/guestbook`);
  for (const [label, address] of CACHED) {
    const cached = await measure(`${site.origin}${address}`);
    const reference = await measure(`http://localhost:${BARE_PORT}${address}`);
    rows.push({ label, address, cached, reference });
  }
  mixed = await mixedRun();
} finally {
  bare.kill();
  rmSync(bytesDir, { recursive: true, force: true });
  await Promise.all([site.stop(), uncached.stop(), peer.stop()]);
}

const rate = (result) => Math.round(result.requests.average);
const peerRate = rate(peerResult);
const failures = (result) => result.non2xx + result.errors;
const table = [
  { measure: "remix-peer (bare Remix app, 10 cards)", "req/s": peerRate, "p99 ms": peerResult.latency.p99, failed: failures(peerResult) },
  {
    measure: "/guestbook rendered every time (RENDER_CACHE=off)",
    "req/s": rate(uncachedResult),
    "p99 ms": uncachedResult.latency.p99,
    "× remix-peer": (rate(uncachedResult) / peerRate).toFixed(2),
    failed: failures(uncachedResult),
  },
  ...rows.map(({ label, cached, reference }) => ({
    measure: `${label} from the cache`,
    "req/s": rate(cached),
    "p99 ms": cached.latency.p99,
    "× remix-peer": (rate(cached) / peerRate).toFixed(1),
    "bare Node, same bytes": rate(reference),
    "% of bare Node": `${Math.round((rate(cached) / rate(reference)) * 100)}%`,
    failed: failures(cached),
  })),
];
console.log(
  `${MEMORIES.toLocaleString("en")} approved memories, ${UPLOADS.toLocaleString("en")} approved uploads, ${CONNECTIONS} connections, ${DURATION}s each, no Accept-Encoding (the same uncompressed bytes from every server)`,
);
console.table(table);
console.log(
  `mixed run: ${mixed.reads} reads (${mixed.fromCache} from the cache) and ${mixed.writes} approvals from ${CONNECTIONS} connections in ${mixed.seconds.toFixed(1)} s; stale reads: ${mixed.stale}; failed requests: ${mixed.failed}`,
);

addToSummary([
  ...rows.map(({ label, cached, reference }) => {
    const vsPeer = rate(cached) / peerRate;
    const vsBare = rate(cached) / rate(reference);
    return {
      measure: `${label} from the cache, ${CONNECTIONS} connections`,
      result: `${rate(cached)} req/s, p99 ${cached.latency.p99} ms`,
      reference: `remix-peer ${peerRate} req/s; bare Node ${rate(reference)} req/s`,
      ratio: `${vsPeer.toFixed(1)}× remix-peer, ${Math.round(vsBare * 100)}% of bare Node`,
      target: "≥ 10×, ≥ 30%, p99 < 30 ms",
      met: vsPeer >= 10 && vsBare >= 0.3 && cached.latency.p99 < 30 && failures(cached) === 0,
    };
  }),
  {
    measure: `/guestbook rendered every time (RENDER_CACHE=off), ${CONNECTIONS} connections`,
    result: `${rate(uncachedResult)} req/s, p99 ${uncachedResult.latency.p99} ms`,
    reference: `remix-peer ${peerRate} req/s`,
    ratio: `${Math.round((rate(uncachedResult) / peerRate) * 100)}% of remix-peer`,
    target: "≥ 80%",
    met: rate(uncachedResult) / peerRate >= 0.8,
  },
  {
    measure: `mixed run, ${MIXED_REQUESTS.toLocaleString("en")} requests (1 in 10 an approval)`,
    result: `${mixed.stale} stale reads of ${mixed.reads}`,
    reference: `${mixed.fromCache} reads from the cache`,
    target: "0 stale",
    met: mixed.stale === 0 && mixed.failed === 0,
  },
]);
