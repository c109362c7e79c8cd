// @ts-check
import { randomFillSync } from "node:crypto";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The origin (scheme, host and port) a browser says a state-changing request
 * came from: its Origin, or when there is none its Referer. Null when the
 * request names neither (as curl and server-to-server clients do), "invalid"
 * when what it names cannot be read as a URL (including Origin: null from
 * sandboxed or privacy contexts).
 * @param {{ origin?: string | undefined; referer?: string | undefined }} headers
 * @returns {string | null}
 */
export function requestSourceOrigin(headers) {
  const source = headers.origin || headers.referer;
  if (!source) return null;
  return originOf(source);
}

/**
 * "https://host[:port]" as the URL parser writes it (lower case, default port
 * left out), or "invalid" for anything that is not an http(s) address.
 * @param {string} address
 */
function originOf(address) {
  try {
    const url = new URL(address);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : "invalid";
  } catch {
    return "invalid";
  }
}

/**
 * The one route whose form is posted with `Origin: null` by every browser
 * that honours its page's Referrer-Policy strictly (or strips the Origin for
 * privacy): "Stop these e-mails" at /unsubscribe/{token}. Its token (192
 * random bits, from the e-mail) is the authority, not the page it was posted
 * from: whoever holds the token can stop the mail with or without a browser,
 * so a page elsewhere gains nothing from posting it. An Origin that names
 * another site is still refused. Matched on the path exactly as sent: no
 * dots or %-escapes, so no dot segment can point the exception elsewhere.
 */
const TOKEN_IS_THE_AUTHORITY = /^\/unsubscribe\/[A-Za-z0-9_-]+$/;

/**
 * True when a POST, PUT, PATCH or DELETE comes from a page of another origin:
 * another host or port, or the same host under the other scheme (a plain-http
 * page, which anyone on the network path can write, posting to the https
 * site). `protocol` is the site's own scheme for this request: "https" behind
 * Fly's proxy (X-Forwarded-Proto, read by Express's `req.protocol`), "http"
 * otherwise.
 * `Origin: null` is accepted on the unsubscribe route only (TOKEN_IS_THE_AUTHORITY).
 * @param {{ method: string; host: string | undefined; protocol: string; path?: string; origin?: string | undefined; referer?: string | undefined }} req
 */
export function isCrossOriginMutation(req) {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return false;
  if (req.origin === "null" && req.path !== undefined && TOKEN_IS_THE_AUTHORITY.test(req.path)) return false;
  const source = requestSourceOrigin(req);
  if (source === null) return false;
  const own = req.host ? originOf(`${req.protocol.replace(/:$/, "")}://${req.host}`) : "invalid";
  return own === "invalid" || source !== own;
}

const NONCE_BYTES = 16;
/**
 * Random bytes for the next nonces, filled from the system's secure random
 * source 256 nonces at a time (a call into it per response cost more than
 * the rest of making the headers). Each byte serves one nonce only.
 */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let noncePoolOffset = noncePool.length;

/** @returns {string} a fresh base64 nonce for one response's inline scripts */
export function createNonce() {
  if (noncePoolOffset === noncePool.length) {
    randomFillSync(noncePool);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
}

/**
 * @param {string | null} nonce this response's nonce, or null when its inline
 *   scripts are allowed by their hashes instead (a page from the render cache)
 * @param {{ development?: boolean; mediaSources?: string[]; scriptHashes?: string[] }} [options]
 *   mediaSources: where else media lives (an S3 bucket): browsers upload to it
 *   and are redirected to it for images and videos. scriptHashes: the
 *   'sha256-…' sources of the page's own inline scripts.
 */
export function contentSecurityPolicy(nonce, options = {}) {
  const media = options.mediaSources ?? [];
  const connect = ["'self'", ...media];
  if (options.development) connect.push("ws://localhost:*");
  const scripts = ["'self'", ...(nonce ? [`'nonce-${nonce}'`] : []), ...(options.scriptHashes ?? [])];
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...media].join(" "),
    ["media-src 'self' blob:", ...media].join(" "),
    "font-src 'self'",
    `connect-src ${connect.join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Headers every response carries.
 * @param {string} nonce
 * @param {{ production?: boolean; development?: boolean; mediaSources?: string[] }} [options]
 * @returns {Record<string, string>}
 */
export function securityHeaders(nonce, options = {}) {
  /** @type {Record<string, string>} */
  const headers = {
    "Content-Security-Policy": contentSecurityPolicy(nonce, options),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    // The microphone for the site's own pages only: the voice form's in-page recorder (the browser still asks).
    "Permissions-Policy": "camera=(), microphone=(self), geolocation=(), interest-cohort=()",
  };
  if (options.production) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/**
 * securityHeaders for one set of options, as name and value pairs, with
 * everything but the nonce worked out once rather than per response.
 * @param {{ production?: boolean; development?: boolean; mediaSources?: string[] }} [options]
 * @returns {(nonce: string) => [string, string][]}
 */
export function securityHeadersFor(options = {}) {
  // A nonce is base64, so this mark is never part of one, nor of the rest of the policy.
  const MARK = "\u0000";
  const pieces = Object.entries(securityHeaders(MARK, options)).map(([name, value]) => /** @type {const} */ ([name, value.split(MARK)]));
  return (nonce) => pieces.map(([name, around]) => [name, around.join(nonce)]);
}

/**
 * The visitor's address, for rate limits. On Fly the edge proxy puts the real
 * client address in Fly-Client-IP (a client cannot forge it there); anywhere
 * else we only trust the socket.
 * @param {{ flyClientIp?: string | undefined; remoteAddress?: string | undefined }} req
 * @param {boolean} [onFly]
 */
export function clientAddress(req, onFly = Boolean(process.env.FLY_APP_NAME)) {
  if (onFly && req.flyClientIp) return req.flyClientIp;
  return req.remoteAddress ?? "unknown";
}

/**
 * The origins of the S3-compatible store when media lives in one.
 * @param {Record<string, string | undefined>} env
 * @returns {string[]}
 */
export function mediaSourcesFromEnv(env) {
  if (!env.BUCKET_NAME?.trim()) return [];
  const endpoint = env.AWS_ENDPOINT_URL_S3?.trim();
  if (endpoint) {
    try {
      const url = new URL(endpoint);
      // Virtual-hosted addresses put the bucket in front of the endpoint's host.
      return [url.origin, `${url.protocol}//*.${url.host}`];
    } catch {
      return [];
    }
  }
  return ["https://*.amazonaws.com"];
}
