import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireFamilyApi } from "~/admins/session.server";
import { NewAdminSchema } from "~/admins/admin.schema";
import { createAdmin, listAdmins } from "~/admins/admin.server";
import { errorResponse, fieldErrors, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

/** GET /api/admin/admins → [{id, username, createdAt}], the first added first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return json(listAdmins(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/** POST /api/admin/admins {username, password} → 201 with {id, username, createdAt}; 409 for a taken username. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireFamilyApi(request);
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const parsed = NewAdminSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(async () => json(await createAdmin(parsed.data, admin), { status: 201 }));
}
