import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { rsvpStatsFor } from "~/admins/contact-details";
import { getRsvpStats } from "~/attendance/rsvp.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  return json(rsvpStatsFor(admin.role, getRsvpStats()), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = adminReadOnlyAction;
