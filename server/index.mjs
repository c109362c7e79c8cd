// @ts-check
// The Node entry: configuration, build, app, listen. When the database is
// replicated, Litestream is this process's parent (scripts/litestream-start.sh)
// and has restored the database on an empty volume before this started. What
// happens once it listens, and the order it stops in: server/lifecycle.mjs.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createSiteApp } from "./app.mjs";
import { idleExitFromEnv } from "./idle-exit.mjs";
import { listen } from "./lifecycle.mjs";
import { renderCacheFromEnv } from "./render-cache/middleware.mjs";
import { logRequest } from "./request-log.mjs";
import { metricsPortFromEnv, replicationFromEnv, replicationWarnAfterFromEnv, runsUnderLitestream } from "./replication.mjs";
import { mediaSourcesFromEnv } from "./security.mjs";
import { timeoutsFromEnv } from "./timeouts.mjs";

const BUILD_PATH = path.resolve("build/index.js");

// 1. The configuration: one sentence and exit code 1 when something is wrong.
/** @returns {never} @param {unknown} error */
function refuse(error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
let settings;
try {
  settings = {
    idleExitMs: idleExitFromEnv(process.env),
    timeouts: timeoutsFromEnv(process.env),
    renderCache: renderCacheFromEnv(process.env),
    replication: replicationFromEnv(process.env),
    replicationWarnAfterMs: replicationWarnAfterFromEnv(process.env),
    metricsPort: metricsPortFromEnv(process.env),
    port: Number(process.env.PORT || 3000),
  };
} catch (error) {
  refuse(error);
}
let { replication } = settings;
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

// 2. The build: importing it validates the site's configuration and opens and migrates the database.
if (!existsSync(BUILD_PATH)) {
  console.log("No build found: building the site first (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
/** @type {import("@remix-run/node").ServerBuild} */
const build = await import(pathToFileURL(BUILD_PATH).href).catch((error) =>
  error instanceof Error && error.name === "ConfigError" ? refuse(error) : Promise.reject(error),
);
const { siteHooks: hooks } = /** @type {{ siteHooks?: import("../app/server/site-hooks.server").SiteHooks }} */ (build.entry.module);
// A build without the visitor gate must not serve a private memorial to everyone.
if (!hooks?.visitorGate) refuse("The build has no site hooks (siteHooks in app/entry.server.tsx): refusing to start.");

// 3. The app: the site's one pipeline (server/app.mjs). A copy from the render
// cache goes out straight away, ahead of Express: a crowd's requests are
// almost all these, and the middleware chain costs more than sending the copy
// (the cache sets the same headers). Everything else takes the pipeline.
const { app, serveFromCache } = createSiteApp({
  build,
  hooks,
  production: process.env.NODE_ENV === "production",
  development: process.env.NODE_ENV === "development",
  mediaSources: mediaSourcesFromEnv(process.env),
  renderCache: settings.renderCache,
});
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

// From now on Litestream alone checkpoints the database, as its documentation asks.
const restoredAt = Date.parse(process.env.LITESTREAM_RESTORED_AT ?? "");
const replicator = replication
  ? hooks.replicating({
      replica: replication.description,
      metricsPort: settings.metricsPort,
      warnAfterMs: settings.replicationWarnAfterMs,
      restoredAt: Number.isNaN(restoredAt) ? null : restoredAt,
    })
  : null;
if (replication) console.log(`Replicating the database to ${replication.description} every second with Litestream (pid ${process.ppid})`);
// The configured admin exists before the first answer (one password hash), so
// a login sent as soon as the site answers works.
await hooks.prepareAdmins();

// 4. Listen.
listen({
  listener,
  hooks,
  port: settings.port,
  timeouts: settings.timeouts,
  idleExitMs: settings.idleExitMs,
  replicator,
  // Under `npm run dev`, tell the Remix dev server this build is live.
  onListening: () => {
    if (process.env.REMIX_DEV_ORIGIN) void import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
  },
});
