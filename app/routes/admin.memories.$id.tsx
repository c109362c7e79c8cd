import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { memoryFor } from "~/admins/contact-details";
import { AdminDialog } from "~/components/AdminDialog";
import * as d from "~/components/AdminDialog.css";
import { ConfirmStep } from "~/components/admin/ConfirmStep";
import { ModerationButtons } from "~/components/admin/ModerationButtons";
import { ModerationRecord } from "~/components/admin/ModerationRecord";
import { PendingMemories } from "~/components/admin/PendingMemories";
import { EditedRecord } from "~/components/admin/PublishedList";
import { useAdminRole } from "~/components/admin/admin-role";
import { useSite } from "~/site/site-view";
import { getMemory, listPendingMemoriesPage } from "~/guestbook/memory.server";
import type { AdminMemory } from "~/guestbook/memory.schema";
import { moderateMemoryForm } from "~/routes/admin-actions.server";
import { invariantResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { setAsideAddress } from "~/utils/set-aside";
import { pendingHeld } from "~/routes/read-first.server";
import { formatDateTime } from "~/utils/time";

/** Where the memory stands, in words. */
const STATUS_WORDS = {
  PENDING: "Waiting for review",
  APPROVED: "Published: it is on the guest book",
  REJECTED: "Rejected: no visitor sees it",
  HIDDEN: "Unpublished: kept, but no visitor sees it",
} as const;
const SET_ASIDE_WORDS = "Set aside: no visitor sees it, and it is kept for the family to decide";

/**
 * One memory's details: a page without JavaScript, a dialog over the list
 * with it. A memory a helper set aside is shown to the family only in the
 * Set aside view, folded until they open it: its review link (an older
 * e-mail's) goes there.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const memory = getMemory(idParam(params.id) ?? 0);
  invariantResponse(memory, "Not found", { status: 404 });
  if (memory.setAside && admin.role === "family") throw redirect(setAsideAddress("memory", memory.id));
  // Behind the dialog, the list as the tab shows it: none while helpers read first for the family.
  const readable = (one: AdminMemory) => memoryFor(admin.role, one);
  const memories = pendingHeld(admin, request) ? null : listPendingMemoriesPage().memories.map(readable);
  return json({ memory: readable(memory), memories }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return moderateMemoryForm(request, "/admin");
}

export default function MemoryDetails() {
  const { memory, memories } = useLoaderData<typeof loader>();
  const { timeZone } = useSite();
  const answer = useActionData<typeof action>();
  const confirm = answer && "confirm" in answer ? answer.confirm : null;
  const helper = useAdminRole() === "helper";
  return (
    <>
      <AdminDialog title={`Memory from ${memory.name}`} closeTo="/admin">
        <dl className={d.details}>
          <dt>Name</dt>
          <dd>{memory.name}</dd>
          {/* A helper's copy has no e-mail address or phone number (app/admins/contact-details.ts). */}
          {memory.email !== undefined ? (
            <>
              <dt>Email</dt>
              <dd>{memory.email}</dd>
            </>
          ) : null}
          {memory.phone ? (
            <>
              <dt>Phone</dt>
              <dd>{memory.phone}</dd>
            </>
          ) : null}
          <dt>Submitted</dt>
          <dd>{formatDateTime(memory.createdAt, timeZone)}</dd>
          <dt>Can be displayed</dt>
          <dd>{memory.canDisplay ? "Yes" : "No"}</dd>
          <dt>Status</dt>
          <dd>{memory.setAside ? SET_ASIDE_WORDS : STATUS_WORDS[memory.status]}</dd>
          <ModerationRecord {...memory} timeZone={timeZone} />
          <dt>Message</dt>
          <dd className={d.message}>{memory.message}</dd>
          {memory.editedAt ? (
            <>
              <dt>Corrected</dt>
              <dd>
                <EditedRecord memory={memory} timeZone={timeZone} />
              </dd>
            </>
          ) : null}
        </dl>
        {memory.status !== "PENDING" && !confirm ? (
          memory.status === "REJECTED" ? null : (
            <p>
              To correct it, unpublish it or publish it again, use the <Link to="/admin/published/memories">Published tab</Link>.
            </p>
          )
        ) : confirm ? (
          <ConfirmStep confirm={confirm} action={`/admin/memories/${memory.id}`} cancelTo={`/admin/memories/${memory.id}`} />
        ) : (
          <ModerationButtons
            id={memory.id}
            action={`/admin/memories/${memory.id}`}
            labels={{ approve: "Approve & Publish", reject: helper ? "Set Memory Aside" : "Reject Memory" }}
          />
        )}
      </AdminDialog>
      {memories ? <PendingMemories memories={memories} /> : null}
    </>
  );
}
