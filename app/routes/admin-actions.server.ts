import { requireAdmin } from "~/admins/session.server";
import { json } from "@remix-run/node";
import type { ConfirmRequest } from "~/utils/moderation";
import { getMemory, setMemoryStatus } from "~/guestbook/memory.server";
import { getCandle, setCandleStatus } from "~/candles/candles.server";
import { getAdminUpload, rotateUpload, setUploadStatus } from "~/uploads/upload.server";
import { readFormData } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { asRefusal, failureToast } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Role } from "~/admins/roles";
import { showsAll } from "~/routes/read-first.server";
import { publishedPlace, uploadName, type NamedUpload } from "~/uploads/upload-words";

// The §8 words for each moderation outcome; a change says after them what happened, in plain words.
const MEMORY_UPDATED = { title: "Memory Updated", description: "Memory status has been updated." };
const memoryUpdated = (name: string, status: "APPROVED" | "REJECTED", role: Role) => ({
  ...MEMORY_UPDATED,
  description: `${MEMORY_UPDATED.description} ${
    status === "APPROVED"
      ? `${name}’s memory is now on the guest book.`
      : role === "helper"
        ? `${name}’s memory was set aside: no visitor will see it, and the family can still publish it.`
        : `${name}’s memory was rejected: no visitor will see it.`
  }`,
});
const MEMORY_FAILED = { title: "Error", description: "Failed to update memory status.", type: "destructive" as const };
const UPLOAD_UPDATED = { title: "Upload Updated", description: "Upload status has been updated." };
const uploadUpdated = (upload: NamedUpload, status: "APPROVED" | "REJECTED", role: Role) => ({
  ...UPLOAD_UPDATED,
  description: `${UPLOAD_UPDATED.description} ${uploadName(upload, true)} ${
    status === "APPROVED"
      ? `is now ${publishedPlace(upload)}.`
      : role === "helper"
        ? "was set aside with its files: no visitor will see it, and the family can still publish it."
        : "was deleted permanently."
  }`,
});
const UPLOAD_FAILED = { title: "Error", description: "Failed to update upload status.", type: "destructive" as const };
const IMAGE_ROTATED = { title: "Image Rotated", description: "The image has been rotated successfully." };
const ROTATE_FAILED = { title: "Error", description: "Failed to rotate image.", type: "destructive" as const };

const CANDLE_FAILED = { title: "Error", description: "Failed to update the candle.", type: "destructive" as const };
/** A candle is named by its visitor's name, else by its words. */
const candleOf = (candle: { name: string | null; message: string | null }) =>
  candle.name ? `The candle from ${candle.name}` : `The candle “${candle.message ?? ""}”`;
const candleUpdated = (candle: { name: string | null; message: string | null }, status: "APPROVED" | "REJECTED", role: Role) => ({
  title: "Candle Updated",
  description:
    status === "APPROVED"
      ? `${candleOf(candle)} is now shown with its words.`
      : role === "helper"
        ? `${candleOf(candle)} was set aside: no visitor will see it, and the family can still publish it.`
        : `${candleOf(candle)} was rejected: no visitor will see it.`,
});

/** A helper's rejection is set aside, never final: her question says so (the family's is unchanged). */
const SET_ASIDE_NOTE = "It is kept for the family, who can still publish it or delete it.";

const STATUS_BY_INTENT = { approve: "APPROVED", reject: "REJECTED" } as const;

async function readIntent(request: Request) {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  return { admin, form, intent, id: idParam(String(form.get("id") ?? "")) };
}

/** Rejecting and deleting cannot be undone: the first press answers with the question, the second (confirmed=yes) acts. */
const confirmed = (form: FormData) => form.get("confirmed") === "yes";
const askFirst = (confirm: ConfirmRequest) => json({ confirm });

/** Approve or reject a memory from a plain form (intent + id), then back to `returnTo` with a toast. */
export async function moderateMemoryForm(request: Request, returnTo: string) {
  const { admin, form, intent, id } = await readIntent(request);
  const status = STATUS_BY_INTENT[intent as keyof typeof STATUS_BY_INTENT];
  if (status === "REJECTED" && id && !confirmed(form)) {
    const memory = getMemory(id);
    if (!memory) return redirectWithToast(returnTo, MEMORY_FAILED);
    return askFirst(
      admin.role === "helper"
        ? {
            id,
            intent: "reject",
            title: "Set this memory aside?",
            text: `The memory from ${memory.name} will not be published. ${SET_ASIDE_NOTE}`,
            confirmLabel: "Yes, set it aside",
          }
        : {
            id,
            intent: "reject",
            title: "Reject this memory?",
            text: `The memory from ${memory.name} will not be published. This cannot be undone.`,
            confirmLabel: "Yes, reject it",
          },
    );
  }
  const memory = id ? getMemory(id) : undefined;
  try {
    if (!status || !id || !memory || !setMemoryStatus(id, status, admin)) return redirectWithToast(returnTo, MEMORY_FAILED);
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(MEMORY_FAILED, error));
  }
  return redirectWithToast(returnTo, memoryUpdated(memory.name, status, admin.role));
}

/** The Pending tab's forms for candles post here (`?index&moderate=candle`); their second step too. */
export const CANDLE_MODERATION = "/admin?index&moderate=candle";

/** Publish or reject a candle's words from a plain form (intent + id), then back to `returnTo` with a toast. */
export async function moderateCandleForm(request: Request, returnTo: string) {
  const { admin, form, intent, id } = await readIntent(request);
  const status = STATUS_BY_INTENT[intent as keyof typeof STATUS_BY_INTENT];
  const candle = id ? getCandle(id) : undefined;
  if (!status || !id || !candle) return redirectWithToast(returnTo, CANDLE_FAILED);
  if (status === "REJECTED" && !confirmed(form)) {
    const helper = admin.role === "helper";
    return json({
      confirm: {
        id,
        intent: "reject",
        title: helper ? "Set this candle aside?" : "Reject this candle?",
        text: `${candleOf(candle)} will not be shown or counted. ${helper ? SET_ASIDE_NOTE : "This cannot be undone."}`,
        confirmLabel: helper ? "Yes, set it aside" : "Yes, reject it",
      } satisfies ConfirmRequest,
      // Its second step comes back to the lists the family asked to see, when they did (app/routes/read-first.server.ts).
      action: `${CANDLE_MODERATION}${showsAll(request) ? "&show=all" : ""}`,
    });
  }
  try {
    if (!setCandleStatus(id, status, admin)) return redirectWithToast(returnTo, CANDLE_FAILED);
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(CANDLE_FAILED, error));
  }
  return redirectWithToast(returnTo, candleUpdated(candle, status, admin.role));
}

/**
 * Publish, delete or rotate an upload from a plain form. Publishing and
 * deleting go back to the list; rotating stays on the preview.
 */
export async function moderateUploadForm(request: Request, returnTo: string) {
  const { admin, form, intent, id } = await readIntent(request);
  if (intent === "reject" && id && !confirmed(form)) {
    const upload = getAdminUpload(id);
    if (!upload) return redirectWithToast(returnTo, UPLOAD_FAILED);
    const name = uploadName(upload, true);
    return askFirst(
      admin.role === "helper"
        ? {
            id,
            intent: "reject",
            title: "Set this upload aside?",
            text: `${name} will not be published. It is kept with its files for the family, who can still publish it or delete it.`,
            confirmLabel: "Yes, set it aside",
          }
        : {
            id,
            intent: "reject",
            title: "Delete this upload permanently?",
            text: `${name} will be deleted with all its files. This cannot be undone.`,
            confirmLabel: "Yes, delete it",
          },
    );
  }
  if (intent === "rotate-left" || intent === "rotate-right") {
    try {
      const rotated = id ? await rotateUpload(id, intent === "rotate-left" ? "left" : "right", admin) : undefined;
      if (!rotated) return redirectWithToast(returnTo, ROTATE_FAILED);
      return redirectWithToast(`/admin/uploads/${id}`, IMAGE_ROTATED);
    } catch (error) {
      // A thrown answer (the admin's session ended meanwhile: to the login page) is Remix's to send.
      if (error instanceof Response) throw error;
      const refusal = asRefusal(error);
      if (!refusal) console.error(JSON.stringify({ level: "error", msg: "rotation failed", error: String(error) }));
      const toast =
        refusal?.status === 507 ? { ...ROTATE_FAILED, description: `${ROTATE_FAILED.description} ${refusal.message}` } : ROTATE_FAILED;
      return redirectWithToast(id ? `/admin/uploads/${id}` : returnTo, toast);
    }
  }
  const status = STATUS_BY_INTENT[intent as keyof typeof STATUS_BY_INTENT];
  try {
    const upload = status && id ? await setUploadStatus(id, status, admin) : undefined;
    return redirectWithToast(returnTo, upload && status ? uploadUpdated(upload, status, admin.role) : UPLOAD_FAILED);
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(UPLOAD_FAILED, error));
  }
}
