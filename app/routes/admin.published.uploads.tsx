import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { readsContactDetails, uploadFor } from "~/admins/contact-details";
import { PublishedPager, PublishedSearch, PublishedUploads } from "~/components/admin/PublishedList";
import { listPublishedUploads } from "~/uploads/upload.server";
import * as ui from "~/styles/ui.css";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { publishedListAddress, UPLOADS_LIST } from "~/utils/published";
import { publishedListQuery, publishedUploadForm } from "~/routes/published-actions.server";
import { useSite } from "~/site/site-view";

// The Published tab's photos, videos and voice memories: published and unpublished, newest
// first, a page at a time, searchable by sender or file name. Delete opens above the list.

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const { search, before, cursor } = publishedListQuery(new URL(request.url));
  const page = listPublishedUploads({ search, before: cursor, matchAddresses: readsContactDetails(admin.role) });
  return json(
    { page: { ...page, items: page.items.map((upload) => uploadFor(admin.role, upload)) }, search, before },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return publishedUploadForm(request);
}

export default function PublishedUploadsList() {
  const { page, search, before } = useLoaderData<typeof loader>();
  const { timeZone } = useSite();
  const address = publishedListAddress(UPLOADS_LIST, { search, before });
  return (
    <>
      <Outlet />
      <PublishedSearch base={UPLOADS_LIST} search={search} label="Search by sender or file name" />
      {page.items.length === 0 ? (
        <p className={ui.emptyState}>
          {search
            ? `No published photos, videos or voice memories match “${search}”.`
            : "No photos, videos or voice memories have been published yet."}
        </p>
      ) : (
        <PublishedUploads uploads={page.items} action={address} query={address.slice(UPLOADS_LIST.length)} timeZone={timeZone} />
      )}
      <PublishedPager base={UPLOADS_LIST} search={search} before={before} next={page.next} olderLabel="Older photos, videos and voices" />
    </>
  );
}
