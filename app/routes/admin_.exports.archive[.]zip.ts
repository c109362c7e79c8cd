import type { LoaderFunctionArgs } from "@remix-run/node";
import { familyDownloadAction, requireFamily } from "~/admins/session.server";
import { archiveFileName, createFamilyArchive } from "~/keepsakes/archive.server";
import { clientGone, downloadHeaders, streamedBody } from "~/platform/http.server";

/**
 * GET /admin/exports/archive.zip: everything the memorial holds, in one ZIP
 * made while it downloads (app/keepsakes/archive.server.ts). Without an admin
 * session, the login page, which comes back here.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireFamily(request);
  const now = Date.now();
  const signal = clientGone(request, context);
  const body = streamedBody(() => createFamilyArchive({ signal, now }), { drained: context.responseDrained, signal });
  return new Response(body, { headers: downloadHeaders(archiveFileName(now), "application/zip") });
}

export const action = familyDownloadAction;
