import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/auth/session.server";
import { getRsvpStats } from "~/models/rsvp.server";
import { PRIVATE_NO_STORE } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return json(getRsvpStats(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = adminReadOnlyAction;
