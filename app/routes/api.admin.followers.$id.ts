import { type ActionFunctionArgs } from "@remix-run/node";
import { NO_SUCH_FOLLOWER } from "~/remembrance/remembrance.schema";
import { removeFollower } from "~/remembrance/followers.server";
import { familyMethodNotAllowed } from "~/admins/session.server";
import { answerApiDelete } from "~/routes/confirmed-delete.server";

export const loader = familyMethodNotAllowed("DELETE");

/** DELETE /api/admin/followers/{id} → 204: the follower (or a request) is deleted and written to no more; 404 for an unknown id. */
export const action = ({ request, params }: ActionFunctionArgs) => answerApiDelete(request, params.id, removeFollower, NO_SUCH_FOLLOWER);
