import { errorResponse } from "~/utils/http.server";
import { answerRefusals } from "~/utils/refusal.server";

/** Runs an upload API handler, answering the upload rules' refusals in the API's error shape. */
export const answerUploadRefusals = answerRefusals;

export function methodNotAllowed(allow: string) {
  return errorResponse(405, { method: [`Use ${allow} here`] }, { headers: { Allow: allow } });
}

/** The site's own origin as the browser sees it (https behind Fly's proxy). */
export function siteOrigin(request: Request) {
  return new URL(request.url).origin;
}
