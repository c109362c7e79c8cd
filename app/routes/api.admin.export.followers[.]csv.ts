import type { LoaderFunctionArgs } from "@remix-run/node";
import { familyReadOnlyAction, requireFamilyApi } from "~/admins/session.server";
import { csvStream } from "~/keepsakes/csv.server";
import { FOLLOWER_COLUMNS, followerRows } from "~/remembrance/remember-tab.server";
import { csvResponse } from "~/platform/http.server";

/** GET /api/admin/export/followers.csv: everyone who follows the memorial by e-mail (confirmed), oldest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return csvResponse("followers", csvStream(FOLLOWER_COLUMNS, followerRows()));
}

export const action = familyReadOnlyAction;
