import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { describeUploadedObject } from "~/models/upload.server";
import { invariantResponse, methodNotAllowed, NO_STORE } from "~/utils/http.server";

/**
 * GET /api/uploads/objects/{key}: the `location` a finished multipart upload
 * answers with. Says whether the file has arrived (and its size) or has been
 * completed; never serves the file itself.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const described = await describeUploadedObject(params["*"] ?? "");
  invariantResponse(described, "There is no such uploaded file.", { status: 404, field: "key" });
  return json(described, { headers: { "Cache-Control": NO_STORE } });
}

export const action = () => methodNotAllowed("GET");
