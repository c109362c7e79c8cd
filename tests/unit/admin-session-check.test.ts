// The check behind every admin change (app/platform/actor.server.ts): an
// admin's write commits only while the session that began the request still
// stands, checked inside the write's own transaction; and the clock an
// admin's request body is read against (app/platform/http.server.ts).
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { adminUsers, poems, sessions } from "../../db/schema";
import { adminActor, adminOfSession, operator } from "~/platform/actor.server";
import { endAdminSession, flashInSession, requireAdmin, requireAdminApi, startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { changeAdminPassword, removeAdmin, upsertAdmin, type Admin } from "~/admins/admin.server";
import { ADMIN_BODY_GRACE_MS, bodyDeadline, readBefore, SLOW_UPLOAD_BYTES_PER_SECOND, startBodyClock } from "~/platform/http.server";
import { answer } from "../support/route-calls";

const ORIGIN = "http://localhost";

beforeEach(() => {
  db.delete(sessions).run();
  db.delete(poems).run();
  db.delete(adminUsers).run();
});

async function addAdmin(username: string): Promise<Admin> {
  await upsertAdmin(username, `${username}-password`);
  return db
    .select({ id: adminUsers.id, username: adminUsers.username, role: adminUsers.role })
    .from(adminUsers)
    .where(eq(adminUsers.username, username))
    .get()!;
}
const logIn = async (admin: Admin) => (await startAdminSession(new Request(`${ORIGIN}/admin`), admin)).split(";")[0]!;
const requestOf = (cookie: string, path = "/admin/poems") => new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie } });
const addPoem = (title: string) => (tx: Pick<typeof db, "insert">) => tx.insert(poems).values({ title, content: "A line." }).run();
const poemTitles = () =>
  db
    .select({ title: poems.title })
    .from(poems)
    .all()
    .map((poem) => poem.title);

describe("adminOfSession", () => {
  it("names the admin of a session that stands, and nobody once it has ended, expired, or its admin is gone", async () => {
    const [anna, ben] = [await addAdmin("anna"), await addAdmin("ben")];
    const annas = await requireAdmin(requestOf(await logIn(anna)));
    expect(adminOfSession(db, annas.sessionId)).toEqual(anna);
    expect(adminOfSession(db, "no-such-session")).toBeUndefined();

    // Expired: past its expiry, though the sweep has not removed the row yet.
    const expire = db.select({ expire: sessions.expire }).from(sessions).where(eq(sessions.sid, annas.sessionId)).get()!.expire;
    expect(adminOfSession(db, annas.sessionId, expire.getTime() + 1)).toBeUndefined();

    // Logged out.
    const cookie = await logIn(anna);
    const loggedOut = await requireAdmin(requestOf(cookie));
    await endAdminSession(requestOf(cookie));
    expect(adminOfSession(db, loggedOut.sessionId)).toBeUndefined();

    // Removed (the sessions go with the admin), and a row left naming an admin who is gone.
    const bens = await requireAdmin(requestOf(await logIn(ben)));
    db.insert(sessions)
      .values({ sid: "orphan", sess: { adminId: 999_999 }, expire: new Date(Date.now() + 60_000) })
      .run();
    removeAdmin(ben.id, operator());
    expect(adminOfSession(db, bens.sessionId)).toBeUndefined();
    expect(adminOfSession(db, "orphan")).toBeUndefined();
    expect(adminOfSession(db, annas.sessionId)).toEqual(anna);
  });
});

describe("an admin's commit", () => {
  it("writes while the session stands", async () => {
    const anna = await addAdmin("anna");
    const annas = await requireAdmin(requestOf(await logIn(anna)));
    expect(annas).toMatchObject({ id: anna.id, username: "anna", sessionId: expect.any(String) });
    annas.commit(addPoem("Written"));
    expect(poemTitles()).toEqual(["Written"]);
  });

  it("writes nothing once the session has ended, and throws what requireAdmin would have answered", async () => {
    const [anna, ben] = [await addAdmin("anna"), await addAdmin("ben")];
    const cookie = await logIn(anna);
    const page = await requireAdmin(requestOf(cookie, "/admin/poems?x=1"));
    const api = await requireAdminApi(requestOf(cookie, "/api/admin/poems"));
    removeAdmin(anna.id, await requireAdmin(requestOf(await logIn(ben))));

    const write = vi.fn(addPoem("Never"));
    const toLogin = await answer(() => page.commit(write));
    expect(toLogin.status).toBe(302);
    expect(toLogin.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fpoems%3Fx%3D1");
    const refused = await answer(() => api.commit(write));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ errors: { session: ["Log in as the administrator first"] } });
    expect(write).not.toHaveBeenCalled();
    expect(poemTitles()).toEqual([]);
  });

  it("is refused for the sessions a password change ended, not for the one that made it", async () => {
    const anna = await addAdmin("anna");
    const here = await requireAdmin(requestOf(await logIn(anna)));
    const elsewhere = await requireAdmin(requestOf(await logIn(anna)));
    await changeAdminPassword(here, { currentPassword: "anna-password", newPassword: "a-new-password" });
    expect((await answer(() => elsewhere.commit(addPoem("From elsewhere")))).status).toBe(302);
    here.commit(addPoem("From here"));
    expect(poemTitles()).toEqual(["From here"]);
  });

  it("rolls the whole write back when it fails part way", async () => {
    const anna = await addAdmin("anna");
    const annas = adminActor(
      anna,
      (await requireAdmin(requestOf(await logIn(anna)))).sessionId,
      () => new Response(null, { status: 401 }),
      () => new Response(null, { status: 403 }),
    );
    expect(() =>
      annas.commit((tx) => {
        addPoem("Half")(tx);
        throw new Error("the second half failed");
      }),
    ).toThrow("the second half failed");
    expect(poemTitles()).toEqual([]);
  });

  it("of the operator (the admin command, tests) has no session to check", () => {
    operator("family").commit(addPoem("From the shell"));
    expect(poemTitles()).toEqual(["From the shell"]);
  });

  it("cannot be undone by a session write made after the session ended (an invitation link kept to show once)", async () => {
    const anna = await addAdmin("anna");
    const cookie = await logIn(anna);
    const annas = await requireAdmin(requestOf(cookie));
    db.delete(sessions).where(eq(sessions.sid, annas.sessionId)).run();
    await flashInSession(requestOf(cookie), "invitationLink", { link: "x" });
    expect(adminOfSession(db, annas.sessionId)).toBeUndefined();
    expect(db.select().from(sessions).all()).toEqual([]);
  });
});

describe("an admin's body deadline", () => {
  it("starts when requireAdmin lets the request in, and allows 30 s plus the size limit at 256 kbit/s", async () => {
    const anna = await addAdmin("anna");
    const visitor = new Request(`${ORIGIN}/api/guestbook`, { method: "POST" });
    expect(bodyDeadline(visitor, 64 * 1024)).toBeNull();

    const before = Date.now();
    const request = requestOf(await logIn(anna));
    await requireAdmin(request);
    const form = bodyDeadline(request, 64 * 1024)!;
    expect(form - before).toBeGreaterThanOrEqual(32_000);
    expect(form - Date.now()).toBeLessThanOrEqual(32_000);
    // The 25 MB hero photo (with 64 KB for the rest of its form): about 14 minutes.
    const hero = bodyDeadline(request, 25 * 1024 * 1024 + 64 * 1024)! - (form - 32_000);
    expect(hero).toBe(ADMIN_BODY_GRACE_MS + Math.ceil(((25 * 1024 * 1024 + 64 * 1024) / SLOW_UPLOAD_BYTES_PER_SECOND) * 1000));
    expect(Math.round(hero / 60_000)).toBe(14);
  });

  it("passes chunks that arrive in time and refuses the wait past it, releasing the body", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const request = new Request(`${ORIGIN}/admin/poems`, { method: "POST" });
      startBodyClock(request);
      let more!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void (more = controller) });
      const reader = body.getReader();
      const deadline = bodyDeadline(request, 64 * 1024);
      more.enqueue(new Uint8Array([1]));
      expect(await readBefore(reader, deadline, () => "late")).toEqual({ done: false, value: new Uint8Array([1]) });
      await vi.advanceTimersByTimeAsync(31_000);
      more.enqueue(new Uint8Array([2]));
      expect(await readBefore(reader, deadline, () => "late")).toEqual({ done: false, value: new Uint8Array([2]) });
      // Nothing more arrives: at 32 s the wait ends with the refusal, and the body is let go.
      const waiting = readBefore(reader, deadline, () => "late").catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await waiting).toBe("late");
      expect(body.locked).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
