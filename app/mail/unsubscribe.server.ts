import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { adminUsers, followers, mailOutbox, mailSuppressions, mailUnsubscribeTokens } from "../../db/schema";
import { db, type Transaction } from "~/platform/db.server";

// Who asked for no more e-mail: the unsubscribe links in every message, and
// the list of addresses never written to again.

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A token for a link in an e-mail (to stop, to confirm): 192 random bits; only its hash is kept. */
export const newLinkToken = () => randomBytes(24).toString("base64url");

/** Whether `token` has the shape newLinkToken gives (anything else is not looked up). */
export const isLinkToken = (token: string) => /^[A-Za-z0-9_-]{32}$/.test(token);

/** Whether this address asked for no more e-mail. */
export function isSuppressed(tx: Pick<Transaction, "select">, email: string): boolean {
  return (
    tx
      .select({ email: mailSuppressions.email })
      .from(mailSuppressions)
      .where(eq(mailSuppressions.email, normaliseEmail(email)))
      .get() !== undefined
  );
}

/** Which address an unsubscribe link stops, or undefined for a link this site did not make (or one too old). */
export function findUnsubscribe(token: string): { email: string; done: boolean } | undefined {
  if (!isLinkToken(token)) return undefined;
  const row = db
    .select()
    .from(mailUnsubscribeTokens)
    .where(eq(mailUnsubscribeTokens.tokenHash, hashToken(token)))
    .get();
  return row ? { email: row.email, done: isSuppressed(db, row.email) } : undefined;
}

/**
 * Stops all e-mail to the address of an unsubscribe link: it is never sent
 * e-mail again (an admin's choice becomes "none"; choosing again in the
 * panel brings it back; a follower is deleted, and following again asks
 * again), and what waits for it is not sent. Returns the
 * address, or undefined for an unknown link.
 */
export function unsubscribe(token: string, now = Date.now()): string | undefined {
  const found = findUnsubscribe(token);
  if (!found) return undefined;
  db.transaction(
    (tx) => {
      tx.insert(mailSuppressions)
        .values({ email: found.email, createdAt: new Date(now) })
        .onConflictDoNothing()
        .run();
      tx.update(adminUsers)
        .set({ mailChoice: "none" })
        .where(sql`lower(trim(${adminUsers.email})) = ${found.email}`)
        .run();
      tx.delete(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), sql`lower(trim(${mailOutbox.recipient})) = ${found.email}`))
        .run();
      tx.delete(followers).where(eq(followers.email, found.email)).run();
    },
    { behavior: "immediate" },
  );
  return found.email;
}

/** An address this admin chose again in the panel: it may be sent e-mail again. */
export function allowMailTo(tx: Transaction, email: string) {
  tx.delete(mailSuppressions)
    .where(eq(mailSuppressions.email, normaliseEmail(email)))
    .run();
}
