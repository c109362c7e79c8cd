import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { uploadFor } from "~/admins/contact-details";
import { ConfirmStep } from "~/components/admin/ConfirmStep";
import { PendingUploads } from "~/components/admin/PendingUploads";
import * as s from "~/components/admin/admin.css";
import { storageUse } from "~/uploads/upload-budget.server";
import { countPendingUploads, listPendingUploads } from "~/uploads/upload.server";
import { readFirstView, showsAll } from "~/routes/read-first.server";
import { ReadFirstNotice, ShownOnPurpose } from "~/components/admin/ReadFirstNotice";
import { moderateUploadForm } from "~/routes/admin-actions.server";
import { formatBytes } from "~/utils/bytes";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

/** The tab with what waits for the helpers shown on purpose. */
const SHOWN = "/admin/uploads?show=all";

/** The Pending Uploads tab; while helpers read first, the family sees a short notice instead, and the list only when they ask. */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const readFirst = readFirstView(admin, request);
  const held = readFirst === "held";
  const uploads = held ? [] : listPendingUploads().map((upload) => uploadFor(admin.role, upload));
  return json(
    {
      uploads,
      waiting: held ? countPendingUploads() : uploads.length,
      readFirst,
      storage: await storageUse(),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return moderateUploadForm(request, showsAll(request) ? SHOWN : "/admin/uploads");
}

export default function PendingUploadsTab() {
  const { uploads, waiting, readFirst, storage } = useLoaderData<typeof loader>();
  const listAction = readFirst === "shown" ? SHOWN : "/admin/uploads";
  const answer = useActionData<typeof action>();
  const parts = [`${formatBytes(storage.pendingBytes)} waiting for review`, `${formatBytes(storage.publishedBytes)} published`];
  if (storage.setAsideBytes > 0) parts.push(`${formatBytes(storage.setAsideBytes)} set aside by helpers`);
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
      {readFirst === "held" ? (
        <ReadFirstNotice what="uploads" waiting={waiting} showAllTo={SHOWN} />
      ) : (
        <>
          {readFirst === "shown" ? <ShownOnPurpose hideTo="/admin/uploads" /> : null}
          <ConfirmStep confirm={answer && "confirm" in answer ? answer.confirm : null} action={listAction} cancelTo={listAction} />
          <PendingUploads uploads={uploads} action={listAction} />
        </>
      )}
    </>
  );
}
