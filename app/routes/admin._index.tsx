import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { memoryFor } from "~/admins/contact-details";
import { ConfirmStep } from "~/components/admin/ConfirmStep";
import { PendingMemories } from "~/components/admin/PendingMemories";
import { SetupChecklist } from "~/components/admin/SetupChecklist";
import { listPendingMemoriesPage } from "~/guestbook/memory.server";
import { setupSteps } from "~/site/settings.server";
import { CANDLE_MODERATION, moderateCandleForm, moderateMemoryForm } from "~/routes/admin-actions.server";
import { listPendingCandles } from "~/candles/candles.server";
import { PendingCandles } from "~/components/admin/PendingCandles";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { decodeCursor } from "~/platform/page-cursor.server";

// /admin itself: the Pending Memories tab, with the candles whose words wait for the family.
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  // A link from an older page may name a memory moderated since: the page then continues after it all the same.
  const after = decodeCursor(new URL(request.url).searchParams.get("after") ?? "") ?? undefined;
  const setup = setupSteps()
    .filter(({ done }) => !done)
    .map(({ step }) => step);
  const pending = listPendingMemoriesPage(after);
  return json(
    {
      ...pending,
      memories: pending.memories.map((memory) => memoryFor(admin.role, memory)),
      continued: after !== undefined,
      setup,
      candles: listPendingCandles(),
      candleAction: CANDLE_MODERATION,
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  if (new URL(request.url).searchParams.get("moderate") === "candle") return moderateCandleForm(request, "/admin");
  return moderateMemoryForm(request, "/admin");
}

export default function PendingMemoriesTab() {
  const { memories, next, total, continued, setup, candles, candleAction } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const confirmAction = answer && "action" in answer && typeof answer.action === "string" ? answer.action : "/admin?index";
  return (
    <>
      <SetupChecklist steps={setup} />
      <ConfirmStep confirm={answer && "confirm" in answer ? answer.confirm : null} action={confirmAction} cancelTo="/admin" />
      <PendingMemories memories={memories} page={{ next, total, continued }} />
      <PendingCandles candles={candles.candles} total={candles.total} action={candleAction} />
    </>
  );
}
