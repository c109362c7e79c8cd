import { json, type ActionFunctionArgs } from "@remix-run/node";
import { signUpload } from "~/uploads/upload-intake.server";
import { errorResponse, methodNotAllowed, NO_STORE, readJsonObject, siteOrigin } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = () => methodNotAllowed("POST");

/**
 * POST /api/uploads/sign (no body needed) → {uploadURL}. A JSON body with a
 * `filename` only lends the stored object a matching extension; with a `size`
 * (bytes), a file that cannot fit right now is refused before it is sent.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return answerRefusals(async () => {
    const hasBody = Number(request.headers.get("Content-Length") ?? "0") > 0 || request.headers.has("Transfer-Encoding");
    const body = hasBody && request.headers.get("Content-Type") ? await readJsonObject(request) : {};
    const filename = typeof body.filename === "string" ? body.filename : null;
    const size = body.size ?? null;
    if (size !== null && !(typeof size === "number" && Number.isSafeInteger(size) && size >= 0)) {
      return errorResponse(400, { size: ["size must be a whole number of bytes"] });
    }
    const { uploadURL } = await signUpload(siteOrigin(request), { filename, size }, context.clientIp);
    return json({ uploadURL }, { headers: { "Cache-Control": NO_STORE } });
  });
}
