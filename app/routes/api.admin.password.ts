import { type ActionFunctionArgs } from "@remix-run/node";
import { adminMethodNotAllowed, requireAdminApi } from "~/admins/session.server";
import { PasswordChangeSchema } from "~/admins/admin.schema";
import { changeAdminPassword } from "~/admins/admin.server";
import { errorResponse, fieldErrors, methodNotAllowed, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = adminMethodNotAllowed("POST");

/**
 * POST /api/admin/password {currentPassword, newPassword} → 204. The admin's
 * other sessions end; this one stays. 400 for a wrong current password or a
 * new one that is too short.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "POST") return methodNotAllowed("POST");
  const parsed = PasswordChangeSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(async () => {
    await changeAdminPassword(admin, parsed.data, { clientIp: context.clientIp });
    return new Response(null, { status: 204 });
  });
}
