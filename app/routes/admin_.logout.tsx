import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { LOGGED_OUT } from "~/admins/login.schema";
import { endAdminSession } from "~/admins/session.server";
import { redirectWithToast } from "~/platform/toast.server";

// /admin/logout: the panel's Logout button posts here. Ending a session that
// is already gone (expired, or ended in another tab) still clears the cookie
// and says so, so there is no requireAdmin here.

/** Nothing to show, and a GET changes nothing: back to the panel (or its login). */
export const loader = () => redirect("/admin");

export async function action({ request }: ActionFunctionArgs) {
  return redirectWithToast("/admin/login", LOGGED_OUT, { headers: { "Set-Cookie": await endAdminSession(request) } });
}
