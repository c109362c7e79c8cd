import { and, asc, count, eq, isNull, ne, sql } from "drizzle-orm";
import { adminInvitations, adminUsers, sessions, type AdminUser, type Role } from "../../db/schema";
import type { Actor, AdminActor } from "~/platform/actor.server";
import { loginSucceeded, startLoginAttempt } from "~/admins/login-throttle.server";
import { bookPasswordCheck, decoyHash, hashPassword, PASSWORD_CHECKS_BUSY, verifyPassword } from "~/admins/password.server";
import { db } from "~/platform/db.server";
import { Refusal } from "~/platform/refusal.server";
import { LAST_FAMILY_ADMIN } from "./roles";
import { LAST_ADMIN, USERNAME_TAKEN, WRONG_CURRENT_PASSWORD, type AdminSummary, type NewAdmin, type PasswordChange } from "./admin.schema";

export type Admin = Pick<AdminUser, "id" | "username" | "role">;

const adminColumns = { id: adminUsers.id, username: adminUsers.username, role: adminUsers.role };

const TOO_MANY_PASSWORD_CHECKS = "Too many wrong passwords. Please wait 15 minutes and try again.";

export function getAdminById(id: number): Admin | undefined {
  return db.select(adminColumns).from(adminUsers).where(eq(adminUsers.id, id)).get();
}

const toSummary = (row: Pick<AdminUser, "id" | "username" | "role" | "createdAt">): AdminSummary => ({
  id: row.id,
  username: row.username,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
});
const summaryColumns = { ...adminColumns, createdAt: adminUsers.createdAt };

/** Every admin, the first added first. */
export function listAdmins(): AdminSummary[] {
  return db.select(summaryColumns).from(adminUsers).orderBy(asc(adminUsers.createdAt), asc(adminUsers.id)).all().map(toSummary);
}

export function countAdmins(): number {
  return db.select({ n: count() }).from(adminUsers).get()?.n ?? 0;
}

/** How many admins have this role. */
export function countAdminsWithRole(role: Role, tx: Pick<typeof db, "select"> = db): number {
  return tx.select({ n: count() }).from(adminUsers).where(eq(adminUsers.role, role)).get()?.n ?? 0;
}

/** The admin named `username`, whatever its case (the unique index of db/schema.ts ignores case too). */
const usernameIs = (username: string) => sql`${adminUsers.username} = ${username} collate nocase`;

/** The admin with these credentials, or null; takes as long whether or not the username exists. */
export async function verifyAdminLogin(username: string, password: string): Promise<Admin | null> {
  const row = db.select().from(adminUsers).where(usernameIs(username)).get();
  if (!row) {
    await verifyPassword(password, await decoyHash());
    return null;
  }
  return (await verifyPassword(password, row.password)) ? { id: row.id, username: row.username, role: row.role } : null;
}

/**
 * Ends this admin's sessions (all of them, or all but `except`, the one
 * making the change). A session row keeps the admin's id in its JSON
 * (app/admins/session.server.ts); the cookie only names the row, so a deleted
 * row is a logged-out browser.
 */
function endSessionsOf(tx: Pick<typeof db, "delete">, adminId: number, except?: string) {
  const ofAdmin = sql`json_extract(${sessions.sess}, '$.adminId') = ${adminId}`;
  return tx
    .delete(sessions)
    .where(except ? and(ofAdmin, ne(sessions.sid, except)) : ofAdmin)
    .run().changes;
}

/** Whether a username is taken, ignoring case: "Anna" and "anna" would be too easy to mix up at the login. */
export function isUsernameTaken(tx: Pick<typeof db, "select">, username: string) {
  return tx.select({ id: adminUsers.id }).from(adminUsers).where(usernameIs(username)).get() !== undefined;
}

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === "SQLITE_CONSTRAINT_UNIQUE";

/**
 * Inserts an admin whose password is already hashed, refusing a taken
 * username (409). Inside the caller's transaction, so a check made there
 * (the invitation is unused, no admin exists yet) holds for the insert too.
 */
export function insertAdmin(
  tx: Pick<typeof db, "select" | "insert">,
  username: string,
  passwordHash: string,
  role: Role = "family",
): AdminSummary {
  if (isUsernameTaken(tx, username)) throw new Refusal(409, "username", USERNAME_TAKEN);
  try {
    const [row] = tx.insert(adminUsers).values({ username, password: passwordHash, role }).returning(summaryColumns).all();
    return toSummary(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new Refusal(409, "username", USERNAME_TAKEN);
    throw error;
  }
}

/** A password hashed in one of the few hashing slots, or a 503 when they are all taken and waiting. */
export async function hashNewPassword(password: string): Promise<string> {
  const release = bookPasswordCheck();
  if (!release) throw new Refusal(503, "form", PASSWORD_CHECKS_BUSY, 5);
  try {
    return await hashPassword(password);
  } finally {
    release();
  }
}

/** Adds an admin with the role chosen (checked by NewAdminSchema) for the family admin `by`; a taken username is a 409 Refusal. */
export async function createAdmin(input: NewAdmin, by: Actor): Promise<AdminSummary> {
  // Refused before the password is hashed: the usual mistake costs nothing.
  if (isUsernameTaken(db, input.username)) throw new Refusal(409, "username", USERNAME_TAKEN);
  const hash = await hashNewPassword(input.password);
  return by.commit((tx) => insertAdmin(tx, input.username, hash, input.role));
}

/**
 * Gives the admin `id` the role `role`, for the family admin `by`. Never
 * the last family admin made a helper: a 409 Refusal. Her sessions stay;
 * her next page shows what the new role allows, and a request of hers
 * already on its way changes nothing (actor.server.ts). Returns her as the
 * list shows her, or undefined when there is no such admin.
 */
export function setAdminRole(id: number, role: Role, by: Actor): AdminSummary | undefined {
  return by.commit((tx) => {
    const admin = tx.select(summaryColumns).from(adminUsers).where(eq(adminUsers.id, id)).get();
    if (!admin) return undefined;
    if (admin.role === role) return toSummary(admin);
    if (admin.role === "family" && countAdminsWithRole("family", tx) <= 1) throw new Refusal(409, "role", LAST_FAMILY_ADMIN);
    const [changed] = tx.update(adminUsers).set({ role }).where(eq(adminUsers.id, id)).returning(summaryColumns).all();
    return toSummary(changed!);
  });
}

/**
 * Removes an admin, for the family admin `by`: their sessions end, and the
 * invitations they made and nobody has used yet stop working (someone no
 * longer trusted should not keep a way back in). Never the last admin, nor
 * the last family admin: a 409 Refusal. Returns the removed admin, or undefined when there is no such
 * admin. The count and the delete are one immediate transaction (by's
 * commit), so two admins removing each other at once still leave one.
 */
export function removeAdmin(id: number, by: Actor): Admin | undefined {
  return by.commit((tx) => {
    const admin = tx.select(adminColumns).from(adminUsers).where(eq(adminUsers.id, id)).get();
    if (!admin) return undefined;
    const admins = tx.select({ n: count() }).from(adminUsers).get()?.n ?? 0;
    if (admins <= 1) throw new Refusal(409, "admin", LAST_ADMIN);
    // Helpers alone could not look after the memorial: no one could change its settings or add anyone.
    if (admin.role === "family" && countAdminsWithRole("family", tx) <= 1) throw new Refusal(409, "admin", LAST_FAMILY_ADMIN);
    tx.delete(adminUsers).where(eq(adminUsers.id, id)).run();
    endSessionsOf(tx, id);
    tx.delete(adminInvitations)
      .where(and(eq(adminInvitations.createdBy, admin.username), isNull(adminInvitations.usedAt)))
      .run();
    return admin;
  });
}

/**
 * Changes the password of the admin `by`, their own. The current password
 * must be right: a wrong one is a 400 Refusal on `currentPassword`, counted
 * like a failed login (login-throttle.server.ts), so a borrowed session
 * cannot be used to guess it. The admin's other sessions end; the session
 * making the change stays logged in.
 */
export async function changeAdminPassword(by: AdminActor, change: PasswordChange, { clientIp }: { clientIp?: string } = {}): Promise<void> {
  const release = bookPasswordCheck();
  if (!release) throw new Refusal(503, "form", PASSWORD_CHECKS_BUSY, 5);
  try {
    // Read in a commit, so the session is checked first: one ended meanwhile is sent to log in, not told its password is wrong.
    const row = by.commit((tx) => tx.select({ password: adminUsers.password }).from(adminUsers).where(eq(adminUsers.id, by.id)).get());
    const attempt = startLoginAttempt(by.username, clientIp);
    if (!attempt.allowed) throw new Refusal(429, "currentPassword", TOO_MANY_PASSWORD_CHECKS, attempt.retryAfterSeconds);
    if (!row || !(await verifyPassword(change.currentPassword, row.password))) {
      throw new Refusal(400, "currentPassword", WRONG_CURRENT_PASSWORD);
    }
    loginSucceeded(attempt);
    const hash = await hashPassword(change.newPassword);
    by.commit((tx) => {
      tx.update(adminUsers).set({ password: hash }).where(eq(adminUsers.id, by.id)).run();
      endSessionsOf(tx, by.id, by.sessionId);
    });
  } finally {
    release();
  }
}

/**
 * Creates the admin, a family one, or gives an existing one this password
 * (the admin command, `npm run admin`, for a forgotten password; her role
 * stays). A new password ends the admin's sessions, as changing it in the
 * panel does.
 */
export async function upsertAdmin(username: string, password: string): Promise<{ created: boolean }> {
  const name = username.trim();
  if (!name) throw new Error("The username must not be empty");
  if (password.length < 8) throw new Error("The password must be at least 8 characters long");
  const hash = await hashPassword(password);
  return db.transaction(
    (tx) => {
      const existing = tx.select({ id: adminUsers.id }).from(adminUsers).where(usernameIs(name)).get();
      if (existing) {
        tx.update(adminUsers).set({ password: hash }).where(eq(adminUsers.id, existing.id)).run();
        endSessionsOf(tx, existing.id);
        return { created: false };
      }
      tx.insert(adminUsers).values({ username: name, password: hash }).run();
      return { created: true };
    },
    { behavior: "immediate" },
  );
}

/**
 * At start (ADMIN_USERNAME/ADMIN_PASSWORD): the admin of that name is
 * created with that password when there is none. One that exists is left as
 * the family keeps it: a password changed in the panel stays, and so do its
 * sessions, since a restart happens at every wake of an idle machine.
 */
export async function ensureConfiguredAdmin(username: string | undefined, password: string | undefined) {
  const name = username?.trim();
  if (!name || !password || isUsernameTaken(db, name)) return;
  const hash = await hashPassword(password);
  db.transaction(
    (tx) => {
      if (!isUsernameTaken(tx, name)) tx.insert(adminUsers).values({ username: name, password: hash }).run();
    },
    { behavior: "immediate" },
  );
}
