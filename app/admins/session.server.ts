import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, redirect, type Session } from "@remix-run/node";
import { eq, lt } from "drizzle-orm";
import { sessions } from "../../db/schema";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { getAdminById, type Admin } from "~/admins/admin.server";
import { methodNotAllowed, startBodyClock } from "~/platform/http.server";
import { adminActor, type AdminActor } from "~/platform/actor.server";
import { FAMILY_ONLY, FAMILY_ONLY_PAGE, ROLE_CHANGED } from "~/admins/roles";

const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
const ADMIN_KEY = "adminId";

const sessionCookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: config.NODE_ENV === "production",
  secrets: config.sessionSecrets,
  maxAge: SESSION_MAX_AGE_SECONDS,
});

const expiry = (expires?: Date) => expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);

/**
 * Sessions are rows of the sessions table (sid, sess, expire); the cookie
 * carries only the signed id, so logging out really ends the session.
 */
const sessionStorage = createSessionStorage({
  cookie: sessionCookie,
  async createData(data, expires) {
    const sid = randomBytes(24).toString("base64url");
    db.insert(sessions)
      .values({ sid, sess: data, expire: expiry(expires) })
      .run();
    return sid;
  },
  async readData(sid) {
    const row = db.select().from(sessions).where(eq(sessions.sid, sid)).get();
    if (!row) return null;
    if (row.expire.getTime() <= Date.now()) {
      try {
        db.delete(sessions).where(eq(sessions.sid, sid)).run();
      } catch {
        // Reading must not fail on a full disk; the hourly sweep removes it later.
      }
      return null;
    }
    return row.sess as Record<string, unknown>;
  },
  async updateData(sid, data, expires) {
    // Only a row that is still there: a session ended meanwhile (logged out, or by a password change) stays ended.
    db.update(sessions)
      .set({ sess: data, expire: expiry(expires) })
      .where(eq(sessions.sid, sid))
      .run();
  },
  async deleteData(sid) {
    db.delete(sessions).where(eq(sessions.sid, sid)).run();
  },
});

/** Removes sessions past their expiry; returns how many. */
export function sweepExpiredSessions(now = Date.now()) {
  return db
    .delete(sessions)
    .where(lt(sessions.expire, new Date(now)))
    .run().changes;
}

function getSession(request: Request) {
  return sessionStorage.getSession(request.headers.get("Cookie"));
}

/** The logged-in administrator and the id of their session, or null. */
async function adminSession(request: Request): Promise<{ admin: Admin; sessionId: string } | null> {
  const session = await getSession(request);
  const id = session.get(ADMIN_KEY);
  const admin = typeof id === "number" ? getAdminById(id) : undefined;
  return admin && session.id ? { admin, sessionId: session.id } : null;
}

/** The logged-in administrator, or null. */
export async function getAdmin(request: Request): Promise<Admin | null> {
  return (await adminSession(request))?.admin ?? null;
}

/** A new session for this admin (a fresh id: nothing carried over from before the login). */
export async function startAdminSession(request: Request, admin: Pick<Admin, "id"> & Partial<Admin>): Promise<string> {
  const previous = await getSession(request);
  if (previous.id) await sessionStorage.destroySession(previous);
  const session: Session = await sessionStorage.getSession();
  session.set(ADMIN_KEY, admin.id);
  return sessionStorage.commitSession(session);
}

/** The id of the request's session (its row in the sessions table), or undefined without one. */
export async function sessionIdOf(request: Request): Promise<string | undefined> {
  return (await getSession(request)).id || undefined;
}

/**
 * Keeps `value` in the admin's session (its row, not the cookie) until
 * `takeFromSession` reads it once: something to show on the next page only,
 * such as a new invitation link.
 */
export async function flashInSession(request: Request, key: string, value: unknown): Promise<void> {
  const session = await getSession(request);
  if (!session.id) return;
  session.flash(key, value);
  // The cookie names the same row: only the row changes, so no Set-Cookie is needed.
  await sessionStorage.commitSession(session);
}

/** What `flashInSession` kept under `key`, once; null when there is none. */
export async function takeFromSession<T>(request: Request, key: string): Promise<T | null> {
  const session = await getSession(request);
  if (!session.id || !session.has(key)) return null;
  const value = session.get(key) as T;
  await sessionStorage.commitSession(session);
  return value;
}

/**
 * Ends the session: its row is deleted and the cookie cleared. When the row
 * cannot be deleted (a full disk) the cookie is still cleared, and the row
 * only lives until its expiry.
 */
export async function endAdminSession(request: Request): Promise<string> {
  const session = await getSession(request);
  try {
    return await sessionStorage.destroySession(session);
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", msg: "could not delete a session row at logout", error: String(error) }));
    return sessionCookie.serialize("", { expires: new Date(0), maxAge: undefined });
  }
}

/** The answers of a door: without a session (or once it has ended), and to a role that may not pass (or has changed). */
interface Door {
  refused: () => Response;
  forbidden: (message: string) => Response;
}

/**
 * The admin of a request whose session stands, as the actor of its changes;
 * from here the request's body is on the clock (startBodyClock). A helper
 * asking for a family-only address (`familyOnly`) is forbidden before
 * anything is read; a change made once the session has ended is refused,
 * and one made once the role has changed is forbidden (actor.server.ts).
 */
async function requireAdminSession(request: Request, door: Door, familyOnly: boolean): Promise<AdminActor> {
  const found = await adminSession(request);
  if (!found) throw door.refused();
  if (familyOnly && found.admin.role !== "family") throw door.forbidden(FAMILY_ONLY);
  startBodyClock(request);
  return adminActor(found.admin, found.sessionId, door.refused, () => door.forbidden(ROLE_CHANGED));
}

/** To the login page, which returns to the page asked for afterwards. */
function toLogin(request: Request) {
  const url = new URL(request.url);
  const back = url.pathname === "/admin" ? "" : `?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
  return redirect(`/admin/login${back}`);
}

/**
 * A polite page, not a form: the admin layout's ErrorBoundary shows FAMILY_ONLY_PAGE
 * (app/components/admin/FamilyOnly.tsx) for it, or the reason a change was
 * not made.
 */
const pageForbidden = (message: string) =>
  new Response(JSON.stringify({ forbidden: message === FAMILY_ONLY ? FAMILY_ONLY_PAGE.text : message }), {
    status: 403,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "private, no-store" },
  });

const pageDoor = (request: Request): Door => ({ refused: () => toLogin(request), forbidden: pageForbidden });

/**
 * For admin pages and form actions that helpers may use too, on their first
 * line: the admin (whose changes go through `commit`), or a redirect to the
 * login page.
 */
export function requireAdmin(request: Request): Promise<AdminActor> {
  return requireAdminSession(request, pageDoor(request), false);
}

/** For the family's own pages and forms: as requireAdmin, and a 403 page for a helper. */
export function requireFamily(request: Request): Promise<AdminActor> {
  return requireAdminSession(request, pageDoor(request), true);
}

const apiError = (status: number, field: string, message: string) =>
  new Response(JSON.stringify({ errors: { [field]: [message] } }), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });

const apiDoor: Door = {
  refused: () => apiError(401, "session", "Log in as the administrator first"),
  forbidden: (message) => apiError(403, "role", message),
};

/** For /api/admin addresses helpers may use too: the admin (whose changes go through `commit`), or a 401 in the API's error shape. */
export function requireAdminApi(request: Request): Promise<AdminActor> {
  return requireAdminSession(request, apiDoor, false);
}

/** For the family's own /api/admin addresses: as requireAdminApi, and a 403 in the API's error shape for a helper. */
export function requireFamilyApi(request: Request): Promise<AdminActor> {
  return requireAdminSession(request, apiDoor, true);
}

/**
 * The answer of an /api/admin address to a method it does not take (`allow`
 * names those it does): 401 without a session, as everywhere there, else 405.
 * The door comes first whatever the method, so no address there answers
 * anything to someone who is not logged in.
 */
export const adminMethodNotAllowed =
  (allow: string) =>
  async ({ request }: { request: Request }) => {
    await requireAdminApi(request);
    return methodNotAllowed(allow);
  };

/** The same for a family-only address: a helper gets its 403 whatever the method. */
export const familyMethodNotAllowed =
  (allow: string) =>
  async ({ request }: { request: Request }) => {
    await requireFamilyApi(request);
    return methodNotAllowed(allow);
  };

/** The action of an /api/admin address that only answers GET. */
export const adminReadOnlyAction = adminMethodNotAllowed("GET");
export const familyReadOnlyAction = familyMethodNotAllowed("GET");

/** The action of a family-only download under /admin (the keepsake ZIP, the memory book): its page's door first, then 405. */
export async function familyDownloadAction({ request }: { request: Request }) {
  await requireFamily(request);
  return methodNotAllowed("GET");
}
