import { json, type ActionFunctionArgs } from "@remix-run/node";
import { completeUpload } from "~/uploads/upload-intake.server";
import { CompleteUploadSchema } from "~/uploads/complete-upload.schema";
import { errorResponse, fieldErrors, methodNotAllowed, readJsonObject } from "~/platform/http.server";
import { rememberRecentUploads } from "~/uploads/recent-uploads.server";
import { answerRefusals } from "~/platform/refusal.server";
import { visitorLanguage } from "~/site/language.server";

export const loader = () => methodNotAllowed("POST");

/** POST /api/uploads/complete: the uploaded file becomes a PENDING upload (201). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return answerRefusals(async () => {
    const parsed = CompleteUploadSchema.safeParse(await readJsonObject(request));
    if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
    // Its sender's language, for the e-mail that tells them it was published.
    const upload = await completeUpload(parsed.data, await visitorLanguage(request));
    const cookie = await rememberRecentUploads(request, [upload.originalName ?? "Unknown"]);
    return json(upload, { status: 201, headers: { "Set-Cookie": cookie } });
  });
}
