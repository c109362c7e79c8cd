import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { GALLERY_MAX_LIMIT, GALLERY_PAGE_SIZE } from "~/media/limits";
import { listGallery } from "~/uploads/gallery.server";
import { errorResponse, NO_STORE, readOnlyAction } from "~/platform/http.server";
import { listParams, nextPageLink } from "~/platform/page-cursor.server";

/**
 * GET /api/gallery?limit=20&offset=n&type=IMAGE|VIDEO, or &before=<cursor>:
 * published media, newest first, as the spec's bare array; a full page names
 * the next one (same type) in `Link: <…>; rel="next"`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const params = listParams(url, { pageSize: GALLERY_PAGE_SIZE, maxLimit: GALLERY_MAX_LIMIT });
  const type = url.searchParams.get("type");
  const errors = "errors" in params ? { ...params.errors } : {};
  if (type !== null && type !== "IMAGE" && type !== "VIDEO") errors.type = ["type must be IMAGE or VIDEO (or left out for all)"];
  if ("errors" in params || errors.type) return errorResponse(400, errors);
  const page = listGallery({ ...params, type: type === "IMAGE" || type === "VIDEO" ? type : "ALL" });
  return json(page.items, { headers: { "Cache-Control": NO_STORE, ...nextPageLink(url, page.next) } });
}

export const action = readOnlyAction;
