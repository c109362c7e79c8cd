import type { LoaderFunctionArgs } from "@remix-run/node";
import { isAdminRequest } from "~/admins/admin-request.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { findMediaFile } from "~/uploads/gallery.server";
import { PRIVATE_NO_STORE, readOnlyAction } from "~/platform/http.server";

const notFound = () =>
  new Response("This photo or video is not available.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * GET /media/{id}/{file}: published media for everyone, cached for a year
 * (a file's name changes whenever its bytes do) and seekable with Range;
 * anything else only for the admin. Unknown and forbidden look the same.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = /^\d{1,15}$/.test(params.id ?? "") ? Number(params.id) : NaN;
  const found = Number.isSafeInteger(id) ? findMediaFile(id, params.file ?? "") : undefined;
  if (!found) return notFound();
  const { media } = found;
  if (!media.public && !(await isAdminRequest(request))) return notFound();
  return getMediaStorage().serve(media.key, request, {
    contentType: media.contentType,
    cacheControl: media.public ? "public, max-age=31536000, immutable" : PRIVATE_NO_STORE,
    downloadName: media.downloadName,
  });
}

export const action = readOnlyAction;
