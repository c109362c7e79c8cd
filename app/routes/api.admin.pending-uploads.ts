import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { adminReadOnlyAction, requireAdminApi } from "~/admins/session.server";
import { uploadFor } from "~/admins/contact-details";
import { listPendingUploads } from "~/uploads/upload.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  return json(
    listPendingUploads().map((upload) => uploadFor(admin.role, upload)),
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export const action = adminReadOnlyAction;
