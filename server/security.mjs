// @ts-check
import { randomBytes } from "node:crypto";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The host a browser says a state-changing request came from: its Origin, or
 * when there is none its Referer. Null when the request names neither (as
 * curl and server-to-server clients do), "invalid" when what it names cannot
 * be read as a URL (including Origin: null from sandboxed or privacy contexts).
 * @param {{ origin?: string | undefined; referer?: string | undefined }} headers
 * @returns {string | null}
 */
export function requestSourceHost(headers) {
  const source = headers.origin || headers.referer;
  if (!source) return null;
  try {
    return new URL(source).host.toLowerCase();
  } catch {
    return "invalid";
  }
}

/**
 * True when a POST, PUT, PATCH or DELETE comes from a page on another host.
 * @param {{ method: string; host: string | undefined; origin?: string | undefined; referer?: string | undefined }} req
 */
export function isCrossOriginMutation(req) {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return false;
  const source = requestSourceHost(req);
  if (source === null) return false;
  return source !== (req.host ?? "").toLowerCase();
}

/** @returns {string} a fresh base64 nonce for one response's inline scripts */
export function createNonce() {
  return randomBytes(16).toString("base64");
}

/**
 * @param {string} nonce
 * @param {{ development?: boolean; connectSources?: string[] }} [options]
 */
export function contentSecurityPolicy(nonce, options = {}) {
  const connect = ["'self'", ...(options.connectSources ?? [])];
  if (options.development) connect.push("ws://localhost:*");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
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
 * @param {{ production?: boolean; development?: boolean; connectSources?: string[] }} [options]
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
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  };
  if (options.production) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
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
