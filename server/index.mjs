// @ts-check
// The Node entry: reads the configuration, imports the Remix build, serves
// the site's one pipeline (server/app.mjs) with copies from the render cache
// first, and stops gracefully. When the database is replicated, Litestream is
// this process's parent (scripts/litestream-start.sh): it has restored the
// database on an empty volume before this started.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createSiteApp } from "./app.mjs";
import { renderCacheFromEnv } from "./render-cache/middleware.mjs";
import { logRequest } from "./request-log.mjs";
import { metricsPortFromEnv, replicationFromEnv, replicationWarnAfterFromEnv, runsUnderLitestream } from "./replication.mjs";
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
let metricsPort = 9090;
/** @type {number | null} */
let idleExitMs = null;
try {
  idleExitMs = idleExitFromEnv(process.env);
  timeouts = timeoutsFromEnv(process.env);
  renderCache = renderCacheFromEnv(process.env);
  replication = replicationFromEnv(process.env);
  replicationWarnAfterMs = replicationWarnAfterFromEnv(process.env);
  metricsPort = metricsPortFromEnv(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

if (!existsSync(BUILD_PATH)) {
  console.log("No build found: building the site first (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (replication && !runsUnderLitestream(process.env)) {
  console.warn(
    `LITESTREAM_REPLICA_URL or BUCKET_NAME names a replica (${replication.description}), but the site was started without Litestream: the database is not replicated. Start it with npm start or scripts/litestream-start.sh (docs/backups.md).`,
  );
  replication = null;
} else if (!replication) {
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

const { siteHooks: hooks } = /** @type {{ siteHooks?: import("../app/site-hooks.server").SiteHooks }} */ (build.entry.module);
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
// From now on Litestream alone checkpoints the database, as its documentation asks.
/** @type {ReturnType<typeof hooks.replicating> | null} */
let replicator = null;
if (replication) {
  const restoredAt = Date.parse(process.env.LITESTREAM_RESTORED_AT ?? "");
  replicator = hooks.replicating({
    replica: replication.description,
    metricsPort,
    warnAfterMs: replicationWarnAfterMs,
    restoredAt: Number.isNaN(restoredAt) ? null : restoredAt,
  });
  console.log(`Replicating the database to ${replication.description} every second with Litestream (pid ${process.ppid})`);
  // Litestream gone, the site would write to a database nobody copies: it stops too, and the platform starts both again.
  const litestreamPid = process.ppid;
  setInterval(() => {
    if (process.ppid === litestreamPid) return;
    console.error("Litestream, which replicates the database, has stopped: stopping the site so that both start again.");
    shutdown("SIGTERM", 1);
  }, 1000).unref();
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
  process.exit(1);
});
server.listen(port, () => {
  console.log(`Memorial site listening on http://localhost:${port}`);
  setTimeout(startBackground, 10_000);
  // Under `npm run dev`, tell the Remix dev server this build is live.
  if (process.env.REMIX_DEV_ORIGIN) import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
});

let shuttingDown = false;
/** @param {NodeJS.Signals} signal @param {number} [exitCode] */
function shutdown(signal, exitCode = 0) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal} received: finishing requests in flight, then stopping`);
  // The e-mail being sent is finished and recorded before the database closes (no message twice
  // after a restart); then the database is closed, the process exits, and Litestream (once it
  // has taken up the database) ships the last writes.
  const background = (hooks?.stopBackgroundWork() ?? Promise.resolve()).catch((error) => console.error(error));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    void background.then(() => {
      hooks?.closeDatabase();
      void (replicator?.takenUp() ?? Promise.resolve()).finally(() => process.exit(exitCode));
    });
  };
  server.close(stop);
  server.closeIdleConnections();
  setTimeout(() => {
    // Whatever is still on its way (a request, an e-mail the SMTP server has not answered) is cut off.
    server.closeAllConnections();
    hooks?.closeDatabase();
    void (replicator?.takenUp() ?? Promise.resolve()).finally(() => process.exit(exitCode));
  }, 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
