import { type ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { NO_SUCH_FOLLOWER } from "~/remembrance/remembrance.schema";
import { removeFollower } from "~/remembrance/followers.server";
import { invariantResponse, methodNotAllowed } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = () => methodNotAllowed("DELETE");

/** DELETE /api/admin/followers/{id} → 204: the follower (or a request) is deleted and written to no more; 404 for an unknown id. */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const id = idParam(params.id);
  return answerRefusals(() => {
    invariantResponse(id && removeFollower(id, admin), NO_SUCH_FOLLOWER, { status: 404, field: "id" });
    return new Response(null, { status: 204 });
  });
}
