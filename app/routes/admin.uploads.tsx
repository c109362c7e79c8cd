import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/auth/session.server";
import { PendingUploads } from "~/components/admin/PendingUploads";
import { listPendingUploads } from "~/models/upload.server";
import { moderateUploadForm } from "~/utils/admin-actions.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ uploads: listPendingUploads() }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  return moderateUploadForm(request, "/admin/uploads");
}

export default function PendingUploadsTab() {
  const { uploads } = useLoaderData<typeof loader>();
  return (
    <>
      {/* The preview of one upload (admin/uploads/:id) opens above the list. */}
      <Outlet />
      <PendingUploads uploads={uploads} />
    </>
  );
}
