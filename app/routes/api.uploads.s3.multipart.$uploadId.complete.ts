import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "~/utils/zod";
import { MAX_PARTS } from "~/media/limits";
import { completeMultipartUpload } from "~/uploads/upload-parts.server";
import { errorResponse, fieldErrors, methodNotAllowed, readJsonObject, siteOrigin } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

const CompletePartsSchema = z.object({
  parts: z
    .array(
      z.object({
        PartNumber: z.number({ message: "PartNumber must be a number" }).int().min(1).max(MAX_PARTS),
        ETag: z.string({ message: "ETag is required" }).min(1).max(200),
      }),
      { message: "parts must be a list of {PartNumber, ETag}" },
    )
    .min(1, "parts must not be empty")
    .max(MAX_PARTS),
});

export const loader = () => methodNotAllowed("POST");

/** POST …/{uploadId}/complete?key= {parts} → {location}: joins the parts into the file. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return answerRefusals(async () => {
    const parsed = CompletePartsSchema.safeParse(await readJsonObject(request, 1024 * 1024));
    if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
    const key = new URL(request.url).searchParams.get("key");
    return json(await completeMultipartUpload(key, params.uploadId!, parsed.data.parts, siteOrigin(request)));
  });
}
