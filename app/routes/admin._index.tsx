import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { ConfirmStep } from "~/components/admin/ConfirmStep";
import { PendingMemories } from "~/components/admin/PendingMemories";
import { SetupChecklist } from "~/components/admin/SetupChecklist";
import { listPendingMemoriesPage } from "~/guestbook/memory.server";
import { setupSteps } from "~/site/settings.server";
import { moderateMemoryForm } from "~/routes/admin-actions.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { decodeCursor } from "~/platform/page-cursor.server";

// /admin itself: the Pending Memories tab.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  // A link from an older page may name a memory moderated since: the page then continues after it all the same.
  const after = decodeCursor(new URL(request.url).searchParams.get("after") ?? "") ?? undefined;
  const setup = setupSteps()
    .filter(({ done }) => !done)
    .map(({ step }) => step);
  return json(
    { ...listPendingMemoriesPage(after), continued: after !== undefined, setup },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return moderateMemoryForm(request, "/admin");
}

export default function PendingMemoriesTab() {
  const { memories, next, total, continued, setup } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <>
      <SetupChecklist steps={setup} />
      <ConfirmStep confirm={answer && "confirm" in answer ? answer.confirm : null} action="/admin?index" cancelTo="/admin" />
      <PendingMemories memories={memories} page={{ next, total, continued }} />
    </>
  );
}
