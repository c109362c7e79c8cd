// `npm run bench`: every measurement, one after another, each printing its
// figures next to the reference measured in the same run:
//   pages    /, /guestbook, /gallery, /poems and the APIs from the render cache vs the bare Remix
//            app of ../shared/bench/remix-peer and a bare Node server; the guest book uncached;
//            stale reads in a mixed read/write run
//   media    a 1 GiB signed PUT vs a bare Node stream-to-disk server, peak RSS growth,
//            24 MP thumbnail and 12 MP HEIC conversion vs the libraries alone
//   video    the web copy of a 1-minute 1080p phone video (HEVC .mov, H.264 .mp4) on one core
//   voice    the published copy of a 10-minute voice memory (WebM/Opus, WAV) on one core
//            (taskset -c 0): encode time, speed as a multiple of real time, peak RSS
//   export   100,000-row memories CSV vs csv-stringify alone, peak RSS growth
//   archive  "Download everything" with 1 GiB of media vs cp -r of the same files, peak RSS growth
//   weight   gzipped HTML, CSS and JS of each public page
//   deep     bytes and time of pages far down the guest book and gallery (at most 100 items a page)
//   book     the memory book PDF for 100 memories/30 photos and 1,000/300: time, peak RSS growth (512 MB cgroup as root)
//   replication  POST /api/guestbook latency with Litestream replicating vs not; restore time of 10,000 memories
//   flybox   the server in a 512 MB cgroup on one core (and at a 6.25% CPU cap): cold start vs remix-peer,
//            RSS idle / under load / after 100 MP photos, video time to ready, OOM kills (root only;
//            run by name: npm run bench -- flybox)
// Each part seeds its own scratch database and storage and starts the production build.
// Usage: npm run build && npm run bench   (or: npm run bench -- pages export)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { printSummary } from "./summary.mjs";

const PARTS = {
  pages: ["bench/pages.mjs"],
  media: ["bench/media.mjs"],
  video: ["bench/video.mjs"],
  voice: ["bench/voice.mjs"],
  export: ["bench/export.mjs"],
  archive: ["bench/archive.mjs"],
  weight: ["bench/page-weight.mjs", "/", "/guestbook", "/share", "/gallery", "/poems", "/rsvp"],
  deep: ["bench/deep-pages.mjs"],
  replication: ["bench/replication.mjs"],
  flybox: ["bench/flybox.mjs"],
  book: ["bench/book.mjs"],
};
/** Parts run only when named: flybox needs root and takes about 15 minutes; book makes a 1,000-memory book in a cgroup. */
const ON_REQUEST = new Set(["flybox", "book"]);

if (!existsSync("build/index.js")) {
  console.error("Build the site first: npm run build");
  process.exit(1);
}
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(PARTS).filter((name) => !ON_REQUEST.has(name));
let failed = false;
const summaryDir = mkdtempSync(path.join(tmpdir(), "memorial-bench-summary-"));
const summary = path.join(summaryDir, "rows.jsonl");
for (const name of chosen) {
  const part = PARTS[name];
  if (!part) {
    console.error(`Unknown part "${name}"; choose from ${Object.keys(PARTS).join(", ")}`);
    process.exit(2);
  }
  if (!existsSync(part[0])) {
    console.error(`\n## ${name}: ${part[0]} is missing`);
    failed = true;
    continue;
  }
  console.log(`\n## ${name}`);
  const result = spawnSync(process.execPath, part, { stdio: "inherit", env: { ...process.env, BENCH_SUMMARY: summary } });
  if (result.status !== 0) failed = true;
}
printSummary(summary);
rmSync(summaryDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
