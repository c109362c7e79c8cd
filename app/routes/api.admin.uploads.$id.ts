import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/auth/session.server";
import { getAdminUpload, setUploadStatus, toAdminUpload } from "~/models/upload.server";
import { errorResponse, fieldErrors, invariantResponse, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/utils/http.server";
import { idParam, ModerationSchema } from "~/utils/moderation";
import { answerRefusals } from "~/utils/refusal.server";

const NO_SUCH_UPLOAD = "There is no upload with this id";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  const upload = getAdminUpload(idParam(params.id) ?? 0);
  invariantResponse(upload, NO_SUCH_UPLOAD, { status: 404, field: "id" });
  return json(upload, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/** PATCH /api/admin/uploads/{id} {status}: publish, or reject (its files are deleted). */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  const parsed = ModerationSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  const id = idParam(params.id);
  return answerRefusals(async () => {
    const upload = id ? await setUploadStatus(id, parsed.data.status, admin) : undefined;
    invariantResponse(upload, NO_SUCH_UPLOAD, { status: 404, field: "id" });
    return json(toAdminUpload(upload));
  });
}
