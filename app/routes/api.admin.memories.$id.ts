import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/auth/session.server";
import { getMemory, setMemoryStatus } from "~/models/memory.server";
import { errorResponse, fieldErrors, invariantResponse, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/utils/http.server";
import { idParam, ModerationSchema } from "~/utils/moderation";
import { answerRefusals } from "~/utils/refusal.server";

const NO_SUCH_MEMORY = "There is no memory with this id";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  const memory = getMemory(idParam(params.id) ?? 0);
  invariantResponse(memory, NO_SUCH_MEMORY, { status: 404, field: "id" });
  return json(memory, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/** PATCH /api/admin/memories/{id} {status}: approve or reject. */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  const id = idParam(params.id);
  const parsed = ModerationSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(() => {
    invariantResponse(id && setMemoryStatus(id, parsed.data.status, admin), NO_SUCH_MEMORY, { status: 404, field: "id" });
    return json(getMemory(id));
  });
}
