import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { describeUploadedObject } from "~/models/upload.server";
import { errorResponse, methodNotAllowed } from "~/utils/http.server";

/**
 * GET /api/uploads/objects/{key}: the `location` a finished multipart upload
 * answers with. Says whether the file has arrived (and its size) or has been
 * completed; never serves the file itself.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const described = await describeUploadedObject(params["*"] ?? "");
  if (!described) return errorResponse(404, { key: ["There is no such uploaded file."] });
  return json(described, { headers: { "Cache-Control": "no-store" } });
}

export const action = () => methodNotAllowed("GET");
