// Page and API throughput: requests/s and p99 at 32 connections for /,
// /guestbook, /gallery, GET /api/guestbook and GET /api/gallery, with 10,000
// approved memories and 1,000 approved uploads, next to an empty Remix
// document route (the 404 page: the layout and no data) and a bare Node HTTP
// server sending as many bytes as /guestbook, all measured in the same run.
// Target: every page at ≥ 80% of the empty Remix route.
// Usage: npm run build && node bench/pages.mjs   (BENCH_SECONDS=10 by default)
import http from "node:http";
import autocannon from "autocannon";
import { seedCrowd, startSite } from "./lib.mjs";
import { addToSummary } from "./summary.mjs";

const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const MEMORIES = 10_000;
const UPLOADS = 1_000;

const site = await startSite({ env: { SUBMISSIONS_PER_10_MINUTES: "1000000" } });
seedCrowd(site.dir, { memories: MEMORIES, uploads: UPLOADS });

// The bare reference: a Node HTTP server answering with the same bytes as /guestbook.
const guestbookBytes = Buffer.from(await (await fetch(`${site.origin}/guestbook`)).arrayBuffer());
const bare = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": guestbookBytes.length });
  res.end(guestbookBytes);
});
await new Promise((resolve) => bare.listen(3391, resolve));

function measure(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const targets = [
  ["bare Node server, same bytes as /guestbook", "http://localhost:3391/"],
  ["empty Remix route (404 page)", `${site.origin}/bench-empty-route`],
  ["/", `${site.origin}/`],
  ["/guestbook", `${site.origin}/guestbook`],
  ["/gallery", `${site.origin}/gallery`],
  ["GET /api/guestbook", `${site.origin}/api/guestbook?limit=10&offset=0`],
  ["GET /api/gallery", `${site.origin}/api/gallery?limit=20&offset=0`],
];
const rows = [];
try {
  for (const [, url] of targets) await measure(url).catch(() => undefined); // warm-up
  for (const [label, url] of targets) {
    const result = await measure(url);
    rows.push({
      route: label,
      "req/s": Math.round(result.requests.average),
      "p99 ms": result.latency.p99,
      "non-2xx": result.non2xx - (label.startsWith("empty") ? result.non2xx : 0),
      errors: result.errors,
    });
  }
} finally {
  bare.close();
  await site.stop();
}
const reference = rows.find((row) => row.route.startsWith("empty"))["req/s"];
for (const row of rows) row["vs empty route"] = `${Math.round((row["req/s"] / reference) * 100)}%`;
console.log(
  `${MEMORIES.toLocaleString("en")} approved memories, ${UPLOADS.toLocaleString("en")} approved uploads, ${CONNECTIONS} connections, ${DURATION}s each (target: pages ≥ 80% of the empty route)`,
);
console.table(rows);
const bareRow = rows.find((row) => row.route.startsWith("bare"));
addToSummary(
  rows
    .filter((row) => row.route.startsWith("/") || row.route.startsWith("GET"))
    .map((row) => {
      const page = row.route.startsWith("/");
      const share = row["req/s"] / reference;
      return {
        measure: `${row.route}, ${CONNECTIONS} connections`,
        result: `${row["req/s"]} req/s, p99 ${row["p99 ms"]} ms`,
        reference: `empty Remix route ${reference} req/s; bare Node ${bareRow["req/s"]} req/s`,
        ratio: `${Math.round(share * 100)}% of the empty route`,
        // The guest book issue also sets p99 under 30 ms (see README, Performance).
        ...(row.route === "/guestbook"
          ? { target: "≥ 80%, p99 < 30 ms", met: share >= 0.8 && row["p99 ms"] < 30 }
          : page
            ? { target: "≥ 80%", met: share >= 0.8 }
            : {}),
      };
    }),
);
