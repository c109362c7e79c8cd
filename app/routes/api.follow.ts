import { json, type ActionFunctionArgs } from "@remix-run/node";
import { FollowSchema } from "~/remembrance/follow.schema";
import { FOLLOW_SENT } from "~/remembrance/follow.constants";
import { requestFollow } from "~/remembrance/followers.server";
import { mailEnabled } from "~/mail/outbox.server";
import { errorResponse, fieldErrors, methodNotAllowed, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = () => methodNotAllowed("POST");

const NO_MAIL = "This memorial does not send e-mail, so it cannot keep anyone posted that way.";

/**
 * POST /api/follow {name, email, topics} → 202: a confirmation e-mail is
 * queued (at most one a day per address), and the answer is the same for an
 * address that already follows, so nobody can learn who follows.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const parsed = FollowSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  // Nothing could be sent: an answer of 202 would be a promise the site cannot keep. This site
  // has no following to offer (404), which is no fault of the server's (never a 5xx for a client).
  if (!mailEnabled()) return errorResponse(404, { body: [NO_MAIL] });
  return answerRefusals(() => {
    if (!parsed.data.website) requestFollow(parsed.data, { clientIp: context.clientIp });
    return json({ message: FOLLOW_SENT.description }, { status: 202 });
  });
}
