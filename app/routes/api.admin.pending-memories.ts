import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { memoryFor } from "~/admins/contact-details";
import { listPendingMemories } from "~/guestbook/memory.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  return json(
    listPendingMemories().map((memory) => memoryFor(admin.role, memory)),
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export const action = adminReadOnlyAction;
