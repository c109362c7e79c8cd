import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { requireAdmin } from "~/auth/session.server";
import { HeroPhotoForm } from "~/components/admin/HeroPhotoForm";
import { KarenSongForm } from "~/components/admin/KarenSongForm";
import { loaderCacheControl, PRIVATE_NO_STORE } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";

// The hero photo and Karen Mode song forms on a page of their own, until
// they join the Site tab (/admin/site), where they come back to by default.

const HERE = "/admin/site-media";

export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({}, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export default function SiteMediaPage() {
  return (
    <>
      <HeroPhotoForm returnTo={HERE} />
      <KarenSongForm returnTo={HERE} />
    </>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Photo and Song", description: "The family's hero photo and Karen Mode song.", path: HERE });
