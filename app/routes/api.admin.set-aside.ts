import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { familyReadOnlyAction, requireFamilyApi } from "~/admins/session.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { listSetAside } from "~/routes/set-aside.server";

/**
 * GET /api/admin/set-aside (family only): `{ memories, uploads, candles }`,
 * what helpers set aside, each list the newest set aside first, in the
 * pending lists' item shapes (with `setAside: true`).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return json(listSetAside(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = familyReadOnlyAction;
