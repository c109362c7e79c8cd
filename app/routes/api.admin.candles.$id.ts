import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { CandlePatchSchema } from "~/candles/candle.schema";
import { getCandle, setCandleStatus } from "~/candles/candles.server";
import { errorResponse, fieldErrors, invariantResponse, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";
import { idParam } from "~/utils/moderation";

const NO_SUCH_CANDLE = "There is no candle with this id";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  const candle = getCandle(idParam(params.id) ?? 0);
  invariantResponse(candle, NO_SUCH_CANDLE, { status: 404, field: "id" });
  return json(candle, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/**
 * PATCH /api/admin/candles/{id} `{ status: "APPROVED" | "REJECTED" }`: publish a candle's words, or
 * refuse them (a helper's refusal is set aside for the family, and only the family publishes it then).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  const parsed = CandlePatchSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  const id = idParam(params.id);
  return answerRefusals(() => {
    const candle = id ? setCandleStatus(id, parsed.data.status, admin) : undefined;
    invariantResponse(candle, NO_SUCH_CANDLE, { status: 404, field: "id" });
    return json(candle);
  });
}
