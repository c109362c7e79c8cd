import { json, type ActionFunctionArgs } from "@remix-run/node";
import { familyMethodNotAllowed, requireFamilyApi } from "~/admins/session.server";
import { NO_SUCH_ADMIN, RoleChangeSchema } from "~/admins/admin.schema";
import { removeAdmin, setAdminRole } from "~/admins/admin.server";
import { errorResponse, fieldErrors, invariantResponse, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";
import { idParam } from "~/utils/moderation";
import { answerApiDelete } from "~/routes/confirmed-delete.server";

export const loader = familyMethodNotAllowed("PATCH, DELETE");

/**
 * DELETE /api/admin/admins/{id} → 204: the admin's sessions end at once.
 * 409 {"errors":{"admin":[…]}} for the last admin or the last family admin,
 * 404 for an unknown id. An admin may remove themselves here (the request
 * says so plainly); the panel's form asks first.
 *
 * PATCH /api/admin/admins/{id} {role: "family" | "helper"} → 200 with
 * {id, username, role, createdAt}; 409 {"errors":{"role":[…]}} for making
 * the last family admin a helper.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") return answerApiDelete(request, params.id, removeAdmin, NO_SUCH_ADMIN, "PATCH, DELETE");
  const admin = await requireFamilyApi(request);
  const id = idParam(params.id);
  const parsed = RoleChangeSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(() => {
    const changed = id ? setAdminRole(id, parsed.data.role, admin) : undefined;
    invariantResponse(changed, NO_SUCH_ADMIN, { status: 404, field: "id" });
    return json(changed, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
  });
}
