import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/auth/session.server";
import { ConfirmDelete } from "~/components/admin/ConfirmDelete";
import { deleteUpload, getAdminUpload } from "~/models/upload.server";
import { invariantResponse, PRIVATE_NO_STORE, readFormData } from "~/utils/http.server";
import { idParam } from "~/utils/moderation";
import { UPLOADS_LIST } from "~/utils/published";
import { publishedReturn, UPLOAD_DELETE_FAILED, UPLOAD_DELETED } from "~/routes/published-actions.server";
import { failureToast } from "~/utils/refusal.server";
import { redirectWithToast } from "~/utils/toast.server";

// "Delete this photo?" (or video): a page of its own without JavaScript, a
// dialog over the list with it. The files go once the row's deletion is committed.

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const upload = getAdminUpload(idParam(params.id) ?? 0);
  invariantResponse(upload, "Not found", { status: 404 });
  return json(
    {
      upload: { id: upload.id, type: upload.type, name: upload.originalName ?? "Unknown", thumbnailUrl: upload.thumbnailUrl },
      closeTo: publishedReturn(request, UPLOADS_LIST),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  invariantResponse(form.get("intent") === "delete", "This form does not know what to do. Please go back and try again.", {
    status: 400,
  });
  const returnTo = publishedReturn(request, UPLOADS_LIST);
  const id = idParam(params.id);
  try {
    const deleted = id ? await deleteUpload(id, admin) : undefined;
    return redirectWithToast(returnTo, deleted ? UPLOAD_DELETED : UPLOAD_DELETE_FAILED);
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(UPLOAD_DELETE_FAILED, error));
  }
}

export default function DeleteUpload() {
  const { upload, closeTo } = useLoaderData<typeof loader>();
  const what = upload.type === "VIDEO" ? "video" : "photo";
  return (
    <ConfirmDelete title={`Delete this ${what}?`} closeTo={closeTo} picture={upload.thumbnailUrl}>
      “{upload.name}” will be deleted for good with all its files: it leaves the gallery, the slideshow and the keepsake. This cannot be
      undone. To take it off the site and keep it, unpublish it instead.
    </ConfirmDelete>
  );
}
