import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/auth/session.server";
import { PoemInput } from "~/models/poem.schema";
import { createPoem, listPoems } from "~/models/poem.server";
import { errorResponse, fieldErrors, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/utils/http.server";
import { answerRefusals } from "~/utils/refusal.server";

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
