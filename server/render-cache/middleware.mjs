// @ts-check
// The render cache (docs/decisions/015-render-cache.md, 019): anonymous GETs
// of pages and public API reads are answered from a copy of what Remix
// rendered for the same address and variant, kept compressed (gzip and
// brotli, made once per copy), as long as nothing visitors can see has
// changed since (the app's content version) and for at most a minute.
//
// Copies hold no CSP nonce: they are rendered with a throwaway one marking
// the app's own scripts, which the policy then allows by their SHA-256, so
// the bytes need no rewriting per response and can be kept compressed.
import { randomBytes } from "node:crypto";
import { pathOf } from "../request-log.mjs";
import { keep, sendEntry } from "./entry.mjs";
import { addressKey, cacheRequest, chooseEncoding, etagMatches, ownScripts, sendRendered } from "./http.mjs";
import { EntryStore, RENDER_CACHE_LIMITS } from "./store.mjs";

/**
 * @typedef {import("./store.mjs").Entry} Entry
 * @typedef {import("../../app/server/site-hooks.server").RenderCacheHooks} RenderCacheHooks
 * @typedef {import("express").Request} Req
 * @typedef {import("express").Response} Res
 */

/** Rendered text worth keeping: pages and JSON. Files, images and streams go by as they are. */
const KEPT_TYPES = /^(?:text\/html|application\/json)\b/i;

/**
 * Whether the cache runs: on unless RENDER_CACHE=off (the bench's uncached
 * measurement). An Error names the variable when its value is not understood.
 * @param {Record<string, string | undefined>} env
 */
export function renderCacheFromEnv(env) {
  const raw = env.RENDER_CACHE?.trim().toLowerCase();
  if (!raw || raw === "on") return true;
  if (raw === "off") return false;
  throw new Error(`Invalid configuration:\n  RENDER_CACHE: must be "on" or "off" (got "${env.RENDER_CACHE}")`);
}

/**
 * @typedef {object} RenderCacheOptions
 * @property {(request: Request, loadContext: Record<string, unknown>) => Promise<Response>} handleRequest Remix's handler (@remix-run/node)
 * @property {(req: Req, res: Res) => Record<string, unknown>} getLoadContext
 * @property {RenderCacheHooks} hooks what the app says of its content and visitors
 * @property {(hashes: string[]) => string} contentSecurityPolicy the policy allowing these inline scripts
 * @property {import("express").RequestHandler} compress compression for answers that are not kept
 * @property {(pathname: string) => boolean} [skip] addresses answered by something else than Remix (static files)
 * @property {(req: import("node:http").IncomingMessage) => boolean} [unreadable] requests Express refuses (server/request-address.mjs)
 * @property {Record<string, string>} [baseHeaders] the security headers every answer carries but the CSP (the fast path sets them)
 * @property {Partial<typeof RENDER_CACHE_LIMITS>} [limits]
 * @property {() => number} [now]
 */

/**
 * One cache's state, which every function below takes first.
 * @typedef {object} Cache
 * @property {RenderCacheOptions} options
 * @property {RenderCacheHooks} hooks
 * @property {typeof RENDER_CACHE_LIMITS} limits
 * @property {() => number} now
 * @property {EntryStore} store
 * @property {Map<string, Promise<Entry | null>>} rendering one render per address, variant and version at a time: others asking meanwhile wait for it
 */

/**
 * The cache: Express middleware, mounted after the visitor gate (whose
 * verdict is part of the variant) and before compression, with
 * `serveFromCache` for the Node server to try before Express.
 * @param {RenderCacheOptions} options
 */
export function createRenderCache(options) {
  const limits = { ...RENDER_CACHE_LIMITS, ...options.limits };
  /** @type {Cache} */
  const cache = {
    options,
    hooks: options.hooks,
    limits,
    now: options.now ?? Date.now,
    store: new EntryStore(limits),
    rendering: new Map(),
  };
  /** @type {import("express").RequestHandler} */
  const middleware = (req, res, next) => void renderCache(cache, req, res, next);
  return Object.assign(middleware, {
    store: cache.store,
    /** @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res */
    serveFromCache: (req, res) => serveFromCache(cache, req, res),
  });
}

/**
 * An answer that is not kept, sent as Remix made it (compressed as usual),
 * with the policy of the app's own inline scripts when it is a page.
 * @param {Cache} cache
 * @param {Req} req
 * @param {Res} res
 * @param {Response} response
 * @param {Buffer | null} body
 * @param {string[] | null} hashes
 * @returns {Promise<void>}
 */
function sendUnkept({ options }, req, res, response, body, hashes) {
  return new Promise((resolve, reject) => {
    options.compress(req, res, () => {
      if (hashes) res.setHeader("Content-Security-Policy", options.contentSecurityPolicy(hashes));
      sendRendered(res, response, body).then(resolve, reject);
    });
  });
}

/**
 * The copy for this key, if it was made under this version less than the
 * time limit ago.
 * @param {Cache} cache
 * @param {string} key
 * @param {string} version
 */
function lookup({ store, now, limits }, key, version) {
  const cached = store.get(key);
  if (!cached) return undefined;
  if (cached.version === version && now() - cached.renderedAt < limits.ttlMs) return cached;
  store.delete(key);
  return undefined;
}

/**
 * The fast path, for the Node server to try before Express: a GET that
 * would be answered from a copy is answered here, with the headers the
 * middleware chain would have set, precomputed once per copy. Resolves
 * false, having sent nothing, for anything else (Express then handles the
 * request as usual, this cache's middleware included).
 * @param {Cache} cache
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
async function serveFromCache(cache, req, res) {
  const { options, hooks } = cache;
  const h = req.headers;
  if (req.method !== "GET" || h.range || h["content-length"] || h["transfer-encoding"]) return false;
  const url = req.url ?? "";
  if (!url.startsWith("/") || options.skip?.(pathOf(url)) || options.unreadable?.(req)) return false;
  const visit = await hooks.visitOf(req);
  if (!visit) return false;
  const cached = lookup(cache, `${visit.variant}\n${addressKey(req)}`, visit.version);
  if (!cached) return false;
  const fresh = etagMatches(h["if-none-match"], cached.etag);
  const raw = fresh ? cached.raw.notModified : /** @type {string[]} */ (cached.raw[chooseEncoding(h["accept-encoding"], cached)]);
  res.writeHead(fresh ? 304 : 200, visit.robots ? [...raw, "X-Robots-Tag", visit.robots] : raw);
  if (fresh) res.end();
  else res.end(raw === cached.raw.identity ? cached.identity : raw === cached.raw.gzip ? cached.gzip : cached.br);
  return true;
}

/**
 * Renders the answer for `key` and keeps it when it may be shared; sends
 * it either way.
 * @param {Cache} cache @param {Req} req @param {Res} res @param {string} key @param {string} version
 * @param {(entry: Entry | null) => void} settle tells visitors waiting for this render what it kept
 */
async function render(cache, req, res, key, version, settle) {
  const { options } = cache;
  const renderedAt = cache.now();
  // A throwaway nonce marks the app's own scripts (see ownScripts).
  const marker = randomBytes(16).toString("base64");
  const response = await options.handleRequest(cacheRequest(req), { ...options.getLoadContext(req, res), cspNonce: marker });
  const type = response.headers.get("Content-Type") ?? "";
  if (!KEPT_TYPES.test(type)) {
    settle(null);
    return sendUnkept(cache, req, res, response, null, null);
  }
  let body = Buffer.from(await response.arrayBuffer());
  /** @type {string[]} */
  let hashes = [];
  if (/^text\/html/i.test(type)) {
    const page = ownScripts(body.toString("utf8"), marker);
    body = Buffer.from(page.html);
    hashes = page.hashes;
  }
  const entry = await keep({ options, hooks: cache.hooks, limits: cache.limits, res, response, body, hashes, version, renderedAt });
  settle(entry);
  if (!entry) return sendUnkept(cache, req, res, response, body, hashes);
  cache.store.set(key, entry);
  sendEntry(req, res, entry, "miss");
}

/**
 * The cache's part of a request's handling.
 * @param {Cache} cache @param {Req} req @param {Res} res @param {import("express").NextFunction} next
 */
async function renderCache(cache, req, res, next) {
  const { options, hooks, rendering } = cache;
  if (req.method !== "GET" || req.headers.range || options.skip?.(req.path)) return next();
  try {
    const variant = await hooks.variantOf(req, res);
    if (variant === null) return next();
    const key = `${variant}\n${addressKey(req)}`;
    const version = hooks.contentVersion();
    const cached = lookup(cache, key, version);
    if (cached) return sendEntry(req, res, cached, "hit");
    const flightKey = `${version}\n${key}`;
    const inFlight = rendering.get(flightKey);
    if (inFlight) {
      const shared = await inFlight;
      if (shared) return sendEntry(req, res, shared, "hit");
    }
    /** @type {(entry: Entry | null) => void} */
    let settle = () => {};
    const flight = new Promise((resolve) => (settle = resolve));
    rendering.set(flightKey, /** @type {Promise<Entry | null>} */ (flight));
    try {
      await render(cache, req, res, key, version, settle);
    } finally {
      settle(null);
      if (rendering.get(flightKey) === flight) rendering.delete(flightKey);
    }
  } catch (error) {
    if (res.headersSent) {
      res.destroy(/** @type {Error} */ (error));
      return;
    }
    next(error);
  }
}
