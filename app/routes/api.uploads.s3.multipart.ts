import { json, type ActionFunctionArgs } from "@remix-run/node";
import { answerUploadRefusals, methodNotAllowed } from "~/media/responses.server";
import { createMultipartUpload } from "~/models/upload.server";
import { readJsonObject } from "~/utils/http.server";

export const loader = () => methodNotAllowed("POST");

/** POST /api/uploads/s3/multipart {filename, type} → {uploadId, key}: starts a resumable upload. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return answerUploadRefusals(async () => {
    const body = await readJsonObject(request);
    const started = await createMultipartUpload({
      filename: typeof body.filename === "string" ? body.filename : null,
      contentType: typeof body.type === "string" ? body.type : null,
    }, context.clientIp);
    return json(started, { status: 201 });
  });
}
