// @ts-check
// A copy in the render cache (server/render-cache/middleware.mjs): whether a
// rendered answer may be kept, the copy made of it (headers, ETag, gzip and
// brotli bodies, and the raw headers the fast path sends), and sending it.
import { promisify } from "node:util";
import zlib from "node:zlib";
import { CDN_BRIEFLY, chooseEncoding, etagMatches, etagOf, PRIVATE_REVALIDATE, SHARED_BRIEFLY } from "./http.mjs";

/**
 * @typedef {import("./store.mjs").Entry} Entry
 * @typedef {import("express").Request} Req
 * @typedef {import("express").Response} Res
 */

/**
 * @typedef {object} KeepOptions
 * @property {{ contentSecurityPolicy: (hashes: string[]) => string; baseHeaders?: Record<string, string> }} options the cache's
 * @property {import("../../app/server/site-hooks.server").RenderCacheHooks} hooks
 * @property {{ maxEntryBytes: number }} limits
 * @property {Res} res
 * @property {Response} response what Remix rendered
 * @property {Buffer} body its body (a page's with its scripts marked)
 * @property {string[]} hashes the page's own inline scripts
 * @property {string} version the content version it was rendered under
 * @property {number} renderedAt
 */

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Nothing compresses answers smaller than this (Express's compression does the same). */
const COMPRESS_FROM_BYTES = 1024;
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

/** @param {Record<string, string> | [string, string][]} headers */
const flat = (headers) => (Array.isArray(headers) ? headers : Object.entries(headers)).flat();

/**
 * @param {Req} req
 * @param {Res} res
 * @param {Entry} entry
 * @param {"hit" | "miss"} outcome
 */
export function sendEntry(req, res, entry, outcome) {
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
 * Whether a rendered answer may be shared: a 200 that sets no cookie, does
 * not say it is private, is not too big, and whose content did not change
 * while it was rendered.
 * @param {KeepOptions} options
 */
function sharable({ hooks, limits, response, body, version }) {
  const ownCacheControl = response.headers.get("Cache-Control");
  return (
    response.status === 200 &&
    !response.headers.has("Set-Cookie") &&
    !(ownCacheControl && /\bprivate\b/i.test(ownCacheControl)) &&
    body.length <= limits.maxEntryBytes &&
    hooks.contentVersion() === version
  );
}

/**
 * The headers a copy is sent with: the rendered answer's own, but those it
 * sets itself, then its caching, ETag and policy.
 * @param {KeepOptions} options @param {string} etag
 * @returns {[string, string][]}
 */
function copyHeaders({ options, hooks, res, response, hashes }, etag) {
  const ownCacheControl = response.headers.get("Cache-Control");
  /** @type {[string, string][]} */
  const headers = [];
  for (const [name, value] of response.headers) if (!NOT_KEPT.has(name.toLowerCase())) headers.push([name, value]);
  // The route's own choice stands (no-store on form pages); otherwise a public memorial whose address is fixed lets shared caches help briefly.
  const publicFixed = res.locals.visibility === "public" && hooks.sharedCachesAllowed();
  const shared = !ownCacheControl && publicFixed;
  // A form page's no-store is for browsers (Back fetches it afresh, never a sent form refilled); this
  // copy is the same for every visitor, so a CDN may still hold it briefly: the guest book is the
  // page a crowd is sent to. Its answers to a form or with a toast are never kept, so never marked.
  const cdnToo = shared || (publicFixed && ownCacheControl === "no-store");
  headers.push(
    ["Cache-Control", ownCacheControl ?? (shared ? SHARED_BRIEFLY : PRIVATE_REVALIDATE)],
    ...(cdnToo ? [/** @type {[string, string]} */ (["CDN-Cache-Control", CDN_BRIEFLY])] : []),
    // A page is in the visitor's language, chosen by `?lang=` (the address), the `lang` cookie, or
    // else the browser's Accept-Language: a shared cache (a CDN, with PUBLIC_URL) must keep one
    // copy per language asked, never hand a Spanish first visit's page to an English browser.
    ["Vary", "Accept-Encoding, Accept-Language, Cookie"],
    ["ETag", etag],
    ["Content-Security-Policy", options.contentSecurityPolicy(hashes)],
  );
  return headers;
}

/**
 * The body gzipped and brotlied, once per copy; nothing for small bodies.
 * @param {Buffer} body
 * @returns {Promise<[Buffer | undefined, Buffer | undefined]>}
 */
async function compressed(body) {
  if (body.length < COMPRESS_FROM_BYTES) return [undefined, undefined];
  return Promise.all([
    gzip(body, { level: 6 }),
    // Quality 5 is as small as 9 on these pages at a twentieth of the CPU (0.6 ms for the guest book, 9.5 ms at 9).
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  ]);
}

/**
 * The copy to keep of a rendered answer, or null when it must not be shared.
 * @param {KeepOptions} what
 * @returns {Promise<Entry | null>}
 */
export async function keep(what) {
  const { body, version, renderedAt } = what;
  if (!sharable(what)) return null;
  const etag = etagOf(body);
  const headers = copyHeaders(what, etag);
  const [gzipped, brotlied] = await compressed(body);
  const baseHeaders = flat(what.options.baseHeaders ?? {});
  const base = [...baseHeaders, ...flat(headers), "X-Render-Cache", "hit"];
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
      notModified: [...baseHeaders, ...flat(headers.filter(([name]) => name.toLowerCase() !== "content-type")), "X-Render-Cache", "hit"],
    },
  };
}
