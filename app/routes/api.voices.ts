import { json, type ActionFunctionArgs } from "@remix-run/node";
import { errorResponse, methodNotAllowed } from "~/platform/http.server";
import { receiveVoiceRequest } from "~/voices/voice-form.server";
import { visitorLanguage } from "~/site/language.server";

/**
 * POST /api/voices: the voice form (multipart/form-data: `recording`, `name`,
 * `email`, `line`, `canDisplay`, `notify`, `website`), as the in-page
 * recorder sends it. The same function as the form's page (/voices), in the
 * API's answers: 201 `{ "status": "PENDING" }` (with its `id`), or the
 * refusal's status (400, 411, 413, 415, 429, 507) with
 * `{ "errors": { "<field>": ["<message>"] } }`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  // Answered in English (the API's words); the sender's language is kept for the e-mail that tells them it was published.
  const outcome = await receiveVoiceRequest(request, context.clientIp, await visitorLanguage(request));
  if (outcome.done) return json({ ...(outcome.id === null ? {} : { id: outcome.id }), status: "PENDING" }, { status: 201 });
  return errorResponse(outcome.status, outcome.reply.errors as Record<string, string[]>, { headers: outcome.headers });
}

export const loader = () => methodNotAllowed("POST");
