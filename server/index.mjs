// @ts-check
// The HTTP server: security headers and the cross-origin check for the whole
// app, static files, one log line per request, graceful shutdown; everything
// else is the Remix build.
// First, before Remix is imported: route matching remembered per address, and
// each request's data loaded and rendered from the routes it matched.
import "./remix-fast-paths.mjs";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler as createFetchHandler } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { createRenderCache, renderCacheFromEnv } from "./render-cache.mjs";
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

app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  // As asked for: the visitor gate may hand a page's request to the passcode page.
  const { method, path } = req;
  res.on("finish", () => logRequest(method, path, res.statusCode, started));
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

app.use((req, res, next) => {
  const nonce = createNonce();
  res.locals.cspNonce = nonce;
  for (const [name, value] of securityHeadersWith(nonce)) res.setHeader(name, value);
  next();
});

/**
 * What the build's entry module adds for this server.
 * @typedef {object} EntryExtras
 * @property {import("express").RequestHandler} [visitorGate]
 * @property {import("express").RequestHandler} [handleDiskPut]
 * @property {() => Promise<void>} [prepareAdmins]
 * @property {() => Promise<void>} [startBackgroundWork]
 * @property {() => void} [closeDatabase]
 * @property {() => string} [contentVersion]
 * @property {(req: import("express").Request, res: import("express").Response) => Promise<string | null>} [renderCacheVariant]
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
app.use(entry.visitorGate);

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
 * @param {import("express").Response} res
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
// The two halves of Remix's Express adapter (its module, which the package's index does not re-export).
/** @type {{ createRemixRequest: (req: import("express").Request, res: import("express").Response) => Request; sendRemixResponse: (res: import("express").Response, response: Response) => Promise<void> }} */
const { createRemixRequest, sendRemixResponse } = createRequire(import.meta.url)("@remix-run/express/dist/server.js");
if (typeof createRemixRequest !== "function" || typeof sendRemixResponse !== "function") {
  throw new Error("@remix-run/express no longer has createRemixRequest and sendRemixResponse: see server/index.mjs");
}

/** @type {import("@remix-run/express").GetLoadContextFunction} */
const getLoadContext = (req, res) => ({
  cspNonce: res.locals.cspNonce,
  clientIp: clientAddress({ flyClientIp: req.get("fly-client-ip"), remoteAddress: req.socket.remoteAddress }),
  visitorLocked: res.locals.visitorLocked,
  passcodeAskedFor: res.locals.passcodeAskedFor,
  responseDrained: () => responseDrained(res),
});

// Anonymous GETs of pages and public API reads, from a copy made under the
// current content version (docs/decisions/015-render-cache.md). Off with
// RENDER_CACHE=off.
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

// Remix's Express adapter, except that a page's HTML, which the entry
// rendered to one string, is sent from that string (with its length) rather
// than read back out of the response's stream.
app.all("*", async (req, res, next) => {
  try {
    const response = await handleRemixRequest(createRemixRequest(req, res), await getLoadContext(req, res));
    const html = entry.documentHtml?.(response);
    if (html === undefined || response.bodyUsed) return await sendRemixResponse(res, response);
    res.statusMessage = response.statusText;
    res.status(response.status);
    for (const [name, value] of response.headers) res.append(name, value);
    // Encoded once, with its length: a string would be measured by the
    // compression middleware and again by Node before being encoded to send.
    const body = Buffer.from(html);
    res.setHeader("Content-Length", body.length);
    res.end(body);
  } catch (error) {
    next(error);
  }
});

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
        path: req.url.split("?")[0],
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

const port = Number(process.env.PORT || 3000);
// No cap on a request's total time, an idle timeout instead (server/timeouts.mjs).
// A copy from the render cache goes out straight away, ahead of Express: a
// crowd's requests are almost all these, and the middleware chain costs more
// than sending the copy (the cache sets the same headers). Anything else, and
// every request on a private memorial, goes through Express.
const cacheFirst = renderCache;
const visitOf = entry.renderCacheVisit;
/** @type {import("node:http").RequestListener} */
const listener =
  cacheFirst && visitOf
    ? (req, res) => {
        const started = process.hrtime.bigint();
        cacheFirst.serveFromCache(req, res, visitOf).then(
          (served) => {
            if (served) logRequest("GET", (req.url ?? "").split("?")[0] ?? "", res.statusCode, started);
            else app(req, res);
          },
          (error) => {
            if (res.headersSent) return res.destroy(error);
            app(req, res);
          },
        );
      }
    : app;
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
