import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { familyReadOnlyAction, requireFamilyApi } from "~/admins/session.server";
import { followerCounts, listFollowers } from "~/remembrance/followers.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

/**
 * GET /api/admin/followers → `{count, waiting, followers: [{id, name, email,
 * topics, confirmedAt, createdAt}]}`: who follows the memorial by e-mail
 * (confirmed, oldest first), and how many asked and have not confirmed yet.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  const { following, waiting } = followerCounts();
  return json({ count: following, waiting, followers: listFollowers() }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = familyReadOnlyAction;
