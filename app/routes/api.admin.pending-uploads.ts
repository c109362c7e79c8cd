import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/auth/session.server";
import { listPendingUploads } from "~/models/upload.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return json(listPendingUploads(), { headers: { "Cache-Control": "private, no-store" } });
}
