import { json, type ActionFunctionArgs } from "@remix-run/node";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { createRsvp } from "~/attendance/rsvp.server";
import { errorResponse, fieldErrors, methodNotAllowed, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = () => methodNotAllowed("POST");

/** POST /api/rsvp {name, email, guestCount, notes} → 201. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const parsed = RsvpSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(() => {
    const rsvp = createRsvp(parsed.data, { clientIp: context.clientIp });
    return json({ id: rsvp.id, guestCount: rsvp.guestCount }, { status: 201 });
  });
}
