import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { memoryFor } from "~/admins/contact-details";
import { PublishedMemories, PublishedPager, PublishedSearch } from "~/components/admin/PublishedList";
import { listPublishedMemories } from "~/guestbook/memory.server";
import * as ui from "~/styles/ui.css";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { MEMORIES_LIST, publishedListAddress } from "~/utils/published";
import { publishedListQuery, publishedMemoryForm } from "~/routes/published-actions.server";
import { useSite } from "~/site/site-view";

// The Published tab's memories: published and unpublished, newest first, a
// page at a time, searchable by name. Edit and Delete open above the list.

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const { search, before, cursor } = publishedListQuery(new URL(request.url));
  const page = listPublishedMemories({ search, before: cursor });
  return json(
    { page: { ...page, items: page.items.map((memory) => memoryFor(admin.role, memory)) }, search, before },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return publishedMemoryForm(request);
}

export default function PublishedMemoriesList() {
  const { page, search, before } = useLoaderData<typeof loader>();
  const { timeZone } = useSite();
  const address = publishedListAddress(MEMORIES_LIST, { search, before });
  const query = address.slice(MEMORIES_LIST.length);
  return (
    <>
      <Outlet />
      <PublishedSearch base={MEMORIES_LIST} search={search} label="Search memories by name" />
      {page.items.length === 0 ? (
        <p className={ui.emptyState}>
          {search ? `No published memories from a name with “${search}”.` : "No memories have been published yet."}
        </p>
      ) : (
        <PublishedMemories memories={page.items} action={address} query={query} timeZone={timeZone} />
      )}
      <PublishedPager base={MEMORIES_LIST} search={search} before={before} next={page.next} olderLabel="Older memories" />
    </>
  );
}
