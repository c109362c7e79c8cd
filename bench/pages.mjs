// Page and API throughput with wrk (bench/wrk.mjs), with 10,000 approved
// memories and 1,000 approved uploads, all in the same run:
// - from the render cache, at 32 connections: /, /guestbook, /gallery,
//   /poems, GET /api/guestbook and GET /api/gallery, each next to a bare Node
//   server sending the same bytes and to the bare Remix app of
//   ../shared/bench/remix-peer;
// - rendered every time, at 8 connections (who gets these: admins, a visitor
//   with a flash message, the first visitor after a write): /guestbook on a
//   second server with RENDER_CACHE=off, and the admin panel's pages;
// - a mixed run of 10,000 requests (reads of the guest book, page and API,
//   and the family approving memories one after another) counting stale
//   reads: a read that started after an approval was acknowledged and does
//   not show it.
// Targets (decision 019): cached ≥ 10× the Remix app, p99 < 30 ms; uncached
// p99 < 100 ms (its ratio to the Remix app is information); 0 stale reads.
// Usage: npm run build && node bench/pages.mjs   (BENCH_SECONDS=10 by default;
// BENCH_ONLY=uncached measures only the pages rendered every time)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { adminCookie, seedCrowd, startSite } from "./lib.mjs";
import { startRemixPeer } from "./remix-peer.mjs";
import { addToSummary } from "./summary.mjs";
import { requireWrk, wrk } from "./wrk.mjs";

requireWrk();
const CONNECTIONS = 32;
const UNCACHED_CONNECTIONS = 8;
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
const onlyUncached = process.env.BENCH_ONLY === "uncached";

const site = await startSite({
  port: PORT,
  env: { SUBMISSIONS_PER_10_MINUTES: "1000000", ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
});
/** The memories the mixed run approves, oldest first: the newest approved one is always the last approval. */
const waiting = seedCrowd(site.dir, { memories: MEMORIES, uploads: UPLOADS, pending: MIXED_WRITES });

// The same site rendering every request, on the same database.
const uncached = await startSite({ port: PORT + 3, dir: site.dir, env: { RENDER_CACHE: "off" } });
const peer = await startRemixPeer({ port: PORT + 4 });
const cookie = await adminCookie(site.origin, ADMIN);

const CACHED = [
  ["/", "/"],
  ["/guestbook", "/guestbook"],
  ["/gallery", "/gallery"],
  ["/poems", "/poems"],
  ["GET /api/guestbook", "/api/guestbook?limit=10&offset=0"],
  ["GET /api/gallery", "/api/gallery?limit=20&offset=0"],
];
/** Pages rendered for every request: [label, origin, address, headers]. */
const UNCACHED = [
  ["/guestbook, RENDER_CACHE=off", uncached.origin, "/guestbook", {}],
  ["/admin (pending memories)", site.origin, "/admin", { Cookie: cookie }],
  ["/admin/uploads", site.origin, "/admin/uploads", { Cookie: cookie }],
  ["/admin/site", site.origin, "/admin/site", { Cookie: cookie }],
];

// The bare reference: a Node HTTP server answering each address with the bytes the site sends for
// it, in a process of its own like the site.
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

const measure = async (url, connections = CONNECTIONS, headers = {}) => wrk(url, { connections, seconds: DURATION, headers });

/** The mixed run: approvals and reads from 32 connections at once, counting reads that miss an acknowledged approval. */
async function mixedRun() {
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
const uncachedRows = [];
let peerCached;
let peerUncached;
let mixed;
try {
  // Warm every server (JIT, the caches, SQLite's pages) before measuring.
  const warm = (url, connections, headers) => wrk(url, { connections, seconds: 2, headers });
  await warm(`${peer.origin}/`, CONNECTIONS);
  for (const [, origin, address, headers] of UNCACHED) await warm(`${origin}${address}`, UNCACHED_CONNECTIONS, headers);
  peerUncached = await measure(`${peer.origin}/`, UNCACHED_CONNECTIONS);
  for (const [label, origin, address, headers] of UNCACHED) {
    uncachedRows.push({ label, result: await measure(`${origin}${address}`, UNCACHED_CONNECTIONS, headers) });
  }
  if (!onlyUncached) {
    for (const [, address] of CACHED) {
      await warm(`${site.origin}${address}`, CONNECTIONS);
      await warm(`http://localhost:${BARE_PORT}${address}`, CONNECTIONS);
    }
    peerCached = await measure(`${peer.origin}/`);
    for (const [label, address] of CACHED) {
      rows.push({
        label,
        cached: await measure(`${site.origin}${address}`),
        reference: await measure(`http://localhost:${BARE_PORT}${address}`),
      });
    }
    mixed = await mixedRun();
  }
} finally {
  bare.kill();
  rmSync(bytesDir, { recursive: true, force: true });
  await Promise.all([site.stop(), uncached.stop(), peer.stop()]);
}

console.log(
  `${MEMORIES.toLocaleString("en")} approved memories, ${UPLOADS.toLocaleString("en")} approved uploads, wrk, ${DURATION}s each, no Accept-Encoding (the same uncompressed bytes from every server)`,
);
console.log(`\nrendered every time, ${UNCACHED_CONNECTIONS} connections`);
console.table([
  {
    measure: "remix-peer (bare Remix app, 10 cards)",
    "req/s": peerUncached.rate,
    "p50 ms": peerUncached.p50,
    "p99 ms": peerUncached.p99,
    failed: peerUncached.failed,
  },
  ...uncachedRows.map(({ label, result }) => ({
    measure: label,
    "req/s": result.rate,
    "p50 ms": result.p50,
    "p99 ms": result.p99,
    "× remix-peer": (result.rate / peerUncached.rate).toFixed(2),
    failed: result.failed,
  })),
]);
addToSummary(
  uncachedRows.map(({ label, result }) => ({
    measure: `${label}, rendered every time, ${UNCACHED_CONNECTIONS} connections`,
    result: `${result.rate} req/s, p99 ${result.p99} ms`,
    reference: `remix-peer ${peerUncached.rate} req/s`,
    ratio: `${(result.rate / peerUncached.rate).toFixed(2)}× remix-peer`,
    target: "p99 < 100 ms",
    met: result.p99 < 100 && result.failed === 0,
  })),
);
if (onlyUncached) process.exit(0);

console.log(`\nfrom the render cache, ${CONNECTIONS} connections`);
console.table([
  { measure: "remix-peer (bare Remix app, 10 cards)", "req/s": peerCached.rate, "p99 ms": peerCached.p99, failed: peerCached.failed },
  ...rows.map(({ label, cached, reference }) => ({
    measure: label,
    "req/s": cached.rate,
    "p99 ms": cached.p99,
    "× remix-peer": (cached.rate / peerCached.rate).toFixed(1),
    "bare Node, same bytes": reference.rate,
    "% of bare Node": `${Math.round((cached.rate / reference.rate) * 100)}%`,
    failed: cached.failed,
  })),
]);
console.log(
  `mixed run: ${mixed.reads} reads (${mixed.fromCache} from the cache) and ${mixed.writes} approvals from ${CONNECTIONS} connections in ${mixed.seconds.toFixed(1)} s; stale reads: ${mixed.stale}; failed requests: ${mixed.failed}`,
);

addToSummary([
  ...rows.map(({ label, cached, reference }) => {
    const vsPeer = cached.rate / peerCached.rate;
    return {
      measure: `${label} from the cache, ${CONNECTIONS} connections`,
      result: `${cached.rate} req/s, p99 ${cached.p99} ms`,
      reference: `remix-peer ${peerCached.rate} req/s; bare Node ${reference.rate} req/s`,
      ratio: `${vsPeer.toFixed(1)}× remix-peer, ${Math.round((cached.rate / reference.rate) * 100)}% of bare Node`,
      target: "≥ 10×, p99 < 30 ms",
      met: vsPeer >= 10 && cached.p99 < 30 && cached.failed === 0,
    };
  }),
  {
    measure: `mixed run, ${MIXED_REQUESTS.toLocaleString("en")} requests (1 in 10 an approval)`,
    result: `${mixed.stale} stale reads of ${mixed.reads}`,
    reference: `${mixed.fromCache} reads from the cache`,
    target: "0 stale",
    met: mixed.stale === 0 && mixed.failed === 0,
  },
]);
