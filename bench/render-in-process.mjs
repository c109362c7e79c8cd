// The uncached guest book rendered in this process, without HTTP or Express:
// what one render of a page costs in CPU, next to remix-peer's page rendered
// the same way. Run with --cpu-prof to see where the time goes.
// Usage: npm run build && node bench/render-in-process.mjs [path] [count]
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { seedCrowd } from "./lib.mjs";

const address = process.argv[2] ?? "/guestbook";
const count = Number(process.argv[3] ?? 2000);
const dir = mkdtempSync(path.join(tmpdir(), "memorial-render-"));
Object.assign(process.env, {
  NODE_ENV: "production",
  DATABASE_PATH: path.join(dir, "memorial.db"),
  STORAGE_DIR: path.join(dir, "uploads"),
  SESSION_SECRET: "bench-secret",
});

/** Renders `url` `count` times with `handler`; returns the mean CPU ms per render. */
async function timeRenders(handler, url, context) {
  const run = async (n) => {
    for (let i = 0; i < n; i++) {
      const response = await handler(new Request(url), context());
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      await response.text();
    }
  };
  await run(Math.min(300, count));
  const before = process.cpuUsage();
  await run(count);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

try {
  const build = await import(pathToFileURL(path.resolve("build/index.js")).href);
  seedCrowd(dir, { memories: 10_000, uploads: 1_000 });
  const { createRequestHandler } = await import("@remix-run/node");
  const site = createRequestHandler(build, "production");
  const ms = await timeRenders(site, `http://localhost${address}`, () => ({
    cspNonce: "abc",
    clientIp: "127.0.0.1",
    responseDrained: async () => {},
  }));
  const rows = [{ page: `site ${address}`, "CPU ms per render": ms.toFixed(2) }];
  const peerDir = process.env.REMIX_PEER_BUILT ?? path.join(tmpdir(), "memorial-bench-remix-peer");
  try {
    const peerRequire = createRequire(path.join(peerDir, "package.json"));
    const peerBuild = await import(pathToFileURL(path.join(peerDir, "build/index.js")).href);
    const peerNode = await import(pathToFileURL(peerRequire.resolve("@remix-run/node")).href);
    const peer = peerNode.createRequestHandler(peerBuild, "production");
    const peerMs = await timeRenders(peer, "http://localhost/", () => ({}));
    rows.push({ page: "remix-peer /", "CPU ms per render": peerMs.toFixed(2) });
    rows[0]["× remix-peer's cost"] = (ms / peerMs).toFixed(2);
  } catch (error) {
    console.log(`remix-peer not measured (run bench/pages.mjs once to build it): ${error.message}`);
  }
  console.table(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
