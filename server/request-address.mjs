// @ts-check
// A request whose address cannot be read is the client's mistake: a plain
// 400 and one warning line, never an error with a stack. Remix builds the
// address from X-Forwarded-Proto, X-Forwarded-Host (or Host) and the path,
// so each must be one it can read.
import { loggedPath, warnLine } from "./request-log.mjs";

/** host[:port]: a name, an IPv4 address or a bracketed IPv6 address, and a port of at most 5 digits. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+;=%]+)(?::(\d{1,5}))?$/i;

/** @param {string} host */
function readableHost(host) {
  const match = HOST.exec(host);
  if (!match || Number(match[1] ?? 0) > 65535) return false;
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

/** @param {string | string[] | undefined} value */
const text = (value) => (Array.isArray(value) ? value.join(",") : value);

/**
 * What makes the request's address unreadable, or null when it can be read.
 * @param {import("node:http").IncomingMessage} req
 * @returns {string | null}
 */
export function addressProblem(req) {
  const target = req.url ?? "";
  // Origin-form only: not "*" nor an absolute URL (this server is no proxy).
  if (!target.startsWith("/")) return "request target";
  try {
    decodeURIComponent(target.split("?")[0] ?? "");
  } catch {
    return "path";
  }
  const proto = text(req.headers["x-forwarded-proto"]);
  if (proto !== undefined && !/^https?$/i.test(proto.split(",")[0]?.trim() ?? "")) return "X-Forwarded-Proto";
  const forwardedHost = text(req.headers["x-forwarded-host"]);
  if (forwardedHost !== undefined && !forwardedHost.split(",").every((one) => readableHost(one.trim()))) return "X-Forwarded-Host";
  const host = req.headers.host;
  if (host !== undefined && !readableHost(host)) return "Host";
  return null;
}

/**
 * Express middleware: refuses a request whose address cannot be read.
 * @type {import("express").RequestHandler}
 */
export function refuseUnreadableAddress(req, res, next) {
  const problem = addressProblem(req);
  if (!problem) return next();
  warnLine({ method: req.method, path: loggedPath(req.url), status: 400, msg: `unreadable address: ${problem}` });
  res.status(400).type("text/plain").send("This address could not be read.");
}
