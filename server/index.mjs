// @ts-check
// The Node entry: reads the configuration, brings the database back from its
// replica when the volume is empty, imports the Remix build, runs Litestream
// beside itself, serves the site's one pipeline (server/app.mjs) with copies
// from the render cache first, and stops gracefully.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createSiteApp } from "./app.mjs";
import { superviseLitestream } from "./litestream.mjs";
import { renderCacheFromEnv } from "./render-cache/middleware.mjs";
import { logRequest } from "./request-log.mjs";
import {
  litestreamBinary,
  litestreamConfigFile,
  replicationFromEnv,
  replicationWarnAfterFromEnv,
  restoreIfMissing,
} from "./replication.mjs";
import { mediaSourcesFromEnv } from "./security.mjs";
import { idleExitFromEnv, watchIdle } from "./idle-exit.mjs";
import { applyTimeouts, serverTimeoutOptions, timeoutsFromEnv } from "./timeouts.mjs";

const BUILD_PATH = path.resolve("build/index.js");

/** @type {import("./timeouts.mjs").Timeouts} */
let timeouts;
let renderCache = true;
/** @type {import("./replication.mjs").ReplicaSettings | null} */
let replication = null;
let replicationWarnAfterMs = 60_000;
/** @type {number | null} */
let idleExitMs = null;
try {
  idleExitMs = idleExitFromEnv(process.env);
  timeouts = timeoutsFromEnv(process.env);
  renderCache = renderCacheFromEnv(process.env);
  replication = replicationFromEnv(process.env);
  replicationWarnAfterMs = replicationWarnAfterFromEnv(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

if (!existsSync(BUILD_PATH)) {
  console.log("No build found: building the site first (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Before the build is imported (which opens, creates and migrates the
// database): on an empty volume, the family's database comes back from the
// replica, and nothing is answered until it has.
const litestream = replication ? litestreamBinary() : null;
/** @type {import("./replication.mjs").Restored | null} */
let restored = null;
if (replication) {
  if (!litestream) {
    console.error(
      `LITESTREAM_REPLICA_URL or BUCKET_NAME asks for the database to be replicated to ${replication.description}, but there is no Litestream binary for ${process.platform}-${process.arch}: install it (https://litestream.io/install/) or set LITESTREAM_REPLICA_URL=off.`,
    );
    process.exit(1);
  }
  const config = litestreamConfigFile(replication);
  try {
    restored = await restoreIfMissing(replication, litestream, config.write());
  } catch (error) {
    // Starting on an empty database would make it the replica's newest copy,
    // the one the next restore takes: better not to start at all.
    console.error(
      `Could not restore the database from ${replication.description}: ${error instanceof Error ? error.message : error}\n` +
        "Refusing to start with an empty database, which would be replicated as the newest copy. Fix the replica settings (docs/backups.md), or set LITESTREAM_REPLICA_URL=off to start without replication.",
    );
    process.exit(1);
  } finally {
    config.remove();
  }
  if (restored) {
    const last = restored.lastTransactionAt ? `, last transaction replicated at ${restored.lastTransactionAt}` : "";
    console.log(
      `Restored the database from ${replication.description} (generation ${restored.generation}${last}) in ${restored.seconds.toFixed(1)} s: this volume had no database.`,
    );
  }
} else {
  console.warn(
    "The database is not replicated: its only copy is on this machine's disk. Set LITESTREAM_REPLICA_URL, or BUCKET_NAME with the bucket's AWS_* variables, to copy it continuously to safe storage (docs/backups.md).",
  );
}

/** @type {import("@remix-run/node").ServerBuild} */
let build;
try {
  // Importing the build validates the configuration and opens and migrates the database.
  build = await import(pathToFileURL(BUILD_PATH).href);
} catch (error) {
  if (error instanceof Error && error.name === "ConfigError") {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const { siteHooks: hooks } = /** @type {{ siteHooks?: import("../app/server/site-hooks.server").SiteHooks }} */ (build.entry.module);
// A build without the visitor gate must not serve a private memorial to everyone.
if (!hooks?.visitorGate) {
  console.error("The build has no site hooks (siteHooks in app/entry.server.tsx): refusing to start.");
  process.exit(1);
}

const { app, serveFromCache } = createSiteApp({
  build,
  hooks,
  production: process.env.NODE_ENV === "production",
  development: process.env.NODE_ENV === "development",
  mediaSources: mediaSourcesFromEnv(process.env),
  renderCache,
});

// A copy from the render cache goes out straight away, ahead of Express: a
// crowd's requests are almost all these, and the middleware chain costs more
// than sending the copy (the cache sets the same headers). Everything else
// takes the pipeline.
/** @type {import("node:http").RequestListener} */
const listener = serveFromCache
  ? (req, res) => {
      const started = process.hrtime.bigint();
      serveFromCache(req, res).then(
        (served) => (served ? logRequest("GET", req.url, res.statusCode, started) : app(req, res)),
        (error) => (res.headersSent ? res.destroy(error) : app(req, res)),
      );
    }
  : app;

// With IDLE_EXIT_MINUTES (on Fly), the server stops itself once nothing has
// been asked of it for that long and no media work is running or waiting.
const idle = idleExitMs
  ? watchIdle({
      idleMs: idleExitMs,
      busy: () => hooks.mediaWorkPending(),
      onIdle: () => {
        console.log(`Nothing asked for ${idleExitMs / 60_000} minutes and no media work waiting: stopping until the next visit.`);
        shutdown("SIGTERM");
      },
    })
  : null;
// Background work (the media queue resumed, sweeps, the e-mail sender) starts
// once the first answer has gone, or 10 s after listening: on a cold start the
// visitor who woke the machine is answered first. On one shared CPU, requeueing
// 200 uploads alone took 130-190 ms of the start.
let backgroundStarted = false;
function startBackground() {
  if (backgroundStarted) return;
  backgroundStarted = true;
  hooks?.startBackgroundWork().catch((error) => console.error(error));
}
/** @type {import("node:http").RequestListener} */
const handler = (req, res) => {
  if (!backgroundStarted) res.once("finish", () => setImmediate(startBackground));
  if (idle) res.once("close", idle.request(req.url));
  listener(req, res);
};

// No cap on a request's total time, an idle timeout instead (server/timeouts.mjs).
const server = http.createServer(serverTimeoutOptions(timeouts), handler);
applyTimeouts(server, timeouts);
// Litestream replicates from before the first answer; from now on it alone
// checkpoints the database, as its documentation asks.
const replicator =
  replication && litestream
    ? superviseLitestream({ settings: replication, binary: litestream, restored, warnAfterMs: replicationWarnAfterMs })
    : null;
if (replicator && replication) {
  await replicator.start();
  hooks.replicating(() => replicator.report());
  console.log(`Replicating the database to ${replication.description} every second with Litestream (pid ${replicator.pid()})`);
}
// The configured admin exists before the first answer (one password hash), so
// a login sent as soon as the site answers works.
await hooks.prepareAdmins();
const port = Number(process.env.PORT || 3000);
// Another server on the port is the usual mistake of someone starting the site: say so in one sentence.
server.once("error", (/** @type {NodeJS.ErrnoException} */ error) => {
  if (error.code !== "EADDRINUSE") throw error;
  console.error(`Port ${port} is already in use: stop the other server or set PORT.`);
  hooks.closeDatabase();
  void (replicator?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
});
server.listen(port, () => {
  console.log(`Memorial site listening on http://localhost:${port}`);
  setTimeout(startBackground, 10_000);
  // Under `npm run dev`, tell the Remix dev server this build is live.
  if (process.env.REMIX_DEV_ORIGIN) import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
});

let shuttingDown = false;
/** @param {NodeJS.Signals} signal */
function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal} received: finishing requests in flight, then stopping`);
  // The e-mail being sent is finished and recorded before the database closes (no message twice
  // after a restart); then the database is closed and Litestream ships the last writes.
  const background = (hooks?.stopBackgroundWork() ?? Promise.resolve()).catch((error) => console.error(error));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    void background.then(() => {
      hooks?.closeDatabase();
      void (replicator?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
    });
  };
  server.close(stop);
  server.closeIdleConnections();
  setTimeout(() => {
    // Whatever is still on its way (a request, an e-mail the SMTP server has not answered) is cut off.
    server.closeAllConnections();
    hooks?.closeDatabase();
    void (replicator?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
  }, 10_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
