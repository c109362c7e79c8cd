// @ts-check
// The HTTP of the render cache: which encoding to send, ETags, the Cache-Control
// of a kept page, the scripts its policy allows, the key of an address, and
// the request Remix renders for a copy.
import { createHash } from "node:crypto";
import { writeReadableStreamToWritable } from "@remix-run/node";

/**
 * A public memorial whose address is fixed: a shared cache in front (a CDN)
 * may answer with a copy up to 5 s old, and go on answering with it for 30 s
 * more while it asks again; browsers ask again each time (with the ETag, so
 * mostly a 304), and may show a copy from their own cache while they do.
 */
export const SHARED_BRIEFLY = "public, max-age=0, s-maxage=5, stale-while-revalidate=30";
/** The same for CDNs that read CDN-Cache-Control (RFC 9213) before Cache-Control. */
export const CDN_BRIEFLY = "max-age=5, stale-while-revalidate=30";
/** Everything else kept: only the visitor's own browser keeps a copy, and asks again before using it. */
export const PRIVATE_REVALIDATE = "private, no-cache";

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

/** @param {Buffer} body */
export const etagOf = (body) => `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** A script with a src is allowed by 'self' (or not at all), never by a hash. */
const SRC_ATTRIBUTE = /(?:^|\s)src\s*=/i;

/**
 * A page rendered with `nonce` on the scripts the app itself emits (Remix's
 * and the root's, via the load context's cspNonce): the page without that
 * nonce, and the CSP sources ('sha256-…') of exactly those scripts, hashed
 * as the browser does. A script without the nonce (one slipped into the
 * page's content) is not allowed: the nonce is random per render and never
 * leaves the server.
 * @param {string} html
 * @param {string} nonce
 * @returns {{ html: string; hashes: string[] }}
 */
export function ownScripts(html, nonce) {
  const marker = ` nonce="${nonce}"`;
  const hashes = new Set();
  for (const [, attributes = "", text = ""] of html.matchAll(SCRIPT)) {
    if (attributes.includes(marker) && !SRC_ATTRIBUTE.test(attributes))
      hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return { html: html.split(marker).join(""), hashes: [...hashes] };
}

/** @param {string | string[] | undefined} value */
const first = (value) => (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim() ?? "";

/**
 * Everything of the request's address as Remix will read it (the scheme and
 * host, forwarded by a proxy or not, and the path and query), for the key.
 * @param {import("node:http").IncomingMessage & { originalUrl?: string }} req
 */
export function addressKey(req) {
  const h = req.headers;
  const encrypted = /** @type {{ encrypted?: boolean }} */ (req.socket).encrypted ? "https" : "http";
  return `${first(h["x-forwarded-proto"]) || encrypted} ${first(h["x-forwarded-host"])} ${h.host ?? ""} ${req.originalUrl ?? req.url}`;
}

/**
 * The GET Remix renders a copy from: the address as @remix-run/express
 * builds it behind `trust proxy` (the scheme and host name Express read, the
 * port of X-Forwarded-Host or Host), without an abort signal, since one
 * render may answer several visitors.
 * @param {import("express").Request} req
 */
export function cacheRequest(req) {
  const portOf = (/** @type {string | undefined} */ host) => Number.parseInt(host?.split(":")[1] ?? "", 10);
  const forwardedPort = portOf(req.get("x-forwarded-host"));
  const hostPort = portOf(req.get("host"));
  const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : "";
  const url = `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value) headers.set(name, value);
  }
  return new Request(url, { method: "GET", headers });
}

/**
 * Sends a rendered answer the cache does not keep, as Remix's adapter would:
 * its status and headers, then `body` when it was already read, else its stream.
 * @param {import("express").Response} res
 * @param {Response} response
 * @param {Buffer | null} body
 */
export async function sendRendered(res, response, body) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  if (body) res.end(body);
  else if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
