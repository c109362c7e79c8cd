import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { approvedMemoryRows, csvStream, MEMORY_COLUMNS } from "~/keepsakes/csv.server";
import { csvResponse } from "~/platform/http.server";

/** GET /api/admin/export/memories.csv: approved memories, streamed. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return csvResponse("memories", csvStream(MEMORY_COLUMNS, approvedMemoryRows()));
}

export const action = adminReadOnlyAction;
