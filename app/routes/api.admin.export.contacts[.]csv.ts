import type { LoaderFunctionArgs } from "@remix-run/node";
import { familyReadOnlyAction, requireFamilyApi } from "~/admins/session.server";
import { CONTACT_COLUMNS, contactRows, csvStream } from "~/keepsakes/csv.server";
import { csvResponse } from "~/platform/http.server";

/** GET /api/admin/export/contacts.csv: everyone who left contact details, once each. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return csvResponse("contacts", csvStream(CONTACT_COLUMNS, contactRows()));
}

export const action = familyReadOnlyAction;
