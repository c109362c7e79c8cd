// @ts-check
// The render cache (docs/decisions/015-render-cache.md): anonymous GETs of
// pages and public API reads are answered from a copy of what Remix rendered
// for the same address and variant, kept compressed (gzip and brotli, made
// once per copy), as long as nothing visitors can see has changed since
// (the app's content version) and for at most a minute (relative times such
// as "about 2 hours ago").
//
// Copies hold no CSP nonce: what this cache renders is rendered without one,
// and its Content-Security-Policy allows the page's own inline scripts by
// their SHA-256, computed once per copy, so the bytes need no rewriting per
// response and can be kept compressed.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { writeReadableStreamToWritable } from "@remix-run/node";
import { decodable, pathOf, remixHeaders, remixUrl, writeRemixHead } from "./remix-request.mjs";

/** @typedef {import("./remix-request.mjs").LocalsResponse} LocalsResponse @typedef {import("./remix-request.mjs").NodeMiddleware} NodeMiddleware */

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export const RENDER_CACHE_LIMITS = Object.freeze({
  /** Copies kept at once (least recently used go first). */
  maxEntries: 1000,
  /** Bytes all copies may take together, every encoding counted. */
  maxBytes: 64 * 1024 * 1024,
  /** A bigger answer is sent but not kept. */
  maxEntryBytes: 1024 * 1024,
  /** The oldest a copy may be: the clock moves what pages say ("about 2 hours ago", the service being over). */
  ttlMs: 60_000,
});

/**
 * Public pages on a public memorial: a shared cache in front (Fly's proxy, a
 * CDN) may answer with a copy up to 5 s old; browsers always ask again (with
 * the ETag, so mostly a 304).
 */
export const SHARED_BRIEFLY = "public, max-age=0, s-maxage=5";
/**
 * And a CDN may go on answering with it for 30 s more while it asks again.
 * Not in Cache-Control: browsers apply stale-while-revalidate to their own
 * cache too (Chrome, Firefox), so a visitor's next page could show what the
 * family had just changed. CDN-Cache-Control (RFC 9213) is read by CDNs only.
 */
export const CDN_BRIEFLY = "max-age=5, stale-while-revalidate=30";
/** Unlisted and private memorials: only the visitor's own browser keeps a copy, and asks again before using it. */
export const PRIVATE_REVALIDATE = "private, no-cache";

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

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SRC_ATTRIBUTE = /(?:^|\s)src\s*=/i;

/**
 * The CSP sources ('sha256-…') allowing exactly the inline scripts of this
 * document. A script's text is hashed as it stands between its tags, as the
 * browser does.
 * @param {string} html
 * @returns {string[]}
 */
export function inlineScriptHashes(html) {
  const hashes = new Set();
  for (const [, attributes = "", text = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (SRC_ATTRIBUTE.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * The encoding to send, of those a copy has: brotli, then gzip, then none,
 * as the client's Accept-Encoding allows (q=0 refuses; * stands for the rest).
 * @param {string | undefined} acceptEncoding
 * @param {{ br?: unknown; gzip?: unknown }} available
 * @returns {"br" | "gzip" | "identity"}
 */
export function chooseEncoding(acceptEncoding, available) {
  if (!acceptEncoding) return "identity";
  /** @type {Record<string, number>} */
  const q = {};
  for (const part of acceptEncoding.split(",")) {
    const [token = "", ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q[token.trim()] = Number.isFinite(value) ? value : 0;
  }
  const weight = (/** @type {string} */ name) => q[name] ?? q["*"] ?? 0;
  const br = available.br ? weight("br") : 0;
  const gz = available.gzip ? weight("gzip") : 0;
  if (br > 0 && br >= gz) return "br";
  if (gz > 0) return "gzip";
  return "identity";
}

/**
 * Whether If-None-Match names this ETag (weak comparison, as for GET).
 * @param {string | string[] | undefined} ifNoneMatch
 * @param {string} etag
 */
export function etagMatches(ifNoneMatch, etag) {
  if (!ifNoneMatch) return false;
  const value = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(",") : ifNoneMatch;
  if (value.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  return value.split(",").some((tag) => tag.trim().replace(/^W\//, "") === opaque);
}

/**
 * @typedef {object} Entry
 * @property {string} version the content version it was rendered under
 * @property {number} renderedAt
 * @property {[string, string][]} headers
 * @property {string} etag
 * @property {Buffer} identity
 * @property {Buffer | undefined} gzip
 * @property {Buffer | undefined} br
 * @property {number} bytes
 * @property {{ identity: string[]; gzip?: string[]; br?: string[]; notModified: string[] }} raw
 *   every header of an answer from the fast path, security headers included, as writeHead takes them
 */

/** Least recently used copies go first, by count and by bytes. */
export class EntryStore {
  /** @param {{ maxEntries: number; maxBytes: number }} limits */
  constructor(limits) {
    this.limits = limits;
    /** @type {Map<string, Entry>} */
    this.entries = new Map();
    this.bytes = 0;
  }

  /** @param {string} key */
  get(key) {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** @param {string} key @param {Entry} entry */
  set(key, entry) {
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.delete(oldest);
    }
  }

  /** @param {string} key */
  delete(key) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** @param {string | string[] | undefined} value */
const first = (value) => (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim() ?? "";

/**
 * Everything of the request's address as Remix will read it (the scheme and
 * host, forwarded by a proxy or not, and the path and query), for the key.
 * @param {import("node:http").IncomingMessage & { originalUrl?: string }} req
 */
function addressKey(req) {
  const h = req.headers;
  const encrypted = /** @type {{ encrypted?: boolean }} */ (req.socket).encrypted ? "https" : "http";
  return `${first(h["x-forwarded-proto"]) || encrypted} ${first(h["x-forwarded-host"])} ${h.host ?? ""} ${req.originalUrl ?? req.url}`;
}

/** @param {Record<string, string> | [string, string][]} headers */
const flat = (headers) => (Array.isArray(headers) ? headers : Object.entries(headers)).flat();

/**
 * The request Remix gets, built as @remix-run/express builds it
 * (server/remix-request.mjs), without an abort signal: one render may answer
 * several visitors.
 * @param {import("node:http").IncomingMessage} req
 */
const remixRequest = (req) => new Request(remixUrl(req).href, { method: "GET", headers: remixHeaders(req.headers) });

/**
 * @typedef {object} RenderCacheOptions
 * @property {(request: Request, loadContext: Record<string, unknown>) => Promise<Response>} handleRequest Remix's handler (@remix-run/node)
 * @property {(req: import("node:http").IncomingMessage, res: LocalsResponse) => Record<string, unknown> | Promise<Record<string, unknown>>} getLoadContext
 * @property {() => string} contentVersion the app's content version (app/db.server.ts)
 * @property {(req: import("node:http").IncomingMessage, res: LocalsResponse) => Promise<string | null>} variantOf what besides the address changes the answer; null: this visitor's own
 * @property {(hashes: string[]) => string} contentSecurityPolicy the policy allowing these inline scripts
 * @property {NodeMiddleware} compress compression for answers that are not kept
 * @property {(pathname: string) => boolean} [skip] addresses answered by something else than Remix (static files)
 * @property {Record<string, string>} [baseHeaders] the security headers every answer carries but the CSP (the fast path sets them)
 * @property {Partial<typeof RENDER_CACHE_LIMITS>} [limits]
 * @property {() => number} [now]
 */

/**
 * The cache as Express middleware, mounted after the visitor gate (whose
 * verdict is part of the variant) and before compression.
 * @param {RenderCacheOptions} options
 */
export function createRenderCache(options) {
  const limits = { ...RENDER_CACHE_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const store = new EntryStore(limits);
  /** One render per address, variant and version at a time: others asking meanwhile wait for it. @type {Map<string, Promise<Entry | null>>} */
  const rendering = new Map();

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {LocalsResponse} res
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
   * @param {LocalsResponse} res
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
      options.contentVersion() !== version
    ) {
      return null;
    }
    /** @type {[string, string][]} */
    const headers = [];
    for (const [name, value] of response.headers) if (!NOT_KEPT.has(name.toLowerCase())) headers.push([name, value]);
    const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    // The route's own choice stands (no-store on form pages); otherwise a public memorial lets shared caches help briefly.
    const shared = !ownCacheControl && res.locals.visibility === "public";
    headers.push(
      ["Cache-Control", ownCacheControl ?? (shared ? SHARED_BRIEFLY : PRIVATE_REVALIDATE)],
      ...(shared ? [/** @type {[string, string]} */ (["CDN-Cache-Control", CDN_BRIEFLY])] : []),
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
   * with the policy of its inline scripts when it is a page.
   * @param {import("node:http").IncomingMessage} req
   * @param {LocalsResponse} res
   * @param {Response} response
   * @param {Buffer | null} body
   * @param {string[] | null} hashes
   */
  function sendUnkept(req, res, response, body, hashes) {
    return new Promise((resolve, reject) => {
      options.compress(req, res, () => {
        writeRemixHead(res, response);
        if (hashes) res.setHeader("Content-Security-Policy", options.contentSecurityPolicy(hashes));
        if (body) {
          res.end(body);
          resolve(undefined);
        } else if (response.body) {
          writeReadableStreamToWritable(response.body, res).then(resolve, reject);
        } else {
          res.end();
          resolve(undefined);
        }
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
   * @param {(req: import("node:http").IncomingMessage) => Promise<{ variant: string; robots: string | null; version: string } | null>} visitOf
   *   where the visitor gate lets everyone in: the variant, the X-Robots-Tag the gate would add and the content version; null otherwise
   */
  async function serveFromCache(req, res, visitOf) {
    const h = req.headers;
    if (req.method !== "GET" || h.range || h["content-length"] || h["transfer-encoding"]) return false;
    const url = req.url ?? "";
    if (!url.startsWith("/") || options.skip?.(pathOf(url))) return false;
    const visit = await visitOf(req);
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
   * The cache's part of a request's handling (a NodeMiddleware).
   * @param {import("node:http").IncomingMessage} req
   * @param {LocalsResponse} res
   * @param {(error?: unknown) => void} next
   * @returns {Promise<void>}
   */
  async function renderCache(req, res, next) {
    const path = pathOf(req.url);
    if (req.method !== "GET" || req.headers.range || options.skip?.(path) || !decodable(path)) return next();
    try {
      const variant = await options.variantOf(req, res);
      if (variant === null) return next();
      const key = `${variant}\n${addressKey(req)}`;
      const version = options.contentVersion();
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
        const renderedAt = now();
        const context = { ...(await options.getLoadContext(req, res)), cspNonce: undefined };
        const response = await options.handleRequest(remixRequest(req), context);
        const type = response.headers.get("Content-Type") ?? "";
        if (!KEPT_TYPES.test(type)) {
          settle(null);
          return await sendUnkept(req, res, response, null, null);
        }
        const body = Buffer.from(await response.arrayBuffer());
        const hashes = /^text\/html/i.test(type) ? inlineScriptHashes(body.toString("utf8")) : [];
        const entry = await keep(res, response, body, hashes, version, renderedAt);
        settle(entry);
        if (!entry) return await sendUnkept(req, res, response, body, hashes);
        store.set(key, entry);
        sendEntry(req, res, entry, "miss");
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
