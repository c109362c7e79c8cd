// Bytes each public page sends, gzipped: the HTML document plus every
// stylesheet, script and module preload it references; then each page's
// JavaScript against the 100 KB budget (scripts/first-load-js.mjs,
// tests/integration/page-weight.test.ts holds it).
// Usage: npm run build && BENCH_PORT=3390 node bench/page-weight.mjs [/ /poems …]
import { gzipSync } from "node:zlib";
import { JS_BUDGET_BYTES } from "../scripts/first-load-js.mjs";
import { startSite } from "./lib.mjs";
import { addToSummary } from "./summary.mjs";

const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/poems"];
const site = await startSite({ port: Number(process.env.BENCH_PORT ?? 3390) });

async function gzippedSize(url) {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  return { raw: body.length, gzip: gzipSync(body, { level: 6 }).length, text: body.toString("utf8") };
}

const rows = [];
try {
  for (const page of pages) {
    const html = await gzippedSize(site.origin + page);
    const css = new Set([...html.text.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]));
    const js = new Set([
      ...[...html.text.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]),
      ...[...html.text.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]),
      ...[...html.text.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1]),
      ...[...html.text.matchAll(/import \* as \w+ from "([^"]+\.js)"/g)].map((m) => m[1]),
    ]);
    let cssGzip = 0;
    for (const href of css) cssGzip += (await gzippedSize(new URL(href, site.origin).href)).gzip;
    let jsGzip = 0;
    for (const src of js) jsGzip += (await gzippedSize(new URL(src, site.origin).href)).gzip;
    // With lazy route discovery the manifest is not a file: the page's part of it is inline (also in "HTML gz").
    const inlineManifest = /window\.__remixManifest = [\s\S]*?\n\};/.exec(html.text)?.[0];
    if (inlineManifest) jsGzip += gzipSync(inlineManifest, { level: 6 }).length;
    rows.push({ page, "HTML gz": html.gzip, "CSS gz": cssGzip, "JS gz": jsGzip, "JS files": js.size, total: html.gzip + cssGzip + jsGzip });
  }
} finally {
  await site.stop();
}
console.table(rows);
const kb = (/** @type {number} */ bytes) => `${(bytes / 1000).toFixed(1)} KB`;
for (const row of rows) {
  const over = row["JS gz"] > JS_BUDGET_BYTES;
  console.log(
    `JS ${row.page}: ${kb(row["JS gz"])} gzipped in ${row["JS files"]} files, budget ${kb(JS_BUDGET_BYTES)} ${over ? `✗ (${kb(row["JS gz"] - JS_BUDGET_BYTES)} over)` : "✓"}`,
  );
}
addToSummary(
  rows.map((row) => ({
    measure: `${row.page}: bytes sent, gzipped`,
    result: `${(row.total / 1000).toFixed(0)} KB`,
    reference: `HTML ${(row["HTML gz"] / 1000).toFixed(1)} KB, CSS ${(row["CSS gz"] / 1000).toFixed(1)} KB, JS ${(row["JS gz"] / 1000).toFixed(0)} KB`,
  })),
);
addToSummary(
  rows.map((row) => ({
    measure: `${row.page}: JavaScript before interaction, gzipped`,
    result: kb(row["JS gz"]),
    reference: `${row["JS files"]} files`,
    target: `≤ ${kb(JS_BUDGET_BYTES)}`,
    met: row["JS gz"] <= JS_BUDGET_BYTES,
  })),
);
