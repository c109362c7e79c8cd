import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { GUESTBOOK_MAX_LIMIT, GUESTBOOK_PAGE_SIZE } from "~/guestbook/memory.constants";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { listPublicMemories, submitMemory } from "~/guestbook/memory.server";
import { errorResponse, fieldErrors, methodNotAllowed, NO_STORE, readJsonObject } from "~/platform/http.server";
import { listParams, nextPageLink } from "~/platform/page-cursor.server";
import { answerRefusals } from "~/platform/refusal.server";
import { visitorLanguage } from "~/site/language.server";

/**
 * GET /api/guestbook?limit=10&offset=n, or &before=<cursor>: approved
 * memories, newest first, as the spec's bare array; a full page names the
 * next one in `Link: <…>; rel="next"`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const params = listParams(url, { pageSize: GUESTBOOK_PAGE_SIZE, maxLimit: GUESTBOOK_MAX_LIMIT });
  if ("errors" in params) return errorResponse(400, params.errors);
  const page = listPublicMemories(params);
  return json(page.items, { headers: { "Cache-Control": NO_STORE, ...nextPageLink(url, page.next) } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const body = await readJsonObject(request);
  const parsed = MemoryApiSchema.safeParse(body);
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));

  // The answer stays in English; the memory keeps the language the request asked for, for its e-mails.
  const language = await visitorLanguage(request);
  return answerRefusals(() => {
    const { id } = submitMemory(parsed.data, { clientIp: context.clientIp }, language);
    return json({ id, status: "PENDING" }, { status: 201 });
  });
}
