import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { memoryFor } from "~/admins/contact-details";
import { listPendingMemories } from "~/guestbook/memory.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { pendingHeld } from "~/routes/read-first.server";

/**
 * GET /api/admin/pending-memories: the memories waiting, oldest first. While helpers read
 * first, a family admin gets an empty list unless asking for it (`?show=all`); a helper always gets them all.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  return json(pendingHeld(admin, request) ? [] : listPendingMemories().map((memory) => memoryFor(admin.role, memory)), {
    headers: { "Cache-Control": PRIVATE_NO_STORE },
  });
}

export const action = adminReadOnlyAction;
