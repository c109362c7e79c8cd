import { json } from "@remix-run/node";
import { requireFamily } from "~/admins/session.server";
import { countSetAsideCandles, deleteCandle, getCandle, listSetAsideCandles, setCandleStatus } from "~/candles/candles.server";
import { countSetAsideMemories, deleteMemory, getMemory, listSetAsideMemories, updateMemory } from "~/guestbook/memory.server";
import { deleteUpload, getAdminUpload, listSetAsideUploads, setUploadStatus, countSetAsideUploads } from "~/uploads/upload.server";
import type { AdminActor } from "~/platform/actor.server";
import { readFormData } from "~/platform/http.server";
import { failureToast } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { ToastInput } from "~/utils/toast";
import { idParam, type ConfirmRequest } from "~/utils/moderation";
import { SET_ASIDE_VIEW, setAsideAction, type SetAsideKind } from "~/utils/set-aside";
import { parseSubmittedBy } from "~/utils/submitted-by";
import { publishedPlace, uploadName } from "~/uploads/upload-words";

// The family's Set aside view (/admin/set-aside, GET /api/admin/set-aside):
// what helpers rejected, kept whole until the family publishes it after all,
// keeps it unpublished, or deletes it for good. Family only.

/** Everything set aside, each list the newest set aside first, in the pending lists' item shapes. */
export function listSetAside() {
  return { memories: listSetAsideMemories(), uploads: listSetAsideUploads(), candles: listSetAsideCandles() };
}

/** How many things are set aside, for the family's tab. */
export function countSetAside(): number {
  return countSetAsideMemories() + countSetAsideUploads() + countSetAsideCandles();
}

const FAILED = { title: "Error", description: "Failed to update this item.", type: "destructive" as const };
const GONE = { ...FAILED, description: "This is no longer set aside: it may have been published or deleted meanwhile." };

/** Who sent an item, as its question and toasts name it. */
const nameOrSomeone = (name: string | null) => name || "someone";

/** The kind the form's address names (`?kind=memory`), or null. */
function kindOf(request: Request): SetAsideKind | null {
  const kind = new URL(request.url).searchParams.get("kind");
  return kind === "memory" || kind === "upload" || kind === "candle" ? kind : null;
}

/** The item named by a form, with what the family can do with it, or null when it is not set aside (any more). */
function findItem(kind: SetAsideKind, id: number) {
  if (kind === "memory") {
    const memory = getMemory(id);
    if (!memory?.setAside) return null;
    const who = nameOrSomeone(memory.name);
    return {
      what: `the memory from ${who}`,
      publish: (by: AdminActor) => updateMemory(id, { status: "APPROVED" }, by),
      published: { title: "Memory Published", description: `${who}’s memory is now on the guest book.` },
      remove: (by: AdminActor) => deleteMemory(id, by),
      deleted: { title: "Memory Deleted", description: `${who}’s memory has been deleted for good.` },
    };
  }
  if (kind === "upload") {
    const upload = getAdminUpload(id);
    if (!upload?.setAside) return null;
    // A photo or video by its file name, a voice by who sent it (uploadName).
    const name = uploadName(upload, true);
    const sender = parseSubmittedBy(upload.submittedBy ?? "")?.name ?? upload.submittedBy;
    return {
      what: upload.type === "AUDIO" ? uploadName(upload) : `${name} from ${nameOrSomeone(sender)}`,
      publish: (by: AdminActor) => setUploadStatus(id, "APPROVED", by),
      published: { title: "Upload Published", description: `${name} is now ${publishedPlace(upload)}.` },
      keep: (by: AdminActor) => setUploadStatus(id, "HIDDEN", by),
      kept: {
        title: "Upload Kept",
        description: `${name} is kept, unpublished, and is being prepared. Once it is ready you can publish it from the Published tab.`,
      },
      remove: (by: AdminActor) => deleteUpload(id, by),
      deleted: { title: "Upload Deleted", description: `${name} and all its files have been deleted for good.` },
    };
  }
  const candle = getCandle(id);
  if (!candle?.setAside) return null;
  const who = nameOrSomeone(candle.name);
  return {
    what: `the candle from ${who}`,
    publish: (by: AdminActor) => setCandleStatus(id, "APPROVED", by),
    published: { title: "Candle Published", description: `The candle from ${who} is now shown with its words.` },
    remove: (by: AdminActor) => deleteCandle(id, by),
    deleted: { title: "Candle Deleted", description: `The candle from ${who} has been deleted for good.` },
  };
}

/**
 * Publish, keep (an upload not yet prepared: unpublished, and prepared now)
 * or delete for good one set-aside item, from a plain form (intent + id; the
 * kind in the address). Deleting asks first: the answer is the question
 * (ConfirmStep), and its second step (confirmed=yes) deletes.
 */
export async function setAsideForm(request: Request) {
  const admin = await requireFamily(request);
  const form = await readFormData(request);
  const kind = kindOf(request);
  const id = idParam(String(form.get("id") ?? ""));
  const intent = String(form.get("intent") ?? "");
  const item = kind && id ? findItem(kind, id) : null;
  if (!kind || !id || !item) return redirectWithToast(SET_ASIDE_VIEW, GONE);
  if (intent === "delete" && form.get("confirmed") !== "yes") {
    return json({
      confirm: {
        id,
        intent: "delete",
        title: "Delete this for good?",
        text: `${item.what.charAt(0).toUpperCase()}${item.what.slice(1)} will be deleted for good. This cannot be undone.`,
        confirmLabel: "Yes, delete it for good",
      } satisfies ConfirmRequest,
      action: setAsideAction(kind),
    });
  }
  const change: Record<string, [((by: AdminActor) => unknown) | undefined, ToastInput | undefined]> = {
    publish: [item.publish, item.published],
    keep: "keep" in item ? [item.keep, item.kept] : [undefined, undefined],
    delete: [item.remove, item.deleted],
  };
  const [write, done] = change[intent] ?? [undefined, undefined];
  if (!write || !done) return redirectWithToast(SET_ASIDE_VIEW, FAILED);
  try {
    return redirectWithToast(SET_ASIDE_VIEW, (await write(admin)) ? done : GONE);
  } catch (error) {
    return redirectWithToast(SET_ASIDE_VIEW, failureToast(FAILED, error));
  }
}
