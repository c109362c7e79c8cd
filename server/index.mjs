// @ts-check
// The HTTP server: security headers and the cross-origin check for the whole
// app, static files, one log line per request, graceful shutdown; everything
// else is the Remix build. Express carries all of it but a page's or an API
// read's GET, which meets the same handlers without Express's router.
// First, before Remix is imported: route matching remembered per address, and
// each request's data loaded and rendered from the routes it matched.
import "./remix-fast-paths.mjs";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler as createFetchHandler } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { createRenderCache, renderCacheFromEnv } from "./render-cache.mjs";
import { decodable, pathOf, remixRequest, sendRemixResponse } from "./remix-request.mjs";
import {
  clientAddress,
  contentSecurityPolicy,
  createNonce,
  isCrossOriginMutation,
  mediaSourcesFromEnv,
  securityHeaders,
  securityHeadersFor,
} from "./security.mjs";
import { applyTimeouts, serverTimeoutOptions, timeoutsFromEnv } from "./timeouts.mjs";

/** @typedef {import("./remix-request.mjs").LocalsResponse} LocalsResponse */

const BUILD_PATH = path.resolve("build/index.js");

/** @type {import("./timeouts.mjs").Timeouts} */
let timeouts;
let renderCacheOn = true;
try {
  timeouts = timeoutsFromEnv(process.env);
  renderCacheOn = renderCacheFromEnv(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const production = process.env.NODE_ENV === "production";
const development = process.env.NODE_ENV === "development";

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

const app = express();
app.disable("x-powered-by");
// Fly's proxy terminates TLS and tells us the original protocol and client.
app.set("trust proxy", true);

/**
 * One log line per request. Path only: query strings may carry what visitors typed.
 * @param {string} method @param {string} path @param {number} status @param {bigint} started
 */
function logRequest(method, path, status, started) {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  // Written as console.log writes it, without its formatting machinery (a tenth of a cached answer's CPU).
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), method, path, status, ms: Math.round(ms * 10) / 10 })}\n`);
}

/**
 * Logs the request once its answer is sent, with the address as asked for
 * (the visitor gate may hand a page's request to the passcode page).
 * @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res
 */
function logWhenAnswered(req, res) {
  const started = process.hrtime.bigint();
  const method = req.method ?? "";
  const path = pathOf(req.url);
  res.on("finish", () => logRequest(method, path, res.statusCode, started));
}

app.use((req, res, next) => {
  logWhenAnswered(req, res);
  next();
});

// A request answered before its whole body arrived (a refusal: too large, of
// the wrong type, from another site) must not leave the rest of that body in
// the connection, where the browser's next request would wait behind it until
// the connection timed out. The answer says "Connection: close", so the client
// asks again on a fresh connection, and what is still on its way is discarded
// rather than buffered.
app.use((req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = /** @type {typeof res.writeHead} */ (
    function (/** @type {any[]} */ ...args) {
      if (!req.complete) res.setHeader("Connection", "close");
      return /** @type {Function} */ (writeHead).apply(res, args);
    }
  );
  res.on("finish", () => {
    if (req.complete || req.destroyed) return;
    req.removeAllListeners("data");
    req.resume();
  });
  next();
});

const mediaSources = mediaSourcesFromEnv(process.env);

const securityHeadersWith = securityHeadersFor({ production, development, mediaSources });

/**
 * This response's nonce (for the load context) and the security headers with it.
 * @param {LocalsResponse} res
 */
function secure(res) {
  const nonce = createNonce();
  res.locals.cspNonce = nonce;
  for (const [name, value] of securityHeadersWith(nonce)) res.setHeader(name, value);
}

app.use((req, res, next) => {
  secure(res);
  next();
});

/**
 * What the build's entry module adds for this server.
 * @typedef {object} EntryExtras
 * @property {import("./remix-request.mjs").NodeMiddleware} [visitorGate]
 * @property {import("express").RequestHandler} [handleDiskPut]
 * @property {() => Promise<void>} [prepareAdmins]
 * @property {() => Promise<void>} [startBackgroundWork]
 * @property {() => void} [closeDatabase]
 * @property {() => string} [contentVersion]
 * @property {(req: import("node:http").IncomingMessage, res: LocalsResponse) => Promise<string | null>} [renderCacheVariant]
 * @property {(req: import("node:http").IncomingMessage) => Promise<{ variant: string; robots: string | null; version: string } | null>} [renderCacheVisit]
 * @property {(response: Response) => string | undefined} [documentHtml]
 */
const entry = /** @type {EntryExtras} */ (/** @type {unknown} */ (build.entry.module));

// The family's privacy setting, ahead of everything that answers (the
// cross-origin refusal, signed uploads, static files, Remix), so nothing slips
// past it and every answer carries its robots header
// (docs/decisions/010-visitor-gate.md). A build without it must not serve a
// private memorial to everyone.
if (!entry.visitorGate) {
  console.error("The build has no visitor gate (visitorGate in app/entry.server.tsx): refusing to start.");
  process.exit(1);
}
const visitorGate = entry.visitorGate;
app.use(visitorGate);

app.use((req, res, next) => {
  const refused = isCrossOriginMutation({
    method: req.method,
    host: req.get("host"),
    protocol: req.protocol,
    origin: req.get("origin"),
    referer: req.get("referer"),
  });
  if (!refused) return next();
  res.status(403);
  if (req.path.startsWith("/api/")) {
    res.json({ errors: { origin: ["Cross-origin requests are not allowed."] } });
  } else {
    res.type("text/plain").send("This form must be sent from this website. Please go back, reload the page and try again.");
  }
});

// Signed uploads to the local disk stream from the socket straight to the
// file (1 GB without web-stream conversions); other methods there get the
// API's 405. Everything else goes to Remix.
if (entry.handleDiskPut) app.all("/api/uploads/put/*", entry.handleDiskPut);

const compress = compression();
// Fingerprinted build assets never change; other public files may. Only
// paths under public/'s own entries look at the disk: a page request goes
// straight to Remix instead of waiting for a file lookup that cannot succeed.
const publicEntries = new Set(readdirSync("public"));
/** @param {string} pathname */
const isPublicFile = (pathname) => publicEntries.has(pathname.split("/")[1] ?? "");

/** How much of a long download may wait in memory for the client: enough to keep the socket busy while the next chunk is read. */
const RESPONSE_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * Resolves when `res` can take more bytes: at once while less than
 * RESPONSE_BUFFER_BYTES wait to be sent, otherwise once they have gone (or
 * the client has). Remix writes a response body without waiting for the
 * socket, so a long download (the family's archive) awaits this between
 * chunks to go at the client's pace.
 * @param {import("node:http").ServerResponse} res
 * @returns {Promise<void>}
 */
function responseDrained(res) {
  if (res.writableLength < RESPONSE_BUFFER_BYTES || res.destroyed || !res.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

const handleRemixRequest = createFetchHandler(build, build.mode);

/**
 * What Remix's loaders and actions get besides the request.
 * @param {import("node:http").IncomingMessage} req
 * @param {LocalsResponse} res
 */
const getLoadContext = (req, res) => ({
  cspNonce: res.locals.cspNonce,
  clientIp: clientAddress({
    flyClientIp: /** @type {string | undefined} */ (req.headers["fly-client-ip"]),
    remoteAddress: req.socket.remoteAddress,
  }),
  visitorLocked: res.locals.visitorLocked,
  passcodeAskedFor: res.locals.passcodeAskedFor,
  responseDrained: () => responseDrained(res),
});

// Anonymous GETs of pages and public API reads, from a copy made under the
// current content version (docs/decisions/015-render-cache.md). Off with
// RENDER_CACHE=off.
/** @type {ReturnType<typeof createRenderCache> | undefined} */
let renderCache;
if (renderCacheOn) {
  if (!entry.contentVersion || !entry.renderCacheVariant || !entry.renderCacheVisit) {
    console.error("The build has no contentVersion, renderCacheVariant or renderCacheVisit (app/entry.server.tsx): refusing to start.");
    process.exit(1);
  }
  const { "Content-Security-Policy": _perResponse, ...baseHeaders } = securityHeaders("", { production, development, mediaSources });
  renderCache = createRenderCache({
    handleRequest: handleRemixRequest,
    getLoadContext,
    contentVersion: entry.contentVersion,
    variantOf: entry.renderCacheVariant,
    contentSecurityPolicy: (scriptHashes) => contentSecurityPolicy(null, { development, mediaSources, scriptHashes }),
    compress,
    skip: (pathname) => pathname.startsWith("/build/") || isPublicFile(pathname),
    baseHeaders,
  });
  app.use(renderCache);
}

app.use(compress);

app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
const publicFiles = express.static("public", { maxAge: "1h" });
app.use((req, res, next) => (isPublicFile(req.path) ? publicFiles(req, res, next) : next()));

/**
 * Remix's answer, as its Express adapter gives it (server/remix-request.mjs),
 * except that a page's HTML, which the entry rendered to one string, is sent
 * from that string rather than read back out of the response's stream.
 * @param {import("node:http").IncomingMessage} req
 * @param {LocalsResponse} res
 */
async function answerFromRemix(req, res) {
  const response = await handleRemixRequest(remixRequest(req, res), getLoadContext(req, res));
  await sendRemixResponse(res, response, entry.documentHtml?.(response));
}

app.all("*", (req, res, next) => answerFromRemix(req, res).catch(next));

// An address Express cannot even decode ("/media/%E0%A4%A") is the client's
// mistake: a plain 400 and one warning line, not an error with a stack.
app.use(
  /** @type {import("express").ErrorRequestHandler} */
  (error, req, res, next) => {
    const status = Number(error?.status ?? error?.statusCode ?? 500);
    if (status >= 500 || res.headersSent) return next(error);
    console.warn(
      JSON.stringify({
        time: new Date().toISOString(),
        level: "warn",
        method: req.method,
        path: pathOf(req.url),
        status,
        msg: String(error?.message ?? error),
      }),
    );
    res
      .status(status)
      .type("text/plain")
      .send(status === 400 ? "This address could not be read." : "This request could not be handled.");
  },
);

/**
 * Whether a request may go straight to Remix, past Express's router (its
 * middleware chain costs about a tenth of a page's CPU): a GET or HEAD
 * without a body, for an address Remix answers (not a public file, not the
 * signed-upload address) that Express could decode. It meets what it would
 * meet in the app above: the log line, the security headers, the visitor
 * gate, the render cache and compression (a GET is never a cross-origin
 * mutation). Everything else takes the app.
 * @param {import("node:http").IncomingMessage} req
 */
function forRemixAlone(req) {
  if ((req.method !== "GET" && req.method !== "HEAD") || req.headers["content-length"] || req.headers["transfer-encoding"]) return false;
  const path = pathOf(req.url);
  return path.startsWith("/") && !isPublicFile(path) && !path.toLowerCase().startsWith("/api/uploads/put/") && decodable(path);
}

/**
 * A request forRemixAlone lets through.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} plainRes
 */
function answerWithRemixAlone(req, plainRes) {
  const res = /** @type {LocalsResponse} */ (Object.assign(plainRes, { locals: {} }));
  logWhenAnswered(req, res);
  secure(res);
  /** @param {unknown} error */
  const failed = (error) => {
    console.error(error);
    if (res.headersSent) return res.destroy(/** @type {Error} */ (error));
    res.statusCode = 500;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end("Internal Server Error");
  };
  const render = () =>
    compress(/** @type {import("express").Request} */ (req), /** @type {import("express").Response} */ (res), () =>
      answerFromRemix(req, res).catch(failed),
    );
  visitorGate(req, res, (/** @type {unknown} */ error) => {
    if (error) return failed(error);
    if (!renderCache) return render();
    renderCache(req, res, (/** @type {unknown} */ error) => (error ? failed(error) : render()));
  });
}

const port = Number(process.env.PORT || 3000);
// No cap on a request's total time, an idle timeout instead (server/timeouts.mjs).
// A copy from the render cache goes out straight away, ahead of Express: a
// crowd's requests are almost all these, and the middleware chain costs more
// than sending the copy (the cache sets the same headers). Other page and API
// reads go to Remix past Express's router (forRemixAlone), with the same
// handlers on the way. Forms, uploads, files and everything else go through
// Express.
const cacheFirst = renderCache;
const visitOf = entry.renderCacheVisit;
/** @type {import("node:http").RequestListener} */
const uncached = (req, res) => (forRemixAlone(req) ? answerWithRemixAlone(req, res) : app(req, res));
/** @type {import("node:http").RequestListener} */
const listener =
  cacheFirst && visitOf
    ? (req, res) => {
        const started = process.hrtime.bigint();
        cacheFirst.serveFromCache(req, res, visitOf).then(
          (served) => {
            if (served) logRequest("GET", pathOf(req.url), res.statusCode, started);
            else uncached(req, res);
          },
          (error) => {
            if (res.headersSent) return res.destroy(error);
            uncached(req, res);
          },
        );
      }
    : uncached;
const server = http.createServer(serverTimeoutOptions(timeouts), listener);
applyTimeouts(server, timeouts);
// The configured admin exists before the first answer (one password hash), so
// a login sent as soon as the site answers works.
await entry.prepareAdmins?.();
server.listen(port, () => {
  console.log(`Memorial site listening on http://localhost:${port}`);
  // Session sweeping and media maintenance.
  entry.startBackgroundWork?.().catch((error) => console.error(error));
  // Under `npm run dev`, tell the Remix dev server this build is live.
  if (process.env.REMIX_DEV_ORIGIN) import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
});

let shuttingDown = false;
/** @param {NodeJS.Signals} signal */
function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal} received: finishing requests in flight, then stopping`);
  const stop = () => {
    entry.closeDatabase?.();
    process.exit(0);
  };
  server.close(stop);
  server.closeIdleConnections();
  setTimeout(() => {
    server.closeAllConnections();
    stop();
  }, 10_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
