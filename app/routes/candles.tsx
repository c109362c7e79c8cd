import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CandleSection } from "~/components/CandleSection";
import { FormAlert } from "~/components/forms";
import { translatorFromMatches, useT } from "~/components/useT";
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
  pageWords,
  readFormData,
  redirectWithToast,
  replyIfRefused,
  safeRedirect,
  visitorLanguage,
} from "~/routes/candles.server";

// /candles: where every candle form posts. Lit, it goes back (303) to the
// page it came from, with a toast; refused, this page answers with the form,
// its messages and what was typed, with or without JavaScript.

export const headers = noStoreHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ candles: candleSummary(), words: pageWords(await visitorLanguage(request), ["candles"]) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, CANDLE_BODY_BYTES);
  const returnTo = safeRedirect(form.get("redirectTo"), "/candles");
  const submission = candleForm.parse(form);
  if (submission.status !== "success") return json({ result: submission.reply(), returnTo }, { status: 400 });
  const { personName } = getSiteSettings();
  const language = await visitorLanguage(request);
  // A bot filled in the hidden field: thank it and keep nothing.
  if (submission.value.webpage)
    return redirectWithToast(returnTo, candleLitToast({ counted: true, status: "APPROVED" }, personName, language), { status: 303 });

  const { visitorId, setCookie } = await candleVisitor(request);
  let lit: ReturnType<typeof lightCandle> | undefined;
  const refused = replyIfRefused(submission, () => {
    lit = lightCandle(submission.value, { clientIp: context.clientIp, visitorId });
  });
  if (refused || !lit) return refused;
  return redirectWithToast(returnTo, candleLitToast(lit, personName, language), {
    status: 303,
    headers: setCookie ? { "Set-Cookie": setCookie } : undefined,
  });
}

export default function CandlesPage() {
  const { candles } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const words = useT();
  const { t } = words;
  const refusal = answer?.result.error?.[""]?.map(words.tError) ?? undefined;
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{t("candles.page.title")}</h1>
        <p className={ui.subtitle}>{t("candles.page.subtitle", { name: useSite().personName })}</p>
      </div>
      <FormAlert title={t("candles.page.refused")} messages={refusal} />
      <CandleSection
        summary={candles}
        returnTo={answer && "returnTo" in answer ? answer.returnTo : "/candles#candles"}
        reply={answer?.result}
        words={words}
      />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, { title: t("candles.page.title"), description: t("candles.page.description"), path: "/candles" });
};
