import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { GALLERY_MAX_LIMIT, GALLERY_PAGE_SIZE } from "~/media/limits";
import { listGallery } from "~/models/upload.server";
import { errorResponse, intParam, NO_STORE } from "~/utils/http.server";

/** GET /api/gallery?limit=20&offset=n&type=IMAGE|VIDEO: published media, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const limit = intParam(url, "limit", { fallback: GALLERY_PAGE_SIZE, min: 1, max: GALLERY_MAX_LIMIT });
  const offset = intParam(url, "offset", { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
  const type = url.searchParams.get("type");
  const errors: Record<string, string[]> = {};
  if ("error" in limit) errors.limit = [limit.error];
  if ("error" in offset) errors.offset = [offset.error];
  if (type !== null && type !== "IMAGE" && type !== "VIDEO") errors.type = ["type must be IMAGE or VIDEO (or left out for all)"];
  if ("error" in limit || "error" in offset || errors.type) return errorResponse(400, errors);
  return json(listGallery({ type: type === "IMAGE" || type === "VIDEO" ? type : "ALL", limit: limit.value, offset: offset.value }), {
    headers: { "Cache-Control": NO_STORE },
  });
}
