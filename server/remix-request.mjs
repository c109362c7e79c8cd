// @ts-check
// A Node request as Remix gets it, and Remix's answer written back, exactly
// as @remix-run/express does it behind Express's `trust proxy` (Fly's proxy
// says the scheme and host), but without Express: a page's GET skips
// Express's router (server/index.mjs), and the render cache builds its own
// requests. tests/unit/remix-request.test.ts holds it to the adapter's
// results.
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";

/**
 * A Node response with what the handlers before found (Express's `res.locals`).
 * @typedef {import("node:http").ServerResponse & { locals: Record<string, any> }} LocalsResponse
 * A handler in Express's shape that needs none of Express's additions
 * (written as a method, so Express's own handlers type-check as one too).
 * @typedef {{ handle(req: import("node:http").IncomingMessage, res: LocalsResponse, next: (error?: unknown) => void): any }["handle"]} NodeMiddleware
 */

/**
 * A header as Express's `req.get` reads it.
 * @param {import("node:http").IncomingMessage} req
 * @param {string} name lower case
 */
const headerOf = (req, name) => /** @type {string | undefined} */ (req.headers[name]);

/** The scheme the visitor used: X-Forwarded-Proto's first value, else the socket's (Express's `req.protocol`). */
function protocolOf(/** @type {import("node:http").IncomingMessage} */ req) {
  const own = /** @type {{ encrypted?: boolean }} */ (req.socket).encrypted ? "https" : "http";
  const forwarded = headerOf(req, "x-forwarded-proto") || own;
  const comma = forwarded.indexOf(",");
  return comma === -1 ? forwarded.trim() : forwarded.substring(0, comma).trim();
}

/** The host name without its port: X-Forwarded-Host's first value, else Host (Express's `req.hostname`). */
function hostnameOf(/** @type {import("node:http").IncomingMessage} */ req) {
  let host = headerOf(req, "x-forwarded-host");
  if (!host) host = headerOf(req, "host");
  else if (host.includes(",")) host = host.substring(0, host.indexOf(",")).trimEnd();
  if (!host) return undefined;
  // An IPv6 address is written in brackets, with colons of its own.
  const colon = host.indexOf(":", host[0] === "[" ? host.indexOf("]") + 1 : 0);
  return colon === -1 ? host : host.substring(0, colon);
}

/**
 * A request target's path, without its query (which may carry what visitors typed).
 * @param {string | undefined} url
 */
export const pathOf = (url) => (url ?? "").split("?")[0] ?? "";

/**
 * Whether Express can decode the path: one it cannot (a broken %-escape) is
 * left to Express, which answers 400 (server/index.mjs).
 * @param {string} pathname
 */
export function decodable(pathname) {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * The address Remix sees: scheme, host and port as the visitor asked
 * through the proxy, then the path and query.
 * @param {import("node:http").IncomingMessage & { originalUrl?: string }} req
 */
export function remixUrl(req) {
  const forwardedPort = Number.parseInt(headerOf(req, "x-forwarded-host")?.split(":")[1] ?? "", 10);
  const hostPort = Number.parseInt(headerOf(req, "host")?.split(":")[1] ?? "", 10);
  const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : "";
  return new URL(`${protocolOf(req)}://${hostnameOf(req)}${port ? `:${port}` : ""}${req.originalUrl ?? req.url}`);
}

/**
 * The request's headers as a Fetch API Headers.
 * @param {import("node:http").IncomingHttpHeaders} from
 */
export function remixHeaders(from) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(from)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value) headers.set(name, value);
  }
  return headers;
}

/**
 * The Fetch API request for Remix, with the body streamed for methods that
 * have one, and a signal that aborts if the client goes before the answer
 * has been written.
 * @param {import("node:http").IncomingMessage & { originalUrl?: string }} req
 * @param {import("node:http").ServerResponse} res
 */
export function remixRequest(req, res) {
  const url = remixUrl(req);
  const controller = new AbortController();
  let answered = false;
  res.on("finish", () => (answered = true));
  res.on("close", () => answered || controller.abort());
  /** @type {RequestInit & { duplex?: "half" }} */
  const init = { method: req.method, headers: remixHeaders(req.headers), signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** A Content-Type that names its charset (Express's `res.set` adds one to text, JavaScript and JSON). */
function withCharset(/** @type {string} */ type) {
  if (/;\s*charset\s*=/.test(type)) return type;
  return /^text\/|^application\/(javascript|json)/.test(type.split(";")[0] ?? "") ? `${type}; charset=utf-8` : type;
}

/**
 * The status and headers of Remix's answer, added to those already set.
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 */
export function writeRemixHead(res, response) {
  res.statusMessage = response.statusText;
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.appendHeader(name, name === "content-type" ? withCharset(value) : value);
}

/**
 * Writes Remix's answer: status, headers, then the body. `html`, when
 * given, is the page the entry rendered, sent as it is rather than read back
 * out of the response's stream.
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 * @param {string | undefined} [html]
 */
export async function sendRemixResponse(res, response, html) {
  writeRemixHead(res, response);
  if (html !== undefined && !response.bodyUsed) {
    // Encoded once, with its length: a string would be measured by the
    // compression middleware and again by Node before being encoded to send.
    const body = Buffer.from(html);
    res.setHeader("Content-Length", body.length);
    res.end(body);
    return;
  }
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
