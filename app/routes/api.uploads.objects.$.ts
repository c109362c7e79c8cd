import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { describeUploadedObject } from "~/uploads/upload-intake.server";
import { invariantResponse, methodNotAllowed, PRIVATE_NO_STORE } from "~/platform/http.server";

/**
 * GET /api/uploads/objects/{key}: the `location` a finished multipart upload
 * answers with. Says whether the file has arrived (and its size) or has been
 * completed; never serves the file itself. Private: it is the uploader's
 * own, and with S3 it changes without the site knowing (the browser sends
 * the bytes straight to the bucket), so no cache may keep it.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const described = await describeUploadedObject(params["*"] ?? "");
  invariantResponse(described, "There is no such uploaded file.", { status: 404, field: "key" });
  return json(described, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = () => methodNotAllowed("GET");
