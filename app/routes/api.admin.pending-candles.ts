import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { listPendingCandles } from "~/candles/candles.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

/** GET /api/admin/pending-candles: `{ candles, total }`, the candles with words waiting, oldest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return json(listPendingCandles(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = adminReadOnlyAction;
