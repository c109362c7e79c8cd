import { type ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { NO_SUCH_ADMIN } from "~/admins/admin.schema";
import { removeAdmin } from "~/admins/admin.server";
import { invariantResponse, methodNotAllowed } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = () => methodNotAllowed("DELETE");

/**
 * DELETE /api/admin/admins/{id} → 204: the admin's sessions end at once.
 * 409 {"errors":{"admin":[…]}} for the last admin, 404 for an unknown id.
 * An admin may remove themselves here (the request says so plainly); the
 * panel's form asks first.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const id = idParam(params.id);
  return answerRefusals(() => {
    invariantResponse(id && removeAdmin(id, admin), NO_SUCH_ADMIN, { status: 404, field: "id" });
    return new Response(null, { status: 204 });
  });
}
