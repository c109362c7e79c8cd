import type { Role } from "../../db/schema";

// Two kinds of admin. The family can do everything. A helper (a friend, a
// cousin, the funeral home's staff) reads first: she moderates what visitors
// send, unpublishes, publishes again and corrects, adds poems and sees the
// attendance counts, and nothing else: no settings, no people, no contact
// details, no keepsakes, and nothing deleted for good (what she rejects or
// deletes is set aside, for the family to undo). The server enforces it:
// requireFamily / requireFamilyApi (session.server.ts) on every family-only
// route, and the same role checked again inside the write's transaction
// (actor.server.ts).

export type { Role };

export const ROLE_LABELS: Record<Role, string> = { family: "Family", helper: "Helper" };

/** What each role may do, as the forms that choose a role explain it. */
export const ROLE_HINTS: Record<Role, string> = {
  family: "Everything: moderation, the site's settings and privacy, the family's admins, contact details and keepsakes.",
  helper:
    "Reads first: approves and rejects memories, photos, videos and candles, corrects and unpublishes what is published, and adds poems. No settings, no contact details, and nothing deleted for good.",
};

/** The 403 of a family-only address asked by a helper: the API's words, and the page's. */
export const FAMILY_ONLY = "Only the family can do this. A helper can moderate and correct what visitors send, but not this.";
export const FAMILY_ONLY_PAGE = {
  title: "This part is for the family",
  text: "You are a helper on this memorial: you can read and moderate what visitors send, correct what is published, and add poems. The rest of the admin panel is kept for the family. If you need something here, please ask a family member.",
};

/** A role changed while a request was on its way: nothing was written. */
export const ROLE_CHANGED = "Your role on this memorial changed while this was being sent, so nothing was changed. Please reload the page.";

export const LAST_FAMILY_ADMIN =
  "The memorial always needs at least one family admin, so the last one cannot be removed or made a helper. Make someone else family first.";

/**
 * A helper asked to publish or unpublish something rejected: only the family
 * undoes a rejection (a helper's is set aside for them to decide), so the
 * API answers 403 naming `status`.
 */
export const ONLY_FAMILY_UNDOES =
  "Only the family can bring back something that was rejected or set aside. If you think it should be published, please ask a family member.";
