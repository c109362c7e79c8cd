import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireFamily } from "~/admins/session.server";
import { answerConfirmedDelete } from "~/routes/confirmed-delete.server";
import { ConfirmDelete } from "~/components/admin/ConfirmDelete";
import { DELETE_POEM_FAILED, POEM_DELETED } from "~/poems/poem.schema";
import { deletePoem, getPoem } from "~/poems/poem.server";
import { invariantResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";

// "Delete this poem?": a page of its own without JavaScript, a dialog over
// the Poems tab with it, like every other delete. Only its own form deletes.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireFamily(request);
  const poem = getPoem(idParam(params.id) ?? 0);
  invariantResponse(poem, "Not found", { status: 404 });
  return json({ poem: { id: poem.id, title: poem.title } }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireFamily(request);
  return answerConfirmedDelete(request, params.id, admin, {
    returnTo: "/admin/poems",
    remove: deletePoem,
    deleted: POEM_DELETED,
    failed: DELETE_POEM_FAILED,
  });
}

export default function DeletePoem() {
  const { poem } = useLoaderData<typeof loader>();
  return (
    <ConfirmDelete title="Delete this poem?" closeTo="/admin/poems">
      “{poem.title}” will be removed from the Poems page and the keepsake. This cannot be undone.
    </ConfirmDelete>
  );
}
