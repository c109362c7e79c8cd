import { z } from "~/utils/zod";

/**
 * What an admin can make of a memory or an upload: publish it, reject it, or
 * unpublish it once published (HIDDEN: kept, shown to nobody, and can be
 * published again).
 */
export const moderationStatus = z.enum(["APPROVED", "REJECTED", "HIDDEN"], { message: "status must be APPROVED, REJECTED or HIDDEN" });

/** PATCH /api/admin/uploads/{id}. */
export const ModerationSchema = z.object({ status: moderationStatus });

/** An id from the path: a positive whole number, or null. */
export function idParam(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * What the server asks before something that cannot be undone (rejecting a memory, deleting an upload,
 * removing yourself as an admin, deleting for good what a helper set aside).
 */
export interface ConfirmRequest {
  id: number;
  intent: "reject" | "remove" | "delete";
  title: string;
  text: string;
  confirmLabel: string;
}
