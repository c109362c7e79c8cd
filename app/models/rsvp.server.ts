import { desc } from "drizzle-orm";
import { rsvps, type Rsvp } from "../../db/schema";
import { db } from "~/db.server";
import type { RsvpInput } from "./rsvp.schema";

export { MAX_GUESTS, RSVP_THANKS, RsvpSchema, type RsvpInput } from "./rsvp.schema";

export interface RsvpView {
  id: number;
  name: string;
  email: string;
  guestCount: number;
  createdAt: string;
  notes: string | null;
}

export interface RsvpStats {
  totalRsvps: number;
  totalGuests: number;
  rsvps: RsvpView[];
}

export function createRsvp(input: RsvpInput): RsvpView {
  const row = db
    .insert(rsvps)
    .values({ name: input.name, email: input.email, guestCount: input.guestCount, notes: input.notes ?? null })
    .returning()
    .get();
  return toRsvpView(row);
}

function toRsvpView(row: Rsvp): RsvpView {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    guestCount: row.guestCount,
    createdAt: row.createdAt.toISOString(),
    notes: row.notes,
  };
}

/** Everyone who said they attended, newest first, with the totals the Attendance tab shows. */
export function getRsvpStats(): RsvpStats {
  const list = db.select().from(rsvps).orderBy(desc(rsvps.createdAt), desc(rsvps.id)).all().map(toRsvpView);
  return {
    totalRsvps: list.length,
    totalGuests: list.reduce((sum, rsvp) => sum + rsvp.guestCount, 0),
    rsvps: list,
  };
}
