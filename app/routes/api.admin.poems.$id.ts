import { type ActionFunctionArgs } from "@remix-run/node";
import { deletePoem } from "~/poems/poem.server";
import { familyMethodNotAllowed } from "~/admins/session.server";
import { answerApiDelete } from "~/routes/confirmed-delete.server";

export const loader = familyMethodNotAllowed("DELETE");

/** DELETE /api/admin/poems/{id} → 204, or 404 for an unknown id. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  answerApiDelete(request, params.id, deletePoem, "There is no poem with this id");
