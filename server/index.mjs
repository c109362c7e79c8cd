// @ts-check
// The Node entry: reads the configuration, imports the Remix build, serves
// the site's one pipeline (server/app.mjs) with copies from the render cache
// first, and stops gracefully.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createSiteApp } from "./app.mjs";
import { renderCacheFromEnv } from "./render-cache/middleware.mjs";
import { logRequest } from "./request-log.mjs";
import { mediaSourcesFromEnv } from "./security.mjs";
import { applyTimeouts, serverTimeoutOptions, timeoutsFromEnv } from "./timeouts.mjs";

const BUILD_PATH = path.resolve("build/index.js");

/** @type {import("./timeouts.mjs").Timeouts} */
let timeouts;
let renderCache = true;
try {
  timeouts = timeoutsFromEnv(process.env);
  renderCache = renderCacheFromEnv(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

if (!existsSync(BUILD_PATH)) {
  console.log("No build found: building the site first (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
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

// No cap on a request's total time, an idle timeout instead (server/timeouts.mjs).
const server = http.createServer(serverTimeoutOptions(timeouts), listener);
applyTimeouts(server, timeouts);
// The configured admin exists before the first answer (one password hash), so
// a login sent as soon as the site answers works.
await hooks.prepareAdmins();
const port = Number(process.env.PORT || 3000);
server.listen(port, () => {
  console.log(`Memorial site listening on http://localhost:${port}`);
  hooks.startBackgroundWork().catch((error) => console.error(error));
  // Under `npm run dev`, tell the Remix dev server this build is live.
  if (process.env.REMIX_DEV_ORIGIN) import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
});

let shuttingDown = false;
/** @param {NodeJS.Signals} signal */
function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal} received: finishing requests in flight, then stopping`);
  // The e-mail being sent is finished and recorded before the database closes (no message twice after a restart).
  const background = (hooks?.stopBackgroundWork() ?? Promise.resolve()).catch((error) => console.error(error));
  const stop = () =>
    void background.then(() => {
      hooks?.closeDatabase();
      process.exit(0);
    });
  server.close(stop);
  server.closeIdleConnections();
  setTimeout(() => {
    // Whatever is still on its way (a request, an e-mail the SMTP server has not answered) is cut off.
    server.closeAllConnections();
    hooks?.closeDatabase();
    process.exit(0);
  }, 10_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
