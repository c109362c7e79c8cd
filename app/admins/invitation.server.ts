import { createHash, randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { adminInvitations, type Role } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";
import { db } from "~/platform/db.server";
import { Refusal } from "~/platform/refusal.server";
import { hashNewPassword, insertAdmin, isUsernameTaken, type Admin } from "./admin.server";
import { INVITATION_DAYS, USERNAME_TAKEN, type NewAdmin } from "./admin.schema";

// One-time links that let a new family admin choose their own username and
// password. The link carries a random token; only its SHA-256 is stored, so
// the database (or a backup of it) holds nothing that opens an invitation.

const DAY = 24 * 60 * 60 * 1000;
export const INVITATION_LIFETIME_MS = INVITATION_DAYS * DAY;
/** Expired and used invitations are kept a while (who invited whom), then dropped. */
const KEEP_OLD_INVITATIONS_MS = 90 * DAY;

/** 32 random bytes in base64url: 43 characters. Anything else is not a token of ours and is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Links that lead nowhere, per network: 20 in 15 minutes. Tokens cannot be
 * guessed (256 bits), but a page anyone may open still answers only so many
 * wrong ones.
 */
export const MAX_UNKNOWN_INVITATIONS = 20;
const unknownLinks = createRateLimiter({ limit: MAX_UNKNOWN_INVITATIONS, windowMs: 15 * 60 * 1000, bucket: "invitation-network" });

export const INVITATION_USED =
  "This invitation has already been used. If you used it, log in with the username and password you chose. Otherwise, please ask the family member who sent it for a new one.";
export const INVITATION_EXPIRED = `This invitation link has expired (links work for ${INVITATION_DAYS} days). Please ask the family member who sent it for a new one.`;
const INVITATION_UNKNOWN =
  "This invitation link does not work. Please check that the whole link was copied, or ask the family member who sent it for a new one.";
const TOO_MANY_INVITATION_LINKS = "Too many invitation links that do not work were opened from here. Please wait 15 minutes and try again.";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A new invitation made by the family admin `by`, for someone who will be
 * `role`: the token for the link (shown once, never stored) and when it
 * stops working.
 */
export function createInvitation(by: Actor, now = Date.now(), role: Role = "family"): { token: string; expiresAt: Date } {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now + INVITATION_LIFETIME_MS);
  by.commit((tx) => {
    tx.delete(adminInvitations)
      .where(lt(adminInvitations.expiresAt, new Date(now - KEEP_OLD_INVITATIONS_MS)))
      .run();
    tx.insert(adminInvitations)
      .values({ tokenHash: hashToken(token), createdBy: by.username, createdAt: new Date(now), expiresAt, role })
      .run();
  });
  return { token, expiresAt };
}

export type InvitationState =
  | { state: "open"; expiresAt: Date; createdBy: string | null; role: Role }
  | { state: "used" | "expired" | "unknown"; message: string }
  | { state: "throttled"; message: string; retryAfterSeconds: number };

/** What the link `token` is now, without counting anything. */
function invitationState(token: string, now: number): InvitationState {
  const row = TOKEN_PATTERN.test(token)
    ? db
        .select()
        .from(adminInvitations)
        .where(eq(adminInvitations.tokenHash, hashToken(token)))
        .get()
    : undefined;
  if (!row) return { state: "unknown", message: INVITATION_UNKNOWN };
  if (row.usedAt) return { state: "used", message: INVITATION_USED };
  if (row.expiresAt.getTime() <= now) return { state: "expired", message: INVITATION_EXPIRED };
  return { state: "open", expiresAt: row.expiresAt, createdBy: row.createdBy, role: row.role };
}

/**
 * What the link `token` opened from `clientIp` is. A link that leads to no
 * invitation counts against the network, and past the limit every link from
 * there is answered "throttled" for a while.
 */
export function lookUpInvitation(token: string, clientIp: string | undefined, now = Date.now()): InvitationState {
  const network = networkKey(clientIp);
  const limit = unknownLinks.check(network, now);
  if (!limit.allowed) return { state: "throttled", message: TOO_MANY_INVITATION_LINKS, retryAfterSeconds: limit.retryAfterSeconds };
  const found = invitationState(token, now);
  if (found.state === "unknown") unknownLinks.hit(network, now);
  return found;
}

/**
 * The person with the link becomes an admin with the username and password
 * they chose (checked by AcceptInvitationSchema). A link that is used,
 * expired or unknown by the time the password is hashed is a 410 Refusal; a
 * taken username a 409. The invitation is used and the admin added in one
 * immediate transaction, so one link makes one admin however often it is sent.
 */
export async function acceptInvitation(token: string, account: Omit<NewAdmin, "role">, now = Date.now()): Promise<Admin> {
  const before = invitationState(token, now);
  if (before.state !== "open") throw new Refusal(410, "form", "message" in before ? before.message : INVITATION_UNKNOWN);
  if (isUsernameTaken(db, account.username)) throw new Refusal(409, "username", USERNAME_TAKEN);
  const hash = await hashNewPassword(account.password);
  return db.transaction(
    (tx) => {
      const row = tx
        .select()
        .from(adminInvitations)
        .where(eq(adminInvitations.tokenHash, hashToken(token)))
        .get();
      if (!row || row.usedAt || row.expiresAt.getTime() <= now) {
        throw new Refusal(410, "form", row?.usedAt ? INVITATION_USED : INVITATION_EXPIRED);
      }
      // The role is the invitation's: the person with the link cannot choose it.
      const admin = insertAdmin(tx, account.username, hash, row.role);
      tx.update(adminInvitations)
        .set({ usedAt: new Date(now), usedBy: admin.username })
        .where(eq(adminInvitations.id, row.id))
        .run();
      return { id: admin.id, username: admin.username, role: admin.role };
    },
    { behavior: "immediate" },
  );
}

export function resetInvitationLimits() {
  unknownLinks.reset();
}
