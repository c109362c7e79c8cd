import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { rsvps, type Rsvp } from "../../db/schema";
import { db } from "~/platform/db.server";
import { serverForm } from "~/platform/form-schema.server";
import type { Language } from "~/i18n/languages";
import { RsvpSchema, type RsvpInput } from "./rsvp.schema";
import {
  countSubmission,
  requireSubmissionAllowed,
  RESUBMISSION_WINDOW_MS,
  type SubmissionSource,
} from "~/platform/submission-limit.server";

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

/**
 * Records that someone attended, in the language they answered in (the
 * page's; English from the API). A visitor's note (`source` given) counts
 * against the same allowance as guest-book memories. Returns only once the
 * row is committed (all RETURNING rows read, see submitMemory).
 */
export function createRsvp(input: RsvpInput & { language?: Language }, source?: SubmissionSource): RsvpView {
  // The same note sent again (Back and Send, a double tap) is already kept.
  const [copy] = db
    .select()
    .from(rsvps)
    .where(
      and(
        gt(rsvps.createdAt, new Date(Date.now() - RESUBMISSION_WINDOW_MS)),
        eq(rsvps.name, input.name),
        eq(rsvps.email, input.email),
        eq(rsvps.guestCount, input.guestCount),
        input.notes ? eq(rsvps.notes, input.notes) : isNull(rsvps.notes),
      ),
    )
    .orderBy(desc(rsvps.id))
    .limit(1)
    .all();
  if (copy) return toRsvpView(copy);
  if (source) requireSubmissionAllowed(source);
  const [row] = db
    .insert(rsvps)
    .values({
      name: input.name,
      email: input.email,
      guestCount: input.guestCount,
      notes: input.notes ?? null,
      language: input.language ?? "en",
    })
    .returning()
    .all();
  if (source) countSubmission(source);
  return toRsvpView(row!);
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

/** The attendance form's schema on the server: its parser and its fields' HTML attributes. */
export const rsvpForm = serverForm(RsvpSchema);
