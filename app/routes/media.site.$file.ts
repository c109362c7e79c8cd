import type { LoaderFunctionArgs } from "@remix-run/node";
import { getMediaStorage } from "~/media/media-storage.server";
import { findSiteMediaFile } from "~/site/site-media-files.server";
import { readOnlyAction } from "~/platform/http.server";

const notFound = () =>
  new Response("This file is not available.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * GET /media/site/{file}: the family's hero photo (each width, WebP and
 * JPEG) and Karen Mode song, for everyone, cached for a year (a file's name
 * is made from its bytes, so new bytes get a new name) and seekable with
 * Range. A file no longer in use is gone.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const found = findSiteMediaFile(params.file ?? "");
  if (!found) return notFound();
  return getMediaStorage().serve(found.key, request, {
    contentType: found.contentType,
    cacheControl: "public, max-age=31536000, immutable",
  });
}

export const action = readOnlyAction;
