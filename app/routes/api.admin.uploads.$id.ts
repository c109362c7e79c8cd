import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { uploadFor } from "~/admins/contact-details";
import { deleteUpload, getAdminUpload, setUploadStatus, toAdminUpload } from "~/uploads/upload.server";
import { errorResponse, fieldErrors, invariantResponse, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { idParam, ModerationSchema } from "~/utils/moderation";
import { answerRefusals } from "~/platform/refusal.server";

const NO_SUCH_UPLOAD = "There is no upload with this id";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  const upload = getAdminUpload(idParam(params.id) ?? 0);
  invariantResponse(upload, NO_SUCH_UPLOAD, { status: 404, field: "id" });
  return json(uploadFor(admin.role, upload), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/**
 * PATCH /api/admin/uploads/{id} {status}: publish, reject (its files are
 * deleted) or unpublish (HIDDEN, kept). DELETE: the upload and its files
 * gone for good, 204. A helper's reject or DELETE sets it aside with its
 * files instead (the same 204 for DELETE); only the family brings it back.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  const id = idParam(params.id);
  if (request.method === "DELETE") {
    return answerRefusals(async () => {
      const deleted = id ? await deleteUpload(id, admin) : undefined;
      invariantResponse(deleted, NO_SUCH_UPLOAD, { status: 404, field: "id" });
      return new Response(null, { status: 204 });
    });
  }
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH, DELETE");
  const parsed = ModerationSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(async () => {
    const upload = id ? await setUploadStatus(id, parsed.data.status, admin) : undefined;
    invariantResponse(upload, NO_SUCH_UPLOAD, { status: 404, field: "id" });
    return json(uploadFor(admin.role, toAdminUpload(upload)));
  });
}
