import { json, type ActionFunctionArgs } from "@remix-run/node";
import { CandleApiSchema } from "~/candles/candle.schema";
import { candleVisitor } from "~/candles/candle-visitor.server";
import { CANDLE_BODY_BYTES, candleSummary, lightCandle } from "~/candles/candles.server";
import { errorResponse, fieldErrors, methodNotAllowed, NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

/** GET /api/candles: `{ count, recent: [{ name, message, createdAt }] }`, the published words newest first. */
export async function loader() {
  return json(candleSummary(), { headers: { "Cache-Control": NO_STORE } });
}

/**
 * POST /api/candles `{ name?, message? }` → 201 `{ counted, count, status }`.
 * A browser keeps its visitor cookie, so its candles count once a day, as
 * the form's do.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const parsed = CandleApiSchema.safeParse(await readJsonObject(request, CANDLE_BODY_BYTES));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  const { visitorId, setCookie } = await candleVisitor(request);
  return answerRefusals(() => {
    const lit = lightCandle(parsed.data, { clientIp: context.clientIp, visitorId });
    return json(lit, { status: 201, headers: setCookie ? { "Set-Cookie": setCookie } : undefined });
  });
}
