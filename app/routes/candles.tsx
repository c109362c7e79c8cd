import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CandleSection } from "~/components/CandleSection";
import { FormAlert } from "~/components/forms";
import { pageMeta } from "~/site/meta";
import { useSite } from "~/site/site-view";
import * as ui from "~/styles/ui.css";
import {
  CANDLE_BODY_BYTES,
  candleForm,
  candleLitToast,
  candleSummary,
  candleVisitor,
  getSiteSettings,
  json,
  lightCandle,
  noStoreHeaders,
  readFormData,
  redirectWithToast,
  replyIfRefused,
  safeRedirect,
} from "~/routes/candles.server";

// /candles: where every candle form posts. Lit, it goes back (303) to the
// page it came from, with a toast; refused, this page answers with the form,
// its messages and what was typed, with or without JavaScript.

export const headers = noStoreHeaders;

export async function loader() {
  return json({ candles: candleSummary() });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, CANDLE_BODY_BYTES);
  const returnTo = safeRedirect(form.get("redirectTo"), "/candles");
  const submission = candleForm.parse(form);
  if (submission.status !== "success") return json({ result: submission.reply(), returnTo }, { status: 400 });
  const { personName } = getSiteSettings();
  // A bot filled in the hidden field: thank it and keep nothing.
  if (submission.value.webpage)
    return redirectWithToast(returnTo, candleLitToast({ counted: true, status: "APPROVED" }, personName), { status: 303 });

  const { visitorId, setCookie } = await candleVisitor(request);
  let lit: ReturnType<typeof lightCandle> | undefined;
  const refused = replyIfRefused(submission, () => {
    lit = lightCandle(submission.value, { clientIp: context.clientIp, visitorId });
  });
  if (refused || !lit) return refused;
  return redirectWithToast(returnTo, candleLitToast(lit, personName), {
    status: 303,
    headers: setCookie ? { "Set-Cookie": setCookie } : undefined,
  });
}

export default function CandlesPage() {
  const { candles } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const refusal = answer?.result.error?.[""] ?? undefined;
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>Candles</h1>
        <p className={ui.subtitle}>Light a candle in memory of {useSite().personName}.</p>
      </div>
      <FormAlert title="Your candle could not be lit" messages={refusal} />
      <CandleSection
        summary={candles}
        returnTo={answer && "returnTo" in answer ? answer.returnTo : "/candles#candles"}
        reply={answer?.result}
      />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, { title: "Candles", description: "Light a candle.", path: "/candles" });
