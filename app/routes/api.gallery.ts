import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { GALLERY_MAX_LIMIT, GALLERY_PAGE_SIZE } from "~/media/limits";
import { listGallery } from "~/uploads/gallery.server";
import type { GalleryFilter } from "~/uploads/upload.schema";
import { errorResponse, NO_STORE, readOnlyAction } from "~/platform/http.server";
import { listParams, nextPageLink } from "~/platform/page-cursor.server";

type MediaType = Exclude<GalleryFilter, "ALL">;
const MEDIA_TYPES: readonly MediaType[] = ["IMAGE", "VIDEO", "AUDIO"];
const TYPE_REFUSED = "type must be IMAGE, VIDEO or AUDIO, or several separated by commas (or left out for all)";

/**
 * The `type` asked for: one of the media types, several separated by commas
 * ("IMAGE,VIDEO": the gallery page, which shows no voices), or all when left
 * out. Null when it names anything else.
 */
function typeParam(raw: string | null): GalleryFilter | MediaType[] | null {
  if (raw === null) return "ALL";
  const types = raw.split(",");
  if (!types.every((type): type is MediaType => (MEDIA_TYPES as readonly string[]).includes(type))) return null;
  return types.length === 1 ? types[0]! : [...new Set(types)];
}

/**
 * GET /api/gallery?limit=20&offset=n&type=IMAGE|VIDEO|AUDIO (or a few,
 * "IMAGE,VIDEO"), or &before=<cursor>: published media, newest first, as the
 * spec's bare array; a full page names the next one (same type) in
 * `Link: <…>; rel="next"`. Voices (AUDIO) come with their sender's name,
 * length and line; never one kept for the family (without permission).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const params = listParams(url, { pageSize: GALLERY_PAGE_SIZE, maxLimit: GALLERY_MAX_LIMIT });
  const type = typeParam(url.searchParams.get("type"));
  const errors = "errors" in params ? { ...params.errors } : {};
  if (type === null) errors.type = [TYPE_REFUSED];
  if ("errors" in params || type === null) return errorResponse(400, errors);
  const page = listGallery({ ...params, type });
  return json(page.items, { headers: { "Cache-Control": NO_STORE, ...nextPageLink(url, page.next) } });
}

export const action = readOnlyAction;
