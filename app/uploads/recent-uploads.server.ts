import { createCookie } from "@remix-run/node";
import { config } from "~/platform/config.server";

const MAX_REMEMBERED = 10;

/**
 * The names of the files this browser shared lately, for the share page's
 * "recently uploaded" list. Kept in the visitor's own signed cookie, so no one
 * else ever sees them.
 */
const recentUploadsCookie = createCookie("__recent_uploads", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: config.NODE_ENV === "production",
  secrets: config.sessionSecrets,
  maxAge: 24 * 60 * 60,
});

export async function readRecentUploads(request: Request): Promise<string[]> {
  const value: unknown = await recentUploadsCookie.parse(request.headers.get("Cookie")).catch(() => null);
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === "string").slice(0, MAX_REMEMBERED) : [];
}

/** A Set-Cookie header value with these names added in front of the ones already remembered. */
export async function rememberRecentUploads(request: Request, names: string[]): Promise<string> {
  const previous = await readRecentUploads(request);
  const next = [...names.map((name) => name.slice(0, 120)), ...previous].slice(0, MAX_REMEMBERED);
  return recentUploadsCookie.serialize(next);
}
