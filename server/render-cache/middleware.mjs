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
import { promisify } from "node:util";
import zlib from "node:zlib";
import { pathOf } from "../request-log.mjs";
import {
  addressKey,
  CDN_BRIEFLY,
  cacheRequest,
  chooseEncoding,
  etagMatches,
  etagOf,
  ownScripts,
  PRIVATE_REVALIDATE,
  sendRendered,
  SHARED_BRIEFLY,
} from "./http.mjs";
import { EntryStore, RENDER_CACHE_LIMITS } from "./store.mjs";

/**
 * @typedef {import("./store.mjs").Entry} Entry
 * @typedef {import("../../app/server/site-hooks.server").RenderCacheHooks} RenderCacheHooks
 * @typedef {import("express").Request} Req
 * @typedef {import("express").Response} Res
 */

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Nothing compresses answers smaller than this (Express's compression does the same). */
const COMPRESS_FROM_BYTES = 1024;
/** Rendered text worth keeping: pages and JSON. Files, images and streams go by as they are. */
const KEPT_TYPES = /^(?:text\/html|application\/json)\b/i;
/** Headers of the rendered answer that the copy does not keep: it sets its own, or they belong to one connection. */
const NOT_KEPT = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "date",
  "etag",
  "vary",
  "cache-control",
  "content-security-policy",
  "set-cookie",
]);

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

/** @param {Record<string, string> | [string, string][]} headers */
const flat = (headers) => (Array.isArray(headers) ? headers : Object.entries(headers)).flat();

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
 * The cache: Express middleware, mounted after the visitor gate (whose
 * verdict is part of the variant) and before compression, with
 * `serveFromCache` for the Node server to try before Express.
 * @param {RenderCacheOptions} options
 */
export function createRenderCache(options) {
  const { hooks } = options;
  const limits = { ...RENDER_CACHE_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const store = new EntryStore(limits);
  /** One render per address, variant and version at a time: others asking meanwhile wait for it. @type {Map<string, Promise<Entry | null>>} */
  const rendering = new Map();

  /**
   * @param {Req} req
   * @param {Res} res
   * @param {Entry} entry
   * @param {"hit" | "miss"} outcome
   */
  function sendEntry(req, res, entry, outcome) {
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader("X-Render-Cache", outcome);
    if (etagMatches(req.headers["if-none-match"], entry.etag)) {
      res.statusCode = 304;
      res.removeHeader("Content-Type");
      res.end();
      return;
    }
    const encoding = chooseEncoding(req.headers["accept-encoding"], entry);
    const body = encoding === "identity" ? entry.identity : /** @type {Buffer} */ (entry[encoding]);
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.statusCode = 200;
    res.end(body);
  }

  /**
   * The copy to keep of a rendered answer, or null when it must not be
   * shared: not a 200, sets a cookie, says it is private, too big, or the
   * content changed while it was rendered.
   * @param {Res} res
   * @param {Response} response
   * @param {Buffer} body
   * @param {string[]} hashes
   * @param {string} version
   * @param {number} renderedAt
   * @returns {Promise<Entry | null>}
   */
  async function keep(res, response, body, hashes, version, renderedAt) {
    const ownCacheControl = response.headers.get("Cache-Control");
    if (
      response.status !== 200 ||
      response.headers.has("Set-Cookie") ||
      (ownCacheControl && /\bprivate\b/i.test(ownCacheControl)) ||
      body.length > limits.maxEntryBytes ||
      hooks.contentVersion() !== version
    ) {
      return null;
    }
    /** @type {[string, string][]} */
    const headers = [];
    for (const [name, value] of response.headers) if (!NOT_KEPT.has(name.toLowerCase())) headers.push([name, value]);
    const etag = etagOf(body);
    // The route's own choice stands (no-store on form pages); otherwise a public memorial whose address is fixed lets shared caches help briefly.
    const sharable = res.locals.visibility === "public" && hooks.sharedCachesAllowed();
    const shared = !ownCacheControl && sharable;
    // A form page's no-store is for browsers (Back fetches it afresh, never a sent form refilled); this
    // copy is the same for every visitor, so a CDN may still hold it briefly: the guest book is the
    // page a crowd is sent to. Its answers to a form or with a toast are never kept, so never marked.
    const cdnToo = shared || (sharable && ownCacheControl === "no-store");
    headers.push(
      ["Cache-Control", ownCacheControl ?? (shared ? SHARED_BRIEFLY : PRIVATE_REVALIDATE)],
      ...(cdnToo ? [/** @type {[string, string]} */ (["CDN-Cache-Control", CDN_BRIEFLY])] : []),
      ["Vary", "Accept-Encoding, Cookie"],
      ["ETag", etag],
      ["Content-Security-Policy", options.contentSecurityPolicy(hashes)],
    );
    const compress = body.length >= COMPRESS_FROM_BYTES;
    const [gzipped, brotlied] = compress
      ? await Promise.all([
          gzip(body, { level: 6 }),
          // Quality 5 is as small as 9 on these pages at a twentieth of the CPU (0.6 ms for the guest book, 9.5 ms at 9).
          brotli(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        ])
      : [undefined, undefined];
    const base = [...flat(options.baseHeaders ?? {}), ...flat(headers), "X-Render-Cache", "hit"];
    /** @param {string | null} encoding @param {Buffer} bytes */
    const rawFor = (encoding, bytes) => [
      ...base,
      ...(encoding ? ["Content-Encoding", encoding] : []),
      "Content-Length",
      String(bytes.length),
    ];
    return {
      version,
      renderedAt,
      headers,
      etag,
      identity: body,
      gzip: gzipped,
      br: brotlied,
      bytes: body.length + (gzipped?.length ?? 0) + (brotlied?.length ?? 0),
      raw: {
        identity: rawFor(null, body),
        gzip: gzipped && rawFor("gzip", gzipped),
        br: brotlied && rawFor("br", brotlied),
        notModified: [
          ...flat(options.baseHeaders ?? {}),
          ...flat(headers.filter(([name]) => name.toLowerCase() !== "content-type")),
          "X-Render-Cache",
          "hit",
        ],
      },
    };
  }

  /**
   * An answer that is not kept, sent as Remix made it (compressed as usual),
   * with the policy of the app's own inline scripts when it is a page.
   * @param {Req} req
   * @param {Res} res
   * @param {Response} response
   * @param {Buffer | null} body
   * @param {string[] | null} hashes
   * @returns {Promise<void>}
   */
  function sendUnkept(req, res, response, body, hashes) {
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
   * @param {string} key
   * @param {string} version
   */
  function lookup(key, version) {
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
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   */
  async function serveFromCache(req, res) {
    const h = req.headers;
    if (req.method !== "GET" || h.range || h["content-length"] || h["transfer-encoding"]) return false;
    const url = req.url ?? "";
    if (!url.startsWith("/") || options.skip?.(pathOf(url)) || options.unreadable?.(req)) return false;
    const visit = await hooks.visitOf(req);
    if (!visit) return false;
    const cached = lookup(`${visit.variant}\n${addressKey(req)}`, visit.version);
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
   * @param {Req} req @param {Res} res @param {string} key @param {string} version
   * @param {(entry: Entry | null) => void} settle tells visitors waiting for this render what it kept
   */
  async function render(req, res, key, version, settle) {
    const renderedAt = now();
    // A throwaway nonce marks the app's own scripts (see ownScripts).
    const marker = randomBytes(16).toString("base64");
    const response = await options.handleRequest(cacheRequest(req), { ...options.getLoadContext(req, res), cspNonce: marker });
    const type = response.headers.get("Content-Type") ?? "";
    if (!KEPT_TYPES.test(type)) {
      settle(null);
      return sendUnkept(req, res, response, null, null);
    }
    let body = Buffer.from(await response.arrayBuffer());
    /** @type {string[]} */
    let hashes = [];
    if (/^text\/html/i.test(type)) {
      const page = ownScripts(body.toString("utf8"), marker);
      body = Buffer.from(page.html);
      hashes = page.hashes;
    }
    const entry = await keep(res, response, body, hashes, version, renderedAt);
    settle(entry);
    if (!entry) return sendUnkept(req, res, response, body, hashes);
    store.set(key, entry);
    sendEntry(req, res, entry, "miss");
  }

  /**
   * The cache's part of a request's handling.
   * @type {import("express").RequestHandler}
   */
  async function renderCache(req, res, next) {
    if (req.method !== "GET" || req.headers.range || options.skip?.(req.path)) return next();
    try {
      const variant = await hooks.variantOf(req, res);
      if (variant === null) return next();
      const key = `${variant}\n${addressKey(req)}`;
      const version = hooks.contentVersion();
      const cached = lookup(key, version);
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
        await render(req, res, key, version, settle);
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

  return Object.assign(renderCache, { store, serveFromCache });
}
