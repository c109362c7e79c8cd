import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/auth/session.server";
import { ConfirmStep } from "~/components/admin/ConfirmStep";
import { PendingMemories } from "~/components/admin/PendingMemories";
import { listPendingMemories } from "~/models/memory.server";
import { moderateMemoryForm } from "~/routes/admin-actions.server";
import { PRIVATE_NO_STORE } from "~/utils/http.server";

// /admin itself: the Pending Memories tab.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ memories: listPendingMemories() }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return moderateMemoryForm(request, "/admin");
}

export default function PendingMemoriesTab() {
  const { memories } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <>
      <ConfirmStep confirm={answer && "confirm" in answer ? answer.confirm : null} action="/admin?index" cancelTo="/admin" />
      <PendingMemories memories={memories} />
    </>
  );
}
