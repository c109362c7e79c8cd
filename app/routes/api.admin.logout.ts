import { json, type ActionFunctionArgs } from "@remix-run/node";
import { endAdminSession } from "~/admins/session.server";
import { methodNotAllowed } from "~/platform/http.server";

export const loader = () => methodNotAllowed("POST");

/** POST /api/admin/logout ends the session (its row is deleted). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return json({ success: true }, { headers: { "Set-Cookie": await endAdminSession(request) } });
}
