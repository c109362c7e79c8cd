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
import { readFirstView, showsAll } from "~/routes/read-first.server";
import { ReadFirstNotice, ShownOnPurpose } from "~/components/admin/ReadFirstNotice";

// /admin itself: the Pending Memories tab, with the candles whose words wait for the family. While
// helpers read first, the family sees a short notice instead, and the lists only when they ask (?show=all).
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  // A link from an older page may name a memory moderated since: the page then continues after it all the same.
  const after = decodeCursor(new URL(request.url).searchParams.get("after") ?? "") ?? undefined;
  // The site's first steps are the family's to take (their links lead to family-only pages): none for a helper.
  const setup =
    admin.role === "family"
      ? setupSteps()
          .filter(({ done }) => !done)
          .map(({ step }) => step)
      : [];
  const readFirst = readFirstView(admin, request);
  const held = readFirst === "held";
  const page = listPendingMemoriesPage(held ? undefined : after);
  const candles = listPendingCandles();
  return json(
    {
      ...(held
        ? { ...page, memories: [], next: null }
        : { ...page, memories: page.memories.map((memory) => memoryFor(admin.role, memory)) }),
      continued: !held && after !== undefined,
      setup,
      candles: held ? { candles: [], total: candles.total } : candles,
      // "held": the notice instead of the lists; "shown": the lists, asked for on purpose; null: as ever.
      readFirst,
      candleAction: CANDLE_MODERATION,
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  // Back to the lists the family asked to see, when they did.
  const returnTo = showsAll(request) ? SHOWN : "/admin";
  if (new URL(request.url).searchParams.get("moderate") === "candle") return moderateCandleForm(request, returnTo);
  return moderateMemoryForm(request, returnTo);
}

/** The tab with what waits for the helpers shown on purpose. */
const SHOWN = "/admin?show=all";

export default function PendingMemoriesTab() {
  const { memories, next, total, continued, setup, candles, readFirst, candleAction } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const shown = readFirst === "shown";
  const own = shown ? "&show=all" : "";
  const confirmAction = answer && "action" in answer && typeof answer.action === "string" ? answer.action : `/admin?index${own}`;
  return (
    <>
      <SetupChecklist steps={setup} />
      {readFirst === "held" ? (
        <ReadFirstNotice what="memories" waiting={total} candles={candles.total} showAllTo={SHOWN} />
      ) : (
        <>
          {shown ? <ShownOnPurpose hideTo="/admin" /> : null}
          <ConfirmStep
            confirm={answer && "confirm" in answer ? answer.confirm : null}
            action={confirmAction}
            cancelTo={shown ? SHOWN : "/admin"}
          />
          <PendingMemories memories={memories} page={{ next, total, continued }} showAll={shown} />
          <PendingCandles candles={candles.candles} total={candles.total} action={`${candleAction}${own}`} />
        </>
      )}
    </>
  );
}
