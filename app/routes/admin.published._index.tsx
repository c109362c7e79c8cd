import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/admins/session.server";
import { MEMORIES_LIST } from "~/utils/published";

/** /admin/published opens on its first list, the memories. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return redirect(MEMORIES_LIST);
}
