import { requireAdmin } from "~/auth/session.server";
import { setMemoryStatus } from "~/models/memory.server";
import { rotateUpload, setUploadStatus } from "~/models/upload.server";
import { readFormData } from "~/utils/http.server";
import { idParam } from "~/utils/moderation";
import { Refusal } from "~/utils/refusal.server";
import { redirectWithToast } from "~/utils/toast.server";

// The §8 words for each moderation outcome.
export const MEMORY_UPDATED = { title: "Memory Updated", description: "Memory status has been updated." };
const MEMORY_FAILED = { title: "Error", description: "Failed to update memory status.", type: "destructive" as const };
export const UPLOAD_UPDATED = { title: "Upload Updated", description: "Upload status has been updated." };
const UPLOAD_FAILED = { title: "Error", description: "Failed to update upload status.", type: "destructive" as const };
export const IMAGE_ROTATED = { title: "Image Rotated", description: "The image has been rotated successfully." };
const ROTATE_FAILED = { title: "Error", description: "Failed to rotate image.", type: "destructive" as const };

const STATUS_BY_INTENT = { approve: "APPROVED", reject: "REJECTED" } as const;

async function readIntent(request: Request) {
  await requireAdmin(request);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  return { form, intent, id: idParam(String(form.get("id") ?? "")) };
}

/** Approve or reject a memory from a plain form (intent + id), then back to `returnTo` with a toast. */
export async function moderateMemoryForm(request: Request, returnTo: string) {
  const { intent, id } = await readIntent(request);
  const status = STATUS_BY_INTENT[intent as keyof typeof STATUS_BY_INTENT];
  if (!status || !id || !setMemoryStatus(id, status)) return redirectWithToast(returnTo, MEMORY_FAILED);
  return redirectWithToast(returnTo, MEMORY_UPDATED);
}

/**
 * Publish, delete or rotate an upload from a plain form. Publishing and
 * deleting go back to the list; rotating stays on the preview.
 */
export async function moderateUploadForm(request: Request, returnTo: string) {
  const { intent, id } = await readIntent(request);
  if (intent === "rotate-left" || intent === "rotate-right") {
    try {
      const rotated = id ? await rotateUpload(id, intent === "rotate-left" ? "left" : "right") : undefined;
      if (!rotated) return redirectWithToast(returnTo, ROTATE_FAILED);
      return redirectWithToast(`/admin/uploads/${id}`, IMAGE_ROTATED);
    } catch (error) {
      if (!(error instanceof Refusal)) console.error(JSON.stringify({ level: "error", msg: "rotation failed", error: String(error) }));
      return redirectWithToast(id ? `/admin/uploads/${id}` : returnTo, ROTATE_FAILED);
    }
  }
  const status = STATUS_BY_INTENT[intent as keyof typeof STATUS_BY_INTENT];
  const upload = status && id ? await setUploadStatus(id, status).catch((error: unknown) => {
    if (error instanceof Refusal) return undefined;
    throw error;
  }) : undefined;
  return redirectWithToast(returnTo, upload ? UPLOAD_UPDATED : UPLOAD_FAILED);
}
