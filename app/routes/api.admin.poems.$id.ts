import { type ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { deletePoem } from "~/poems/poem.server";
import { invariantResponse, methodNotAllowed } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = () => methodNotAllowed("DELETE");

/** DELETE /api/admin/poems/{id} → 204, or 404 for an unknown id. */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const id = idParam(params.id);
  return answerRefusals(() => {
    invariantResponse(id && deletePoem(id, admin), "There is no poem with this id", { status: 404, field: "id" });
    return new Response(null, { status: 204 });
  });
}
