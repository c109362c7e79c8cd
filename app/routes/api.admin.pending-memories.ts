import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { listPendingMemories } from "~/guestbook/memory.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return json(listPendingMemories(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = adminReadOnlyAction;
