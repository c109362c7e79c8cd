import { eq } from "drizzle-orm";
import { adminUsers, sessions, type AdminUser, type Role } from "../../db/schema";
import { db, type Transaction } from "~/platform/db.server";

// Who makes a change, and the one way their change is written. An admin's
// request checks the session when it begins, but its body may take minutes
// to arrive, and meanwhile the admin may be removed or the session ended by
// a password change: so the session is checked again inside the write's own
// transaction (SQLite here is synchronous, so nothing can end the session
// between that check and the write). Her role is checked there too: a
// family admin made a helper, or a helper removed, while a slow request is
// on its way changes nothing. Models write an admin's changes only through
// `commit`.

type Admin = Pick<AdminUser, "id" | "username" | "role">;

export interface Actor {
  /** Kept with the change as who made it (moderatedBy, updatedBy, createdBy); null for nobody in particular. */
  readonly username: string | null;
  /** What they may do (app/admins/roles.ts); a helper's rejection is set aside, never a deletion. */
  readonly role: Role;
  /**
   * Runs `write` in one immediate transaction and answers what it returns.
   * An admin's first checks that their session still stands, and throws the
   * answer requireAdmin would have given (a redirect to the login page, or
   * the API's 401) when it does not, and a 403 when their role is no longer
   * the one the request began with: nothing is written then.
   */
  commit<T>(write: (tx: Transaction) => T): T;
}

/** The logged-in administrator of a request (requireAdmin's answer). */
export interface AdminActor extends Actor, Omit<Admin, "role"> {
  readonly username: string;
  /** The session's row in the sessions table. */
  readonly sessionId: string;
}

/**
 * The admin whose session `sessionId` still stands, read inside `tx`; undefined
 * when the session has ended (logged out, expired, ended by a password change
 * or a removal) or its admin no longer exists.
 */
export function adminOfSession(tx: Pick<Transaction, "select">, sessionId: string, now = Date.now()): Admin | undefined {
  const session = tx.select({ sess: sessions.sess, expire: sessions.expire }).from(sessions).where(eq(sessions.sid, sessionId)).get();
  if (!session || session.expire.getTime() <= now) return undefined;
  const adminId = (session.sess as { adminId?: unknown }).adminId;
  if (typeof adminId !== "number") return undefined;
  return tx
    .select({ id: adminUsers.id, username: adminUsers.username, role: adminUsers.role })
    .from(adminUsers)
    .where(eq(adminUsers.id, adminId))
    .get();
}

/**
 * `admin`, logged in with the session `sessionId`; `refused` is the answer when
 * that session has ended by the time they write, `roleChanged` when their
 * role is no longer the one they had when the request began.
 */
export function adminActor(admin: Admin, sessionId: string, refused: () => Response, roleChanged: () => Response): AdminActor {
  return {
    id: admin.id,
    username: admin.username,
    role: admin.role,
    sessionId,
    commit(write) {
      return db.transaction(
        (tx) => {
          const now = adminOfSession(tx, sessionId);
          if (now?.id !== admin.id) throw refused();
          if (now.role !== admin.role) throw roleChanged();
          return write(tx);
        },
        { behavior: "immediate" },
      );
    },
  };
}

/**
 * Someone at the server itself, with no session to check: the admin
 * command, seeding scripts and tests. Never for a request (routes get their
 * actor from requireAdmin; the linter keeps this out of app/routes and app/utils).
 */
export function operator(username: string | null = null): Actor {
  return { username, role: "family", commit: (write) => db.transaction(write, { behavior: "immediate" }) };
}
