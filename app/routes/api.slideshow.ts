import { createHash } from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { listSlideshow } from "~/uploads/gallery.server";
import { PRIVATE_NO_CACHE, readOnlyAction } from "~/platform/http.server";

/**
 * GET /api/slideshow, which the reception screen asks for every half minute:
 * one indexed read and an ETag keep that cheap (an unchanged list is a 304
 * without a body). Public copies only, never an email or an original.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const body = JSON.stringify({ items: listSlideshow() });
  const etag = `"${createHash("sha1").update(body).digest("base64url")}"`;
  const headers = { ETag: etag, "Cache-Control": PRIVATE_NO_CACHE };
  const known = request.headers.get("If-None-Match") ?? "";
  if (known.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
}

export const action = readOnlyAction;
