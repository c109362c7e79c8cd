// CSV export of 100,000 approved memories: time and the server's peak RSS
// growth for GET /api/admin/export/memories.csv, next to csv-stringify alone
// over the same rows in this process, in the same run.
// Targets: the export within 1.5× of csv-stringify alone, under 50 MB growth.
// Usage: npm run build && node bench/export.mjs
import { readFileSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import Database from "better-sqlite3";
import { stringify } from "csv-stringify";
import { adminCookie, startSite } from "./lib.mjs";
import { addToSummary } from "./summary.mjs";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = 3;
const ADMIN = { username: "bench", password: "bench-password" };

const site = await startSite({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
const file = path.join(site.dir, "memorial.db");
const sqlite = new Database(file);
sqlite.pragma("busy_timeout = 5000");
const insert = sqlite.prepare("insert into memories (name, email, phone, message, status, createdAt) values (?, ?, ?, ?, 'APPROVED', ?)");
const start = Date.now() - ROWS * 1000;
sqlite.transaction(() => {
  for (let i = 0; i < ROWS; i++) {
    insert.run(
      `Guest ${i}`,
      `guest${i}@example.com`,
      i % 3 ? null : `+1 555 01${i % 100}`,
      `A memory number ${i}, with "a few" words of love.\nAnd a second line.`,
      start + i * 1000,
    );
  }
})();

/** csv-stringify alone: the same rows and columns, read in one go here, written to nowhere. */
async function stringifyAlone() {
  const began = performance.now();
  let bytes = 0;
  const rows = sqlite
    .prepare("select name, email, phone, message, createdAt from memories where status = 'APPROVED' order by id")
    .iterate();
  async function* cells() {
    for (const row of rows) yield [row.name, row.email, row.phone ?? "", row.message, new Date(row.createdAt).toISOString()];
  }
  await pipeline(
    cells(),
    stringify({ bom: true, header: true, columns: ["Name", "Email", "Phone", "Message", "Submitted"] }),
    new Writable({
      write(chunk, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    }),
  );
  return { ms: performance.now() - began, bytes };
}

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function exportThroughSite(cookie) {
  const baseline = rssKb(site.pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(site.pid))), 20);
  const began = performance.now();
  const response = await fetch(`${site.origin}/api/admin/export/memories.csv`, {
    headers: { Cookie: cookie, "Accept-Encoding": process.env.BENCH_ENCODING ?? "gzip, deflate, br" },
  });
  if (!response.ok) throw new Error(`export answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  const ms = performance.now() - began;
  clearInterval(sampler);
  peak = Math.max(peak, rssKb(site.pid));
  return { ms, bytes, growthMb: (peak - baseline) / 1024 };
}

try {
  const cookie = await adminCookie(site.origin, ADMIN);
  await exportThroughSite(cookie); // warm-up
  const site_ = [];
  const alone = [];
  for (let i = 0; i < RUNS; i++) {
    alone.push(await stringifyAlone());
    site_.push(await exportThroughSite(cookie));
  }
  const best = (list) => list.reduce((a, b) => (a.ms <= b.ms ? a : b));
  const s = best(site_);
  const a = best(alone);
  console.log(`${ROWS.toLocaleString("en")} approved memories, best of ${RUNS}`);
  console.table([
    { what: "csv-stringify alone (this process)", "time ms": Math.round(a.ms), MB: (a.bytes / 1e6).toFixed(1) },
    {
      what: "GET /api/admin/export/memories.csv",
      "time ms": Math.round(s.ms),
      MB: (s.bytes / 1e6).toFixed(1),
      "× alone": (s.ms / a.ms).toFixed(2),
      "server RSS growth MB": Math.max(...site_.map((r) => r.growthMb)).toFixed(1),
    },
  ]);
  const growth = Math.max(...site_.map((r) => r.growthMb));
  addToSummary([
    {
      measure: `${ROWS.toLocaleString("en")}-row memories CSV export`,
      result: `${Math.round(s.ms)} ms`,
      reference: `csv-stringify alone ${Math.round(a.ms)} ms`,
      ratio: `${(s.ms / a.ms).toFixed(2)}×`,
      target: "≤ 1.5×",
      met: s.ms / a.ms <= 1.5,
    },
    { measure: "export: server RSS growth", result: `${growth.toFixed(1)} MB`, reference: "", target: "< 50 MB", met: growth < 50 },
  ]);
} finally {
  sqlite.close();
  await site.stop();
}
