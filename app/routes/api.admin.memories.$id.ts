import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { memoryFor } from "~/admins/contact-details";
import { deleteMemory, getMemory, updateMemory } from "~/guestbook/memory.server";
import { MemoryPatchSchema } from "~/guestbook/memory.schema";
import { errorResponse, fieldErrors, invariantResponse, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { answerRefusals } from "~/platform/refusal.server";

const NO_SUCH_MEMORY = "There is no memory with this id";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  const memory = getMemory(idParam(params.id) ?? 0);
  invariantResponse(memory, NO_SUCH_MEMORY, { status: 404, field: "id" });
  return json(memoryFor(admin.role, memory), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/**
 * PATCH /api/admin/memories/{id} {status?, name?, message?}: approve, reject
 * or unpublish (HIDDEN), and correct the name or message (the Edit form's
 * rules). DELETE: gone for good, 204. A helper's reject or DELETE sets the
 * memory aside for the family instead (the same 204 for DELETE), and her
 * attempt to publish or unpublish a rejected memory is a 403.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  const id = idParam(params.id);
  if (request.method === "DELETE") {
    return answerRefusals(() => {
      invariantResponse(id && deleteMemory(id, admin), NO_SUCH_MEMORY, { status: 404, field: "id" });
      return new Response(null, { status: 204 });
    });
  }
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH, DELETE");
  const parsed = MemoryPatchSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(() => {
    const memory = id ? updateMemory(id, parsed.data, admin) : undefined;
    invariantResponse(memory, NO_SUCH_MEMORY, { status: 404, field: "id" });
    return json(memoryFor(admin.role, memory));
  });
}
