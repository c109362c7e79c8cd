import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { uploadFor } from "~/admins/contact-details";
import { ConfirmStep } from "~/components/admin/ConfirmStep";
import { PendingUploads } from "~/components/admin/PendingUploads";
import * as s from "~/components/admin/admin.css";
import { storageUse } from "~/uploads/upload-budget.server";
import { listPendingUploads } from "~/uploads/upload.server";
import { moderateUploadForm } from "~/routes/admin-actions.server";
import { formatBytes } from "~/utils/bytes";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const uploads = listPendingUploads().map((upload) => uploadFor(admin.role, upload));
  return json({ uploads, storage: await storageUse() }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return moderateUploadForm(request, "/admin/uploads");
}

export default function PendingUploadsTab() {
  const { uploads, storage } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const parts = [`${formatBytes(storage.pendingBytes)} waiting for review`, `${formatBytes(storage.publishedBytes)} published`];
  if (storage.freeBytes !== null) parts.push(`${formatBytes(storage.freeBytes)} free`);
  return (
    <>
      {/* The preview of one upload (admin/uploads/:id) opens above the list. */}
      <Outlet />
      <p className={s.storageNote}>
        Storage: {parts.join(" · ")}
        {storage.full ? (
          <strong className={s.storageFull}>
            {storage.full === "pending"
              ? "New photos and videos are turned away until you publish or delete some of those waiting."
              : "The disk is nearly full: new photos and videos are turned away. Delete some uploads, or give the volume more room."}
          </strong>
        ) : null}
      </p>
      <ConfirmStep confirm={answer && "confirm" in answer ? answer.confirm : null} action="/admin/uploads" cancelTo="/admin/uploads" />
      <PendingUploads uploads={uploads} />
    </>
  );
}
