// Where to send a visitor back to, when the address comes from the visitor
// (a hidden form field, a query parameter). Used on the server for the
// Location header and in the login card for the hidden field, so it is plain
// code without server imports.

const BASE = "http://safe-redirect.invalid";

/**
 * `to` as a path on this site (path, query and fragment, in the URL parser's
 * encoded form, so nothing raw reaches a Location header), or `fallback`.
 *
 * The target is resolved against a dummy origin with the URL parser, exactly
 * as a browser would resolve it, and kept only when it stays on that origin
 * and its path does not start with "//". Checking the text before parsing is
 * not enough: "/.//evil.example" and "/%2e//evil.example" become
 * "//evil.example" once the parser removes the dot segment, and a browser
 * reads "//evil.example" in a Location header as another host. Raw control
 * characters and backslashes are refused outright: the parser would drop the
 * first and read the second as "/", and no link of ours contains either.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  // Control characters are exactly what this refuses.
  // eslint-disable-next-line no-control-regex
  if (typeof to !== "string" || !to.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
