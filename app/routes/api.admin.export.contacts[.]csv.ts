import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/auth/session.server";
import { CONTACT_COLUMNS, contactRows, csvStream } from "~/models/export.server";
import { csvResponse } from "~/utils/http.server";

/** GET /api/admin/export/contacts.csv: everyone who left contact details, once each. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return csvResponse("contacts", csvStream(CONTACT_COLUMNS, contactRows()));
}

export const action = adminReadOnlyAction;
