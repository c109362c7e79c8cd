// Deep pages: what one request costs far down the guest book and the gallery,
// with 10,000 approved memories and 1,000 approved uploads. Without
// JavaScript "Load More" used to re-render everything from the newest
// (/guestbook?offset=5000 was 5,010 memories); now a page holds at most 100
// and continues with "Earlier memories →" (a keyset cursor). Prints bytes,
// items and the median and p95 time of sequential requests for each address,
// next to the first page and an empty Remix route measured in the same run.
// Usage: npm run build && node bench/deep-pages.mjs   (BENCH_PORT=3390, BENCH_REPEATS=20)
import http from "node:http";
import { seedCrowd, startSite } from "./lib.mjs";
import { addToSummary } from "./summary.mjs";

const MEMORIES = 10_000;
const UPLOADS = 1_000;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);

const site = await startSite({ port: Number(process.env.BENCH_PORT ?? 3390) });
seedCrowd(site.dir, { memories: MEMORIES, uploads: UPLOADS });

/** One GET without compression: status, headers, body bytes and milliseconds. */
function get(path) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(`${site.origin}${path}`, (res) => {
        let bytes = 0;
        const chunks = [];
        res.on("data", (chunk) => {
          bytes += chunk.length;
          chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            bytes,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      })
      .on("error", reject);
  });
}

/** The cursor the API's `Link: <…>; rel="next"` continues from, or null (a build without cursors). */
async function nextCursor(path) {
  const link = (await get(path)).headers.link ?? "";
  const target = /<([^>]+)>\s*;\s*rel="?next"?/.exec(link)?.[1];
  return target ? new URL(target, site.origin).searchParams.get("before") : null;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(label, path) {
  for (let i = 0; i < 3; i++) await get(path); // warm-up
  const times = [];
  let last;
  for (let i = 0; i < REPEATS; i++) {
    last = await get(path);
    times.push(last.ms);
  }
  times.sort((a, b) => a - b);
  const items =
    (last.body.match(/id="(memory|media)-\d+"/g) ?? []).length || (last.body.startsWith("[") ? JSON.parse(last.body).length : 0);
  return {
    address: label,
    status: last.status,
    items,
    KB: Math.round(last.bytes / 102.4) / 10,
    "median ms": Math.round(quantile(times, 0.5) * 10) / 10,
    "p95 ms": Math.round(quantile(times, 0.95) * 10) / 10,
  };
}

const rows = [];
try {
  const memoryCursor = await nextCursor("/api/guestbook?limit=50&offset=4950");
  const galleryCursor = await nextCursor("/api/gallery?limit=100&offset=800");
  const targets = [
    ["empty Remix route (404 page)", "/bench-empty-route"],
    ["/guestbook (first page)", "/guestbook"],
    ["/guestbook?offset=5000", "/guestbook?offset=5000"],
    ...(memoryCursor ? [["/guestbook?before=<after 5,000>&offset=90", `/guestbook?before=${memoryCursor}&offset=90`]] : []),
    ["/api/guestbook?limit=10&offset=5000", "/api/guestbook?limit=10&offset=5000"],
    ...(memoryCursor ? [["/api/guestbook?limit=10&before=<after 5,000>", `/api/guestbook?limit=10&before=${memoryCursor}`]] : []),
    ["/gallery?offset=900", "/gallery?offset=900"],
    ...(galleryCursor ? [["/gallery?before=<after 900>&offset=80", `/gallery?before=${galleryCursor}&offset=80`]] : []),
  ];
  for (const [label, path] of targets) rows.push(await measure(label, path));
} finally {
  await site.stop();
}

console.log(
  `${MEMORIES.toLocaleString("en")} approved memories, ${UPLOADS.toLocaleString("en")} approved uploads; ${REPEATS} sequential requests each, uncompressed bytes`,
);
console.table(rows);
const first = rows.find((row) => row.address.startsWith("/guestbook (first"));
const deep = rows.find((row) => row.address === "/guestbook?offset=5000");
addToSummary([
  {
    measure: "/guestbook?offset=5000 (no-JS Load More, far down)",
    result: `${deep.items} memories, ${deep.KB} KB, median ${deep["median ms"]} ms`,
    reference: `first page ${first.items} memories, ${first.KB} KB, median ${first["median ms"]} ms`,
    target: "≤ 100 memories on any page",
    met: deep.items <= 100,
  },
]);
