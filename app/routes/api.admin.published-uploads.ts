import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { readsContactDetails, uploadFor } from "~/admins/contact-details";
import { listPublishedUploads } from "~/uploads/upload.server";
import { errorResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { publishedApiParams } from "~/routes/published-actions.server";
import { nextPageLink } from "~/platform/page-cursor.server";

/**
 * GET /api/admin/published-uploads?q=&limit=24&before=: the Published
 * view's photos and videos (APPROVED and HIDDEN), newest first; a full page
 * names the next in `Link: <…>; rel="next"`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  const url = new URL(request.url);
  const params = publishedApiParams(url);
  if ("errors" in params) return errorResponse(400, params.errors);
  const page = listPublishedUploads({ ...params, matchAddresses: readsContactDetails(admin.role) });
  return json(
    page.items.map((upload) => uploadFor(admin.role, upload)),
    { headers: { "Cache-Control": PRIVATE_NO_STORE, ...nextPageLink(url, page.next) } },
  );
}

export const action = adminReadOnlyAction;
