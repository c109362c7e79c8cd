import { requireAdmin } from "~/admins/session.server";
import type { MediaType } from "~/uploads/upload.schema";
import { updateMemory } from "~/guestbook/memory.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { intParam, readFormData, type FieldErrors } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { cursorParam, decodeCursor, type PageCursor } from "~/platform/page-cursor.server";
import { MEMORIES_LIST, publishedListAddress, UPLOADS_LIST } from "~/utils/published";
import { failureToast } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";

// The Published view's forms: unpublish and publish again from the lists,
// and where each list, its edit and its delete pages go back to (the same
// search and page the family was looking at).

export { MEMORIES_LIST, UPLOADS_LIST };

export const MEMORY_UNPUBLISHED = {
  title: "Memory Unpublished",
  description: "Visitors no longer see this memory. It is kept here, and you can publish it again.",
};
export const MEMORY_REPUBLISHED = { title: "Memory Published", description: "Visitors can see this memory again." };
export const MEMORY_CORRECTED = {
  title: "Memory Corrected",
  description: "The memory now reads as you corrected it. What the visitor sent is kept.",
};
export const MEMORY_DELETED = { title: "Memory Deleted", description: "The memory has been deleted." };
/** A helper's delete: the memory is set aside, kept whole for the family. */
export const MEMORY_SET_ASIDE = {
  title: "Memory Set Aside",
  description: "Visitors no longer see this memory. It is kept for the family, who can publish it again or delete it.",
};
export const MEMORY_CHANGE_FAILED = { title: "Error", description: "Failed to update memory.", type: "destructive" as const };
export const MEMORY_DELETE_FAILED = { title: "Error", description: "Failed to delete memory.", type: "destructive" as const };

/** What the toasts call an upload: "this photo or video", or a voice memory, which visitors hear rather than see. */
const uploadWords = (type: MediaType) =>
  type === "AUDIO"
    ? { it: "this voice memory", The: "The voice memory", perceive: "hear" }
    : { it: "this photo or video", The: "The photo or video", perceive: "see" };

export function uploadUnpublished(upload: { type: MediaType; canDisplay: boolean }) {
  const { it, perceive } = uploadWords(upload.type);
  // A voice kept for the family was never heard by visitors: unpublishing it only takes it from the published ones.
  const gone = upload.canDisplay ? `Visitors no longer ${perceive} ${it}.` : `${it.charAt(0).toUpperCase()}${it.slice(1)} is unpublished.`;
  return { title: "Upload Unpublished", description: `${gone} It is kept here, and you can publish it again.` };
}
export function uploadRepublished(upload: { type: MediaType; canDisplay: boolean }) {
  const { it, perceive } = uploadWords(upload.type);
  const description = upload.canDisplay
    ? `Visitors can ${perceive} ${it} again.`
    : `${it.charAt(0).toUpperCase()}${it.slice(1)} is published again, kept for the family: no visitor hears it.`;
  return { title: "Upload Published", description };
}
export const uploadDeleted = (type: MediaType) => ({
  title: "Upload Deleted",
  description: `${uploadWords(type).The} and all its files have been deleted.`,
});
/** A helper's delete: the upload is set aside with its files, for the family. */
export function uploadSetAside(type: MediaType) {
  const { it, perceive } = uploadWords(type);
  return {
    title: "Upload Set Aside",
    description: `Visitors no longer ${perceive} ${it}. It is kept with its files for the family, who can publish it again or delete it.`,
  };
}
export const UPLOAD_CHANGE_FAILED = { title: "Error", description: "Failed to update upload status.", type: "destructive" as const };
export const UPLOAD_DELETE_FAILED = { title: "Error", description: "Failed to delete upload.", type: "destructive" as const };

/** At most this much of a search is used (a name is at most 100 characters). */
const MAX_SEARCH = 100;

/**
 * What a Published list address asks for: the name searched for (none when
 * blank) and the page it starts after (`before`, as given, and `cursor`, read).
 */
export function publishedListQuery(url: URL): { search: string | undefined; before: string | undefined; cursor: PageCursor | undefined } {
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_SEARCH) || undefined;
  // A cursor the site did not give shows the newest page, as a list page does.
  const raw = url.searchParams.get("before") ?? "";
  const cursor = (raw && decodeCursor(raw)) || undefined;
  return { search, before: cursor ? raw : undefined, cursor };
}

/** The paging of GET /api/admin/published-*: `q`, `limit` (1 to 100) and `before` (a cursor from the last page's Link header). */
export function publishedApiParams(
  url: URL,
): { search: string | undefined; limit: number; before: PageCursor | undefined } | { errors: FieldErrors } {
  const limit = intParam(url, "limit", { fallback: 20, min: 1, max: 100 });
  const before = cursorParam(url);
  const errors: FieldErrors = {};
  if ("error" in limit) errors.limit = [limit.error];
  if ("error" in before) errors.before = [before.error];
  if ("error" in limit || "error" in before) return { errors };
  return { search: publishedListQuery(url).search, limit: limit.value, before: before.value };
}

/** Where a form of the Published view goes back to: the list at `base`, with the search and page its own address carries. */
export function publishedReturn(request: Request, base: string) {
  return publishedListAddress(base, publishedListQuery(new URL(request.url)));
}

const STATUS_BY_INTENT = { unpublish: "HIDDEN", publish: "APPROVED" } as const;

async function readListForm(request: Request, base: string) {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  return {
    admin,
    id: idParam(String(form.get("id") ?? "")),
    status: STATUS_BY_INTENT[intent as keyof typeof STATUS_BY_INTENT],
    returnTo: publishedReturn(request, base),
  };
}

/** Unpublish or publish again a memory from the Published list, then back to the same page of it. */
export async function publishedMemoryForm(request: Request) {
  const { admin, id, status, returnTo } = await readListForm(request, MEMORIES_LIST);
  try {
    if (!status || !id || !updateMemory(id, { status }, admin)) return redirectWithToast(returnTo, MEMORY_CHANGE_FAILED);
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(MEMORY_CHANGE_FAILED, error));
  }
  return redirectWithToast(returnTo, status === "HIDDEN" ? MEMORY_UNPUBLISHED : MEMORY_REPUBLISHED);
}

/** Unpublish or publish again a photo or video from the Published list, then back to the same page of it. */
export async function publishedUploadForm(request: Request) {
  const { admin, id, status, returnTo } = await readListForm(request, UPLOADS_LIST);
  try {
    const upload = status && id ? await setUploadStatus(id, status, admin) : undefined;
    if (!upload) return redirectWithToast(returnTo, UPLOAD_CHANGE_FAILED);
    return redirectWithToast(returnTo, status === "HIDDEN" ? uploadUnpublished(upload) : uploadRepublished(upload));
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(UPLOAD_CHANGE_FAILED, error));
  }
}
