import { type ActionFunctionArgs } from "@remix-run/node";
import { familyMethodNotAllowed, requireFamilyApi } from "~/admins/session.server";
import { retryMail } from "~/mail/outbox.server";
import { invariantResponse, methodNotAllowed } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = familyMethodNotAllowed("POST");

/** POST /api/admin/outbox/{id}/retry: an e-mail that could not be sent is tried again now → 204, or 404. */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireFamilyApi(request);
  if (request.method !== "POST") return methodNotAllowed("POST");
  const id = idParam(params.id);
  return answerRefusals(() => {
    invariantResponse(id && retryMail(id, admin), "There is no unsent e-mail with this id", { status: 404, field: "id" });
    return new Response(null, { status: 204 });
  });
}
