import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { PoemInput } from "~/poems/poem.schema";
import { createPoem, listPoems } from "~/poems/poem.server";
import { errorResponse, fieldErrors, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return json(listPoems(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/** POST /api/admin/poems {title, content, author} → 201 with the poem. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const parsed = PoemInput.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(() => json(createPoem(parsed.data, admin), { status: 201 }));
}
