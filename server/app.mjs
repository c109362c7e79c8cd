// @ts-check
// The site's one request pipeline (docs/decisions/019-one-request-pipeline.md),
// an Express app in the Epic Stack's shape:
//   log → security headers → visitor gate → readable address → origin check
//   → disk PUT → render cache → compression → static files → Remix.
// Only a copy from the render cache may answer before it (server/index.mjs).
import { readdirSync } from "node:fs";
import { createRequestHandler } from "@remix-run/express";
import { createRequestHandler as createFetchHandler } from "@remix-run/node";
import compression from "compression";
import express from "express";
import onHeaders from "on-headers";
import { clientGoneSignal } from "./client-gone.mjs";
import { createRenderCache } from "./render-cache/middleware.mjs";
import { addressProblem, refuseUnreadableAddress } from "./request-address.mjs";
import { loggedPath, logWhenAnswered, warnLine } from "./request-log.mjs";
import {
  clientAddress,
  contentSecurityPolicy,
  createNonce,
  isCrossOriginMutation,
  securityHeaders,
  securityHeadersFor,
} from "./security.mjs";

/** What is not the anonymous public answer is kept by no cache: an admin's page, a visitor's own (decision 010). */
const NOT_KEPT_ANYWHERE = "private, no-store";

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

/**
 * @typedef {object} SiteOptions
 * @property {import("@remix-run/node").ServerBuild} build
 * @property {import("../app/server/site-hooks.server").SiteHooks} hooks
 * @property {boolean} production
 * @property {boolean} development
 * @property {string[]} mediaSources where else media lives (an S3 bucket)
 * @property {boolean} renderCache off with RENDER_CACHE=off
 */

/**
 * The Express app, and the render cache's fast path when the cache is on.
 * @param {SiteOptions} options
 */
export function createSiteApp({ build, hooks, production, development, mediaSources, renderCache: cacheOn }) {
  const app = express();
  app.disable("x-powered-by");
  // Fly's proxy terminates TLS and tells us the original protocol and client.
  app.set("trust proxy", true);

  app.use((req, res, next) => {
    logWhenAnswered(req, res);
    next();
  });

  // A request answered before its whole body arrived (a refusal: too large, of
  // the wrong type, from another site) must not leave the rest of that body in
  // the connection, where the browser's next request would wait behind it:
  // the answer says "Connection: close" and the rest is discarded.
  app.use((req, res, next) => {
    onHeaders(res, () => {
      if (!req.complete) res.setHeader("Connection", "close");
    });
    res.on("finish", () => {
      if (req.complete || req.destroyed) return;
      req.removeAllListeners("data");
      req.resume();
    });
    next();
  });

  const headersWith = securityHeadersFor({ production, development, mediaSources });
  app.use((_req, res, next) => {
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    for (const [name, value] of headersWith(nonce)) res.setHeader(name, value);
    // An answer that says nothing of caching is someone's own (an admin's page, a form's result).
    onHeaders(res, () => {
      if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", NOT_KEPT_ANYWHERE);
    });
    next();
  });

  // The family's privacy setting, ahead of everything that answers, so nothing
  // slips past it and every answer carries its robots header (decision 010).
  app.use(hooks.visitorGate);

  app.use(refuseUnreadableAddress);

  app.use((req, res, next) => {
    const refused = isCrossOriginMutation({
      method: req.method,
      host: req.get("host"),
      protocol: req.protocol,
      path: req.path,
      origin: req.get("origin"),
      referer: req.get("referer"),
    });
    if (!refused) return next();
    res.status(403);
    if (req.path.startsWith("/api/")) res.json({ errors: { origin: ["Cross-origin requests are not allowed."] } });
    else res.type("text/plain").send("This form must be sent from this website. Please go back, reload the page and try again.");
  });

  // Signed uploads to the local disk stream from the socket straight to the
  // file; other methods there get the API's 405.
  app.all("/api/uploads/put/*", hooks.handleDiskPut);

  /** @param {import("express").Request} req @param {import("express").Response} res */
  const getLoadContext = (req, res) => ({
    cspNonce: res.locals.cspNonce,
    clientIp: clientAddress({ flyClientIp: req.get("fly-client-ip"), remoteAddress: req.socket.remoteAddress }),
    visitorLocked: res.locals.visitorLocked,
    passcodeAskedFor: res.locals.passcodeAskedFor,
    responseDrained: () => responseDrained(res),
    clientGone: clientGoneSignal(res),
  });

  // Only paths under public/'s own entries look at the disk: a page request
  // goes straight to Remix instead of waiting for a file lookup that cannot succeed.
  const publicEntries = new Set(readdirSync("public"));
  /** @param {string} pathname */
  const isPublicFile = (pathname) => publicEntries.has(pathname.split("/")[1] ?? "");

  const compress = compression();
  let cache;
  if (cacheOn) {
    // Anonymous GETs of pages and public API reads, from a copy made under the
    // current content version (docs/decisions/015-render-cache.md).
    const { "Content-Security-Policy": _perResponse, ...baseHeaders } = securityHeaders("", { production, development, mediaSources });
    cache = createRenderCache({
      handleRequest: createFetchHandler(build, build.mode),
      getLoadContext,
      hooks: hooks.renderCache,
      contentSecurityPolicy: (scriptHashes) => contentSecurityPolicy(null, { development, mediaSources, scriptHashes }),
      compress,
      skip: (pathname) => pathname.startsWith("/build/") || isPublicFile(pathname),
      unreadable: (req) => addressProblem(req) !== null,
      baseHeaders,
    });
    app.use(cache);
  }

  app.use(compress);
  // Fingerprinted build assets never change; other public files may.
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  const publicFiles = express.static("public", { maxAge: "1h" });
  app.use((req, res, next) => (isPublicFile(req.path) ? publicFiles(req, res, next) : next()));

  app.all("*", createRequestHandler({ build, mode: build.mode, getLoadContext }));

  // Anything else the client got wrong is a plain 4xx and one warning line, not an error with a stack.
  app.use(
    /** @type {import("express").ErrorRequestHandler} */
    (error, req, res, next) => {
      const status = Number(error?.status ?? error?.statusCode ?? 500);
      if (status >= 500 || res.headersSent) return next(error);
      warnLine({ method: req.method, path: loggedPath(req.url), status, msg: String(error?.message ?? error) });
      res
        .status(status)
        .type("text/plain")
        .send(status === 400 ? "This address could not be read." : "This request could not be handled.");
    },
  );

  return { app, serveFromCache: cache?.serveFromCache };
}
