import type { LoaderFunctionArgs } from "@remix-run/node";
import { familyReadOnlyAction, requireFamilyApi } from "~/admins/session.server";
import { approvedMemoryRows, csvStream, MEMORY_COLUMNS } from "~/keepsakes/csv.server";
import { csvResponse } from "~/platform/http.server";

/** GET /api/admin/export/memories.csv: approved memories, streamed. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return csvResponse("memories", csvStream(MEMORY_COLUMNS, approvedMemoryRows()));
}

export const action = familyReadOnlyAction;
