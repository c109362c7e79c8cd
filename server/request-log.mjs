// @ts-check
// One JSON line per request, and one per refusal worth a warning. A line
// names the path without its query (which may carry what visitors typed)
// and without the secrets some paths carry.
import { posix } from "node:path";

/**
 * A request target's path, without its query.
 * @param {string | undefined} url
 */
export const pathOf = (url) => (url ?? "").split("?")[0] ?? "";

/**
 * Paths whose rest is a secret: an invitation's token lets whoever reads the log become an admin, an
 * unsubscribe link's token stops someone's e-mail, a follow link's confirms it.
 */
const SECRET_AFTER = ["/admin/invite/", "/unsubscribe/", "/follow/"];

/**
 * The path of a request target as it may be written to the log. The test is
 * made on the path as Remix reads it (case, %-escapes, backslashes, doubled
 * slashes and dot segments aside: the URL parser resolves "/x/../unsubscribe/…"
 * to the unsubscribe page), so a token cannot slip through written another way.
 * @param {string | undefined} url
 */
export function loggedPath(url) {
  const path = pathOf(url);
  let plain;
  try {
    plain = decodeURIComponent(path);
  } catch {
    plain = path;
  }
  plain = posix.normalize(
    plain
      .toLowerCase()
      .replace(/\\/g, "/")
      .replace(/\/{2,}/g, "/"),
  );
  const secret = SECRET_AFTER.find((prefix) => plain.startsWith(prefix) && plain.length > prefix.length);
  return secret ? `${secret}[redacted]` : path;
}

/** @param {Record<string, unknown>} fields */
export function warnLine(fields) {
  console.warn(JSON.stringify({ time: new Date().toISOString(), level: "warn", ...fields }));
}

/**
 * @param {string} method @param {string | undefined} url @param {number} status @param {bigint} started
 */
export function logRequest(method, url, status, started) {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  // Written as console.log writes it, without its formatting machinery (a tenth of a cached answer's CPU).
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), method, path: loggedPath(url), status, ms: Math.round(ms * 10) / 10 })}\n`,
  );
}

/**
 * Logs the request once its answer is sent, with the address as asked for
 * (the visitor gate may hand a page's request to the passcode page).
 * @param {import("node:http").IncomingMessage} req @param {import("node:http").ServerResponse} res
 */
export function logWhenAnswered(req, res) {
  const started = process.hrtime.bigint();
  const method = req.method ?? "";
  const url = req.url;
  res.on("finish", () => logRequest(method, url, res.statusCode, started));
}
