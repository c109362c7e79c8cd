import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { answerConfirmedDelete } from "~/routes/confirmed-delete.server";
import { ConfirmDelete } from "~/components/admin/ConfirmDelete";
import { deleteUpload, getAdminUpload } from "~/uploads/upload.server";
import { invariantResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { UPLOADS_LIST } from "~/utils/published";
import { publishedReturn, UPLOAD_DELETE_FAILED, uploadDeleted, uploadSetAside } from "~/routes/published-actions.server";
import { useAdminRole } from "~/components/admin/admin-role";
import { uploadFor } from "~/admins/contact-details";
import { UPLOAD_KIND, uploadName } from "~/uploads/upload-words";

// "Delete this photo?" (or video): a page of its own without JavaScript, a
// dialog over the list with it. The files go once the row's deletion is committed.
// A helper's delete sets it aside with its files for the family, and her page says so.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const upload = getAdminUpload(idParam(params.id) ?? 0);
  invariantResponse(upload, "Not found", { status: 404 });
  return json(
    {
      upload: {
        id: upload.id,
        type: upload.type,
        // A photo or video by its file name, a voice by who sent it (the name alone for a helper).
        name: upload.type === "AUDIO" ? uploadName(uploadFor(admin.role, upload), true) : `“${upload.originalName ?? "Unknown"}”`,
        thumbnailUrl: upload.thumbnailUrl,
        canDisplay: upload.canDisplay,
      },
      closeTo: publishedReturn(request, UPLOADS_LIST),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const type = getAdminUpload(idParam(params.id) ?? 0)?.type ?? "IMAGE";
  return answerConfirmedDelete(request, params.id, admin, {
    returnTo: publishedReturn(request, UPLOADS_LIST),
    remove: deleteUpload,
    deleted: admin.role === "helper" ? uploadSetAside(type) : uploadDeleted(type),
    failed: UPLOAD_DELETE_FAILED,
  });
}

export default function DeleteUpload() {
  const { upload, closeTo } = useLoaderData<typeof loader>();
  const what = UPLOAD_KIND[upload.type];
  // Where visitors meet it: a voice kept for the family (no permission) is only in the keepsake.
  const shownIn = upload.type !== "AUDIO" ? "the gallery" : upload.canDisplay ? "the guest book" : null;
  const helper = useAdminRole() === "helper";
  if (helper) {
    return (
      <ConfirmDelete title={`Set this ${what} aside?`} closeTo={closeTo} picture={upload.thumbnailUrl} label="Set aside">
        {upload.name} {shownIn ? `leaves ${shownIn} and ` : ""}is kept with its files for the family, who can publish it again or delete it.
        To take it off the site for now, unpublish it instead.
      </ConfirmDelete>
    );
  }
  return (
    <ConfirmDelete title={`Delete this ${what}?`} closeTo={closeTo} picture={upload.thumbnailUrl}>
      {upload.name} will be deleted for good with all its files: it leaves {shownIn ? `${shownIn}, the slideshow and ` : ""}the keepsake.
      This cannot be undone. To take it off the site and keep it, unpublish it instead.
    </ConfirmDelete>
  );
}
