import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireFamilyApi } from "~/admins/session.server";
import { LifeApiInput } from "~/life/life.schema";
import { adminLifeApi, putLife } from "~/life/life.server";
import { errorResponse, fieldErrors, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

/** The story (30,000 characters) and a full timeline, even with every character written as a \u escape. */
const MAX_LIFE_JSON_BYTES = 1024 * 1024;

/** GET /api/admin/life → the life story as visitors would read it, with `published`. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return json(adminLifeApi(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/**
 * PUT /api/admin/life with any of the fields GET answers → 200 with all of
 * them; 400 `{"errors": {field: [message]}}` for what the forms would refuse.
 */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireFamilyApi(request);
  if (request.method !== "PUT") return methodNotAllowed("GET, PUT");
  const parsed = LifeApiInput.safeParse(await readJsonObject(request, MAX_LIFE_JSON_BYTES));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(async () => {
    const update = await putLife(parsed.data, admin);
    if (!update.ok) return errorResponse(400, update.errors);
    return json(adminLifeApi(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
  });
}
