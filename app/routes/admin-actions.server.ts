import { requireAdmin } from "~/admins/session.server";
import { json } from "@remix-run/node";
import type { ConfirmRequest } from "~/utils/moderation";
import { getMemory, setMemoryStatus } from "~/guestbook/memory.server";
import { getAdminUpload, rotateUpload, setUploadStatus } from "~/uploads/upload.server";
import { readFormData } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { asRefusal, failureToast } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";

// The §8 words for each moderation outcome; a change says after them what happened, in plain words.
const MEMORY_UPDATED = { title: "Memory Updated", description: "Memory status has been updated." };
const memoryUpdated = (name: string, status: "APPROVED" | "REJECTED") => ({
  ...MEMORY_UPDATED,
  description: `${MEMORY_UPDATED.description} ${
    status === "APPROVED" ? `${name}’s memory is now on the guest book.` : `${name}’s memory was rejected: no visitor will see it.`
  }`,
});
const MEMORY_FAILED = { title: "Error", description: "Failed to update memory status.", type: "destructive" as const };
const UPLOAD_UPDATED = { title: "Upload Updated", description: "Upload status has been updated." };
const uploadUpdated = (name: string, status: "APPROVED" | "REJECTED") => ({
  ...UPLOAD_UPDATED,
  description: `${UPLOAD_UPDATED.description} ${status === "APPROVED" ? `“${name}” is now in the gallery.` : `“${name}” was deleted permanently.`}`,
});
const UPLOAD_FAILED = { title: "Error", description: "Failed to update upload status.", type: "destructive" as const };
const IMAGE_ROTATED = { title: "Image Rotated", description: "The image has been rotated successfully." };
const ROTATE_FAILED = { title: "Error", description: "Failed to rotate image.", type: "destructive" as const };

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
    return askFirst({
      id,
      intent: "reject",
      title: "Reject this memory?",
      text: `The memory from ${memory.name} will not be published. This cannot be undone.`,
      confirmLabel: "Yes, reject it",
    });
  }
  const memory = id ? getMemory(id) : undefined;
  try {
    if (!status || !id || !memory || !setMemoryStatus(id, status, admin)) return redirectWithToast(returnTo, MEMORY_FAILED);
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(MEMORY_FAILED, error));
  }
  return redirectWithToast(returnTo, memoryUpdated(memory.name, status));
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
    return askFirst({
      id,
      intent: "reject",
      title: "Delete this upload permanently?",
      text: `“${upload.originalName ?? "Unknown"}” will be deleted with all its files. This cannot be undone.`,
      confirmLabel: "Yes, delete it",
    });
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
    return redirectWithToast(returnTo, upload && status ? uploadUpdated(upload.originalName ?? "Unknown", status) : UPLOAD_FAILED);
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(UPLOAD_FAILED, error));
  }
}
