import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/auth/session.server";
import { listPendingMemories } from "~/models/memory.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return json(listPendingMemories(), { headers: { "Cache-Control": "private, no-store" } });
}
