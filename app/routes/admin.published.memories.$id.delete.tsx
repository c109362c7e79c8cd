import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { answerConfirmedDelete } from "~/routes/confirmed-delete.server";
import { ConfirmDelete } from "~/components/admin/ConfirmDelete";
import { deleteMemory, getMemory } from "~/guestbook/memory.server";
import { invariantResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { MEMORIES_LIST } from "~/utils/published";
import { MEMORY_DELETE_FAILED, MEMORY_DELETED, publishedReturn } from "~/routes/published-actions.server";

// "Delete this memory?": a page of its own without JavaScript, a dialog over
// the list with it. Only its own form deletes.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const memory = getMemory(idParam(params.id) ?? 0);
  invariantResponse(memory, "Not found", { status: 404 });
  return json(
    { memory: { id: memory.id, name: memory.name, message: memory.message }, closeTo: publishedReturn(request, MEMORIES_LIST) },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  return answerConfirmedDelete(request, params.id, admin, {
    returnTo: publishedReturn(request, MEMORIES_LIST),
    remove: deleteMemory,
    deleted: MEMORY_DELETED,
    failed: MEMORY_DELETE_FAILED,
  });
}

export default function DeleteMemory() {
  const { memory, closeTo } = useLoaderData<typeof loader>();
  return (
    <ConfirmDelete title="Delete this memory?" closeTo={closeTo}>
      The memory from {memory.name} will be deleted for good: it leaves the guest book, the keepsake and the spreadsheets. This cannot be
      undone. To take it off the site and keep it, unpublish it instead.
    </ConfirmDelete>
  );
}
