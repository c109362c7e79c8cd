import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireFamily } from "~/admins/session.server";
import { answerConfirmedDelete } from "~/routes/confirmed-delete.server";
import { ConfirmDelete } from "~/components/admin/ConfirmDelete";
import { FOLLOWER_REMOVED, REMOVE_FOLLOWER_FAILED } from "~/remembrance/remembrance.schema";
import { getFollower, removeFollower } from "~/remembrance/followers.server";
import { invariantResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";

// "Remove … from the followers?": a page of its own without JavaScript, a
// dialog over the Remember tab with it, like every delete. Only its own form removes.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireFamily(request);
  const follower = getFollower(idParam(params.id) ?? 0);
  invariantResponse(follower, "Not found", { status: 404 });
  return json({ follower: { name: follower.name, email: follower.email } }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireFamily(request);
  return answerConfirmedDelete(request, params.id, admin, {
    returnTo: "/admin/remember",
    remove: removeFollower,
    deleted: FOLLOWER_REMOVED,
    failed: REMOVE_FOLLOWER_FAILED,
  });
}

export default function RemoveFollower() {
  const { follower } = useLoaderData<typeof loader>();
  return (
    <ConfirmDelete title={`Remove ${follower.name}?`} closeTo="/admin/remember" label="Remove">
      Nothing more will be sent to {follower.email}, and their name and address are deleted. They can follow again from the memorial if they
      wish.
    </ConfirmDelete>
  );
}
