import { json, type ActionFunctionArgs } from "@remix-run/node";
import { z } from "~/utils/zod";
import { adminMethodNotAllowed, requireAdminApi } from "~/admins/session.server";
import { uploadFor } from "~/admins/contact-details";
import { rotateUpload } from "~/uploads/upload.server";
import { errorResponse, fieldErrors, invariantResponse, methodNotAllowed, readJsonObject } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { answerRefusals } from "~/platform/refusal.server";

const RotateSchema = z.object({ direction: z.enum(["left", "right"], { message: "direction must be left or right" }) });

export const loader = adminMethodNotAllowed("POST");

/** POST /api/admin/uploads/{id}/rotate {direction} → {newUrl}. */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "POST") return methodNotAllowed("POST");
  const parsed = RotateSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(async () => {
    const rotated = await rotateUpload(idParam(params.id) ?? 0, parsed.data.direction, admin);
    invariantResponse(rotated, "There is no upload with this id", { status: 404, field: "id" });
    return json({ newUrl: rotated.newUrl, upload: uploadFor(admin.role, rotated.upload) });
  });
}
