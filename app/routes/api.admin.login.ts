import { json, type ActionFunctionArgs } from "@remix-run/node";
import { loginAdmin } from "~/admins/authenticator.server";
import { startAdminSession } from "~/admins/session.server";
import { errorResponse, methodNotAllowed } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = () => methodNotAllowed("POST");

/** POST /api/admin/login {username, password}: the same check and session as the login page. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const result = await loginAdmin("json", request, context.clientIp);
  if (!result.ok) {
    const headers = result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
    return errorResponse(result.status, result.errors, { headers });
  }
  const { admin } = result;
  return answerRefusals(async () => {
    const cookie = await startAdminSession(request, admin);
    return json({ success: true, username: admin.username }, { headers: { "Set-Cookie": cookie } });
  });
}
