import { UploadRefused } from "~/models/upload.server";
import { errorResponse } from "~/utils/http.server";

/** Runs an upload API handler, answering the upload rules' refusals in the API's error shape. */
export async function answerUploadRefusals(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof UploadRefused) return errorResponse(error.status, { [error.field]: [error.message] });
    throw error;
  }
}

export function methodNotAllowed(allow: string) {
  return errorResponse(405, { method: [`Use ${allow} here`] }, { headers: { Allow: allow } });
}

/** The site's own origin as the browser sees it (https behind Fly's proxy). */
export function siteOrigin(request: Request) {
  return new URL(request.url).origin;
}
