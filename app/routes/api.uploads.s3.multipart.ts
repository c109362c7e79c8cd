import { json, type ActionFunctionArgs } from "@remix-run/node";
import { createMultipartUpload } from "~/uploads/upload-parts.server";
import { errorResponse, methodNotAllowed, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

export const loader = () => methodNotAllowed("POST");

/** POST /api/uploads/s3/multipart {filename, type, size?} → {uploadId, key}: starts a resumable upload. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return answerRefusals(async () => {
    const body = await readJsonObject(request);
    const size = body.size ?? null;
    if (size !== null && !(typeof size === "number" && Number.isSafeInteger(size) && size >= 0)) {
      return errorResponse(400, { size: ["size must be a whole number of bytes"] });
    }
    const started = await createMultipartUpload(
      {
        filename: typeof body.filename === "string" ? body.filename : null,
        contentType: typeof body.type === "string" ? body.type : null,
        size,
      },
      context.clientIp,
    );
    return json(started, { status: 201 });
  });
}
