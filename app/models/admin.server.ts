import { eq } from "drizzle-orm";
import { adminUsers, type AdminUser } from "../../db/schema";
import { decoyHash, hashPassword, verifyPassword } from "~/auth/password.server";
import { db } from "~/db.server";

export type Admin = Pick<AdminUser, "id" | "username">;

export function getAdminById(id: number): Admin | undefined {
  return db.select({ id: adminUsers.id, username: adminUsers.username }).from(adminUsers).where(eq(adminUsers.id, id)).get();
}

/** The admin with these credentials, or null; takes as long whether or not the username exists. */
export async function verifyAdminLogin(username: string, password: string): Promise<Admin | null> {
  const row = db.select().from(adminUsers).where(eq(adminUsers.username, username)).get();
  if (!row) {
    await verifyPassword(password, await decoyHash());
    return null;
  }
  return (await verifyPassword(password, row.password)) ? { id: row.id, username: row.username } : null;
}

/** Creates the admin, or gives an existing one this password. */
export async function upsertAdmin(username: string, password: string): Promise<{ created: boolean }> {
  const name = username.trim();
  if (!name) throw new Error("The username must not be empty");
  if (password.length < 8) throw new Error("The password must be at least 8 characters long");
  const hash = await hashPassword(password);
  const existing = db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, name)).get();
  if (existing) {
    db.update(adminUsers).set({ password: hash }).where(eq(adminUsers.id, existing.id)).run();
    return { created: false };
  }
  db.insert(adminUsers).values({ username: name, password: hash }).run();
  return { created: true };
}

/** At start: the admin named by ADMIN_USERNAME exists and ADMIN_PASSWORD opens it. */
export async function ensureConfiguredAdmin(username: string | undefined, password: string | undefined) {
  if (!username || !password) return;
  const row = db.select().from(adminUsers).where(eq(adminUsers.username, username)).get();
  if (row && (await verifyPassword(password, row.password, { waitForTurn: true }))) return;
  await upsertAdmin(username, password);
}
