// Guest book throughput with 10,000 approved memories: requests/s and p99 of
// /guestbook and GET /api/guestbook at 32 connections, next to an empty Remix
// document route (the 404 page: the layout with no data) measured in the same run.
// Usage: npm run build && node bench/guestbook.mjs
import autocannon from "autocannon";
import Database from "better-sqlite3";
import path from "node:path";
import { startSite } from "./lib.mjs";

const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const MEMORIES = 10_000;

const site = await startSite({ env: { SUBMISSIONS_PER_10_MINUTES: "1000000" } });
const sqlite = new Database(path.join(site.dir, "memorial.db"));
sqlite.pragma("busy_timeout = 5000");
const insert = sqlite.prepare(
  "insert into memories (name, email, message, status, canDisplay, createdAt) values (?, ?, ?, 'APPROVED', 1, ?)",
);
const start = Date.now() - MEMORIES * 60_000;
sqlite.transaction(() => {
  for (let i = 0; i < MEMORIES; i++) {
    insert.run(`Guest ${i}`, `guest${i}@example.com`, `A memory number ${i}, with a few words of love.\nAnd a second line.`, start + i * 60_000);
  }
})();
sqlite.close();

function measure(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const targets = [
  ["empty Remix route (404 page)", "/bench-empty-route"],
  ["/guestbook", "/guestbook"],
  ["GET /api/guestbook", "/api/guestbook?limit=10&offset=0"],
];
const rows = [];
try {
  for (const [, pathname] of targets) await measure(site.origin + pathname); // warm-up
  for (const [label, pathname] of targets) {
    const result = await measure(site.origin + pathname);
    rows.push({ route: label, "req/s": Math.round(result.requests.average), "p99 ms": result.latency.p99, errors: result.errors });
  }
} finally {
  await site.stop();
}
const reference = rows[0]["req/s"];
for (const row of rows) row["vs empty"] = `${Math.round((row["req/s"] / reference) * 100)}%`;
console.log(`${MEMORIES} approved memories, ${CONNECTIONS} connections, ${DURATION}s each`);
console.table(rows);
