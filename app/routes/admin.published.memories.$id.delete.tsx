import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { answerConfirmedDelete } from "~/routes/confirmed-delete.server";
import { ConfirmDelete } from "~/components/admin/ConfirmDelete";
import { deleteMemory, getMemory } from "~/guestbook/memory.server";
import { invariantResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { MEMORIES_LIST } from "~/utils/published";
import { MEMORY_DELETE_FAILED, MEMORY_DELETED, MEMORY_SET_ASIDE, publishedReturn } from "~/routes/published-actions.server";
import { useAdminRole } from "~/components/admin/admin-role";

// "Delete this memory?": a page of its own without JavaScript, a dialog over
// the list with it. Only its own form deletes. A helper's delete sets the
// memory aside for the family (deleteMemory), and her page says so.

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
    deleted: admin.role === "helper" ? MEMORY_SET_ASIDE : MEMORY_DELETED,
    failed: MEMORY_DELETE_FAILED,
  });
}

export default function DeleteMemory() {
  const { memory, closeTo } = useLoaderData<typeof loader>();
  const helper = useAdminRole() === "helper";
  if (helper) {
    return (
      <ConfirmDelete title="Set this memory aside?" closeTo={closeTo} label="Set aside">
        The memory from {memory.name} leaves the guest book and is kept for the family, who can publish it again or delete it. To take it
        off the site for now, unpublish it instead.
      </ConfirmDelete>
    );
  }
  return (
    <ConfirmDelete title="Delete this memory?" closeTo={closeTo}>
      The memory from {memory.name} will be deleted for good: it leaves the guest book, the keepsake and the spreadsheets. This cannot be
      undone. To take it off the site and keep it, unpublish it instead.
    </ConfirmDelete>
  );
}
