import { json, type ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/media/responses.server";
import { checkSubmissionAllowed, countSubmission, TOO_MANY_SUBMISSIONS } from "~/models/memory.server";
import { createRsvp, RsvpSchema } from "~/models/rsvp.server";
import { errorResponse, fieldErrors, readJsonObject } from "~/utils/http.server";

export const loader = () => methodNotAllowed("POST");

/** POST /api/rsvp {name, email, guestCount, notes} → 201. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const parsed = RsvpSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  const limit = checkSubmissionAllowed(context.clientIp);
  if (!limit.allowed) {
    return errorResponse(429, { body: [TOO_MANY_SUBMISSIONS] }, { headers: { "Retry-After": String(limit.retryAfterSeconds) } });
  }
  countSubmission(context.clientIp);
  const rsvp = createRsvp(parsed.data);
  return json({ id: rsvp.id, guestCount: rsvp.guestCount }, { status: 201 });
}
