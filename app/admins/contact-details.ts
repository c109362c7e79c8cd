import type { AdminMemory } from "~/guestbook/memory.schema";
import type { AdminUpload } from "~/uploads/upload.schema";
import type { RsvpStats, RsvpView } from "~/attendance/rsvp.server";
import { parseSubmittedBy, senderName } from "~/utils/submitted-by";
import type { Role } from "./roles";

// How to reach a visitor (the e-mail address and phone number they gave
// with a memory, an RSVP or a photo) is the family's to read, never a
// helper's: she reads what was sent and who sent it, by name. Every admin
// page, API answer and e-mail alert that shows a visitor goes through here
// with the reader's role, so a helper's copy is made in one place: the
// contact fields left out (the keys, not emptied), and of an upload's
// sender (submittedBy, "Name (address)") the name alone. The family's copy
// is the item itself. Plain and browser-safe, so the admin views can name
// these types.

/** The fields that say how to reach someone. */
type ContactField = "email" | "phone";

/** An item as a helper reads it: without an e-mail address or a phone number. */
export type WithoutContactDetails<T> = Omit<T, ContactField>;

/** An item as an admin of either role reads it: the family's copy has the contact fields, a helper's has none. */
export type ReadableBy<T> = WithoutContactDetails<T> & Partial<Pick<T, Extract<keyof T, ContactField>>>;

/** Whether `role` may read how to reach a visitor: the family may, a helper may not. */
export const readsContactDetails = (role: Role) => role === "family";

function withoutContactDetails<T extends object>(item: T): WithoutContactDetails<T> {
  const { email: _email, phone: _phone, ...rest } = item as T & Partial<Record<ContactField, unknown>>;
  return rest as WithoutContactDetails<T>;
}

/** A memory (its author's `email` and `phone`) as `role` reads it. */
export function memoryFor(role: Role, memory: AdminMemory): ReadableBy<AdminMemory> {
  return readsContactDetails(role) ? memory : withoutContactDetails(memory);
}

/** Everyone who said they attended, as `role` reads them: the same counts, and for a helper each RSVP without its address. */
export function rsvpStatsFor(role: Role, stats: RsvpStats): Omit<RsvpStats, "rsvps"> & { rsvps: ReadableBy<RsvpView>[] } {
  return readsContactDetails(role) ? stats : { ...stats, rsvps: stats.rsvps.map((rsvp) => withoutContactDetails(rsvp)) };
}

/**
 * An upload as `role` reads it: the family's submittedBy as it was sent
 * ("Ann Lee (ann@example.com)"), a helper's the sender's name alone, as
 * visitors read it in the gallery ("Ann Lee"), or null when there is no
 * name to show (never the address, even one typed as a name).
 */
export function uploadFor<T extends Pick<AdminUpload, "submittedBy">>(role: Role, upload: T): T {
  return readsContactDetails(role) ? upload : { ...upload, submittedBy: senderName(upload.submittedBy) };
}

/** Who sent an upload, by name, for an e-mail alert to an admin of `role`; null when nobody is named. */
export function senderFor(role: Role, submittedBy: string | null): string | null {
  if (!readsContactDetails(role)) return senderName(submittedBy);
  // A voice memory may come with a name alone: then all of it is the name.
  return (submittedBy && (parseSubmittedBy(submittedBy)?.name ?? submittedBy.trim())) || null;
}
