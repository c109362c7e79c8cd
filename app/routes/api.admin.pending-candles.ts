import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { listPendingCandles } from "~/candles/candles.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { pendingHeld } from "~/routes/read-first.server";

/**
 * GET /api/admin/pending-candles: `{ candles, total }`, the candles with words waiting, oldest first.
 * While helpers read first, a family admin gets no candles (`total` still counts them) unless asking
 * for them (`?show=all`); a helper always gets them all.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  const pending = listPendingCandles();
  return json(pendingHeld(admin, request) ? { ...pending, candles: [] } : pending, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = adminReadOnlyAction;
