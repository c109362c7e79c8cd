// @ts-check
// How long the server waits for a visitor. A relative on a slow connection
// may take twenty minutes to send a 100 MB video in one request, so there is
// no cap on a request's total time (Node's default cut every request at five
// minutes, with an unlogged 408). Instead a connection is closed when nothing
// arrives from the client for REQUEST_IDLE_TIMEOUT_MS while the server waits
// for it, and the request headers must be complete within HEADERS_TIMEOUT_MS
// (so a client sending one header line now and then, to hold a connection
// open, is still cut off). Each cut is logged as one warn line.

import { loggedPath } from "./request-log.mjs";

/** @typedef {{ idleMs: number; headersMs: number }} Timeouts */

const TIMEOUT_DEFAULTS = Object.freeze({ REQUEST_IDLE_TIMEOUT_MS: 120_000, HEADERS_TIMEOUT_MS: 60_000 });
const MIN_MS = 100;

/**
 * The timeouts from the environment, or an Error naming the variable that is wrong.
 * @param {Record<string, string | undefined>} env
 * @returns {Timeouts}
 */
export function timeoutsFromEnv(env) {
  /** @param {keyof typeof TIMEOUT_DEFAULTS} name */
  const read = (name) => {
    const raw = env[name]?.trim();
    if (!raw) return TIMEOUT_DEFAULTS[name];
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < MIN_MS) {
      throw new Error(`Invalid configuration:\n  ${name}: must be a whole number of milliseconds, at least ${MIN_MS} (got "${raw}")`);
    }
    return value;
  };
  return { idleMs: read("REQUEST_IDLE_TIMEOUT_MS"), headersMs: read("HEADERS_TIMEOUT_MS") };
}

/**
 * Options for http.createServer. Node checks the headers deadline on a timer
 * (every 30 s by default); a quarter of the deadline keeps the cut close to it.
 * @param {Timeouts} timeouts
 * @returns {import("node:http").ServerOptions}
 */
export function serverTimeoutOptions(timeouts) {
  return {
    requestTimeout: 0,
    headersTimeout: timeouts.headersMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(timeouts.headersMs / 4))),
  };
}

/**
 * @param {Record<string, unknown>} fields
 */
function warn(fields) {
  console.warn(JSON.stringify({ time: new Date().toISOString(), level: "warn", ...fields }));
}

/**
 * Closes connections on which the client has gone quiet while the server
 * waits for it, and logs every timeout.
 * @param {import("node:http").Server} server
 * @param {Timeouts} timeouts
 */
export function applyTimeouts(server, timeouts) {
  /** @type {WeakMap<import("node:net").Socket, { req: import("node:http").IncomingMessage; res: import("node:http").ServerResponse }>} */
  const current = new WeakMap();
  server.on("request", (req, res) => current.set(req.socket, { req, res }));

  // Inactivity of the socket, in both directions (Node re-arms it on every read and write).
  server.timeout = timeouts.idleMs;
  server.on("timeout", (/** @type {import("node:net").Socket} */ socket) => {
    const exchange = current.get(socket);
    if (exchange && !exchange.req.complete) {
      warn({
        msg: `request timed out: nothing received for ${timeouts.idleMs / 1000} s`,
        method: exchange.req.method,
        path: loggedPath(exchange.req.url),
        bytesReceived: socket.bytesRead,
      });
      socket.destroy();
      return;
    }
    // The whole request is in and its answer is on its way: being prepared,
    // or read slowly by the client (a paused video). Not the client's silence.
    if (exchange && !exchange.res.writableFinished) return;
    // Between requests (Node's keep-alive timeout uses the same event), or a
    // connection opened ahead of time by a browser that sent nothing yet.
    if (!exchange && socket.bytesRead > 0) {
      warn({
        msg: `request timed out: headers incomplete, nothing received for ${timeouts.idleMs / 1000} s`,
        bytesReceived: socket.bytesRead,
      });
    }
    socket.destroy();
  });

  // With a listener here Node no longer answers malformed requests itself:
  // answer as it would, and log the headers deadline.
  server.on("clientError", (/** @type {NodeJS.ErrnoException} */ error, /** @type {import("node:net").Socket} */ socket) => {
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      warn({
        msg: `request timed out: headers not complete within ${timeouts.headersMs / 1000} s`,
        status: 408,
        bytesReceived: socket.bytesRead,
      });
    }
    const exchange = current.get(socket);
    const answering = exchange && !exchange.res.writableFinished && exchange.res.headersSent;
    if (socket.writable && !answering) {
      const status =
        {
          ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
          HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
          HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
        }[error.code ?? ""] ?? "400 Bad Request";
      socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
    }
    socket.destroy();
  });
}
