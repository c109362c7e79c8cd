// Lighthouse scores (mobile settings) for the public pages, measured against
// the production build in Debian's Chromium. Run by hand, never in the tests:
//   npm run build && npm run lighthouse [-- / /guestbook]   (BENCH_PORT moves its server, 3395 by default)
// Lighthouse itself is fetched from the npm registry on first use (npx), so
// it does not weigh on every install. Targets: performance ≥ 95,
// accessibility 100, best practices ≥ 95.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSite } from "../bench/lib.mjs";

const LIGHTHOUSE = "lighthouse@12.8.2"; // 13.x needs Node 22.19
const PAGES = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/guestbook", "/gallery", "/poems"];
const chrome = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const site = await startSite({ port: Number(process.env.BENCH_PORT ?? 3395) });
const out = mkdtempSync(path.join(tmpdir(), "memorial-lighthouse-"));
const rows = [];
try {
  for (const page of PAGES) {
    const report = path.join(out, `${page.replace(/\W+/g, "_") || "home"}.json`);
    // Lighthouse now and then fails to record a trace (NO_NAVSTART); ask again, up to three times.
    const run = () =>
      spawnSync(
        "npx",
        [
          "--yes",
          LIGHTHOUSE,
          `${site.origin}${page}`,
          "--quiet",
          "--output=json",
          `--output-path=${report}`,
          "--only-categories=performance,accessibility,best-practices,seo",
          "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run",
        ],
        { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CHROME_PATH: chrome } },
      );
    let result = run();
    for (let attempt = 2; result.status !== 0 && attempt <= 3; attempt++) result = run();
    if (result.status !== 0) throw new Error(`lighthouse failed on ${page}`);
    const { categories, audits } = JSON.parse(readFileSync(report, "utf8"));
    const score = (/** @type {string} */ key) => Math.round((categories[key]?.score ?? 0) * 100);
    rows.push({
      page,
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best practices": score("best-practices"),
      seo: score("seo"),
      "LCP ms": Math.round(audits["largest-contentful-paint"]?.numericValue ?? 0),
      "TBT ms": Math.round(audits["total-blocking-time"]?.numericValue ?? 0),
      CLS: Number((audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3)),
    });
  }
} finally {
  await site.stop();
  rmSync(out, { recursive: true, force: true });
}
console.log(`Lighthouse ${LIGHTHOUSE.split("@")[1]}, mobile settings (simulated slow 4G, 4× CPU slowdown)`);
console.table(rows);
