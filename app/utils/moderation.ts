import { z } from "~/utils/zod";

// The decision an admin can make about a pending memory or upload.
export const ModerationSchema = z.object({
  status: z.enum(["APPROVED", "REJECTED"], { message: "status must be APPROVED or REJECTED" }),
});

/** An id from the path: a positive whole number, or null. */
export function idParam(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** What the server asks before something that cannot be undone (rejecting a memory, deleting an upload, removing yourself as an admin). */
export interface ConfirmRequest {
  id: number;
  intent: "reject" | "remove";
  title: string;
  text: string;
  confirmLabel: string;
}
