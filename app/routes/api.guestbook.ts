import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { GUESTBOOK_MAX_LIMIT, GUESTBOOK_PAGE_SIZE, listPublicMemories, MemoryApiSchema, submitMemory } from "~/models/memory.server";
import { errorResponse, fieldErrors, intParam, methodNotAllowed, NO_STORE, readJsonObject } from "~/utils/http.server";
import { answerRefusals } from "~/utils/refusal.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const limit = intParam(url, "limit", { fallback: GUESTBOOK_PAGE_SIZE, min: 1, max: GUESTBOOK_MAX_LIMIT });
  const offset = intParam(url, "offset", { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
  const errors: Record<string, string[]> = {};
  if ("error" in limit) errors.limit = [limit.error];
  if ("error" in offset) errors.offset = [offset.error];
  if ("error" in limit || "error" in offset) return errorResponse(400, errors);
  return json(listPublicMemories({ limit: limit.value, offset: offset.value }), {
    headers: { "Cache-Control": NO_STORE },
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const body = await readJsonObject(request);
  const parsed = MemoryApiSchema.safeParse(body);
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));

  return answerRefusals(() => {
    const { id } = submitMemory(parsed.data, { clientIp: context.clientIp });
    return json({ id, status: "PENDING" }, { status: 201 });
  });
}
