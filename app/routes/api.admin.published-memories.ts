import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { memoryFor } from "~/admins/contact-details";
import { listPublishedMemories } from "~/guestbook/memory.server";
import { errorResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { publishedApiParams } from "~/routes/published-actions.server";
import { nextPageLink } from "~/platform/page-cursor.server";

/**
 * GET /api/admin/published-memories?q=&limit=20&before=: the Published
 * view's memories (APPROVED and HIDDEN), newest first; a full page names the
 * next in `Link: <…>; rel="next"`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  const url = new URL(request.url);
  const params = publishedApiParams(url);
  if ("errors" in params) return errorResponse(400, params.errors);
  const page = listPublishedMemories(params);
  return json(
    page.items.map((memory) => memoryFor(admin.role, memory)),
    { headers: { "Cache-Control": PRIVATE_NO_STORE, ...nextPageLink(url, page.next) } },
  );
}

export const action = adminReadOnlyAction;
