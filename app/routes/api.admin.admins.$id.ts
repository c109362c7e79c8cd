import { type ActionFunctionArgs } from "@remix-run/node";
import { NO_SUCH_ADMIN } from "~/admins/admin.schema";
import { removeAdmin } from "~/admins/admin.server";
import { methodNotAllowed } from "~/platform/http.server";
import { answerApiDelete } from "~/routes/confirmed-delete.server";

export const loader = () => methodNotAllowed("DELETE");

/**
 * DELETE /api/admin/admins/{id} → 204: the admin's sessions end at once.
 * 409 {"errors":{"admin":[…]}} for the last admin, 404 for an unknown id.
 * An admin may remove themselves here (the request says so plainly); the
 * panel's form asks first.
 */
export const action = ({ request, params }: ActionFunctionArgs) => answerApiDelete(request, params.id, removeAdmin, NO_SUCH_ADMIN);
