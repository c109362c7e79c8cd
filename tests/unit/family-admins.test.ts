// The rules for the family's admins, on the models: never the last admin,
// sessions that end with a removal or a new password, invitations that work
// once within 7 days, the first run's one-time setup code, and who moderated
// what.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { adminInvitations, adminUsers, memories, sessions, uploads } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { resetLoginThrottle } from "~/admins/authenticator.server";
import { getAdmin, requireAdmin, sessionIdOf, startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { LAST_ADMIN, USERNAME_TAKEN, WRONG_CURRENT_PASSWORD } from "~/admins/admin.schema";
import {
  changeAdminPassword,
  createAdmin,
  listAdmins,
  removeAdmin,
  upsertAdmin,
  verifyAdminLogin,
  type Admin,
} from "~/admins/admin.server";
import {
  ALREADY_SET_UP,
  isSetupOpen,
  MAX_SETUP_GUESSES,
  onSetupCode,
  openSetupAfter,
  resetSetupLimits,
  setUpFirstAdmin,
  TOO_MANY_SETUP_CODES,
  WRONG_SETUP_CODE,
} from "~/admins/first-run.server";
import {
  acceptInvitation,
  createInvitation,
  INVITATION_EXPIRED,
  INVITATION_LIFETIME_MS,
  INVITATION_USED,
  lookUpInvitation,
  MAX_UNKNOWN_INVITATIONS,
  resetInvitationLimits,
} from "~/admins/invitation.server";
import { getMemory, setMemoryStatus } from "~/guestbook/memory.server";
import { getAdminUpload, setUploadStatus } from "~/uploads/upload.server";

const codes: string[] = [];
onSetupCode((code) => codes.push(code));

beforeEach(() => {
  db.delete(sessions).run();
  db.delete(adminInvitations).run();
  db.delete(adminUsers).run();
  resetLoginThrottle();
  resetSetupLimits();
  resetInvitationLimits();
});

async function addAdmin(username: string, password = "a-good-password"): Promise<Admin> {
  const { id } = await createAdmin({ username, password }, operator());
  return { id, username, role: "family" };
}

/** A logged-in browser of this admin: its cookie. */
async function logIn(admin: Admin) {
  return (await startAdminSession(new Request("http://x/admin"), admin)).split(";")[0]!;
}
const whoIs = (cookie: string) => getAdmin(new Request("http://x/admin", { headers: { Cookie: cookie } }));
const sidOf = (cookie: string) => sessionIdOf(new Request("http://x/admin", { headers: { Cookie: cookie } }));
/** The admin of a logged-in browser, as a request of theirs gets them (with the session their changes are checked against). */
const actorOf = (cookie: string) => requireAdmin(new Request("http://x/admin", { headers: { Cookie: cookie } }));

describe("family admins", () => {
  it("are listed in the order they were added, and a username is taken whatever its capitals", async () => {
    const anna = await addAdmin("anna");
    const ben = await addAdmin("Ben");
    expect(listAdmins()).toEqual([
      { id: anna.id, username: "anna", role: "family", createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { id: ben.id, username: "Ben", role: "family", createdAt: expect.any(String) },
    ]);
    await expect(createAdmin({ username: "ben", password: "another-password" }, operator())).rejects.toMatchObject({
      status: 409,
      field: "username",
      message: USERNAME_TAKEN,
    });
    expect(listAdmins()).toHaveLength(2);
    expect(await verifyAdminLogin("Ben", "a-good-password")).toEqual(ben);
  });

  it("log in with their username in any case: a phone that capitalises 'margaret' costs no try", async () => {
    const margaret = await addAdmin("margaret");
    expect(await verifyAdminLogin("Margaret", "a-good-password")).toEqual(margaret);
    expect(await verifyAdminLogin("MARGARET", "a-good-password")).toEqual(margaret);
    expect(await verifyAdminLogin("Margaret", "a-wrong-password")).toBeNull();
    const ben = await addAdmin("Ben");
    expect(await verifyAdminLogin("ben", "a-good-password")).toEqual(ben);
  });

  it("the admin command and ADMIN_USERNAME change the password of the admin whose username differs only in case", async () => {
    const margaret = await addAdmin("margaret");
    expect(await upsertAdmin("Margaret", "a-newer-password")).toEqual({ created: false });
    expect(listAdmins().map((admin) => admin.username)).toEqual(["margaret"]);
    expect(await verifyAdminLogin("margaret", "a-newer-password")).toEqual(margaret);
  });

  it("an invitation cannot make a second admin whose username differs only in case", async () => {
    await addAdmin("margaret");
    const { token } = createInvitation(operator("margaret"));
    await expect(acceptInvitation(token, { username: "Margaret", password: "nieces-password" })).rejects.toMatchObject({
      status: 409,
      field: "username",
      message: USERNAME_TAKEN,
    });
    expect(listAdmins().map((admin) => admin.username)).toEqual(["margaret"]);
  });

  it("the last admin cannot be removed; an unknown one is not found", async () => {
    const anna = await addAdmin("anna");
    expect(() => removeAdmin(anna.id, operator())).toThrow(expect.objectContaining({ status: 409, field: "admin", message: LAST_ADMIN }));
    expect(removeAdmin(anna.id + 1000, operator())).toBeUndefined();
    expect(listAdmins().map((admin) => admin.username)).toEqual(["anna"]);
  });

  it("two admins removing each other leave one", async () => {
    const [anna, ben] = [await addAdmin("anna"), await addAdmin("ben")];
    const results = await Promise.allSettled([
      Promise.resolve().then(() => removeAdmin(anna.id, operator())),
      Promise.resolve().then(() => removeAdmin(ben.id, operator())),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(listAdmins()).toHaveLength(1);
  });

  it("a removed admin's sessions end at once, and their unused invitations stop working; others keep theirs", async () => {
    const [anna, ben] = [await addAdmin("anna"), await addAdmin("ben")];
    const [annaPhone, annaLaptop, benPhone] = [await logIn(anna), await logIn(anna), await logIn(ben)];
    const { token: annasLink } = createInvitation(operator("anna"));
    const { token: bensLink } = createInvitation(operator("ben"));
    expect(await whoIs(annaPhone)).toEqual(anna);

    expect(removeAdmin(anna.id, operator())).toEqual(anna);
    expect(await whoIs(annaPhone)).toBeNull();
    expect(await whoIs(annaLaptop)).toBeNull();
    expect(await whoIs(benPhone)).toEqual(ben);
    expect(db.select().from(sessions).all()).toHaveLength(1);
    expect(lookUpInvitation(annasLink, "10.0.0.1").state).toBe("unknown");
    expect(lookUpInvitation(bensLink, "10.0.0.1").state).toBe("open");
    // Removing yourself is allowed while someone else remains (the form asks first).
    await addAdmin("carol");
    expect(removeAdmin(ben.id, operator())).toEqual(ben);
    expect(await whoIs(benPhone)).toBeNull();
  });

  describe("changing your own password", () => {
    it("needs the current password, and ends the admin's other sessions but not this one", async () => {
      const [anna, ben] = [await addAdmin("anna", "old-password"), await addAdmin("ben")];
      const [here, elsewhere, bens] = [await logIn(anna), await logIn(anna), await logIn(ben)];
      const annaHere = await actorOf(here);
      expect(annaHere.sessionId).toBe(await sidOf(here));

      await expect(changeAdminPassword(annaHere, { currentPassword: "not-it", newPassword: "new-password" })).rejects.toMatchObject({
        status: 400,
        field: "currentPassword",
        message: WRONG_CURRENT_PASSWORD,
      });
      expect(await whoIs(elsewhere)).toEqual(anna);

      await changeAdminPassword(annaHere, { currentPassword: "old-password", newPassword: "new-password" });
      expect(await whoIs(here)).toEqual(anna);
      expect(await whoIs(elsewhere)).toBeNull();
      expect(await whoIs(bens)).toEqual(ben);
      expect(await verifyAdminLogin("anna", "old-password")).toBeNull();
      expect(await verifyAdminLogin("anna", "new-password")).toEqual(anna);
    });

    it("wrong current passwords are counted like failed logins", async () => {
      const anna = await addAdmin("anna", "old-password");
      const annas = await actorOf(await logIn(anna));
      for (let i = 0; i < 5; i++) {
        await expect(
          changeAdminPassword(annas, { currentPassword: `guess-${i}`, newPassword: "new-password" }, { clientIp: "10.9.0.1" }),
        ).rejects.toMatchObject({ status: 400 });
      }
      await expect(
        changeAdminPassword(annas, { currentPassword: "old-password", newPassword: "new-password" }, { clientIp: "10.9.0.1" }),
      ).rejects.toMatchObject({
        status: 429,
        retryAfterSeconds: expect.any(Number),
      });
      expect(await verifyAdminLogin("anna", "old-password")).toEqual(anna);
    });

    it("a password set from the admin command ends the admin's sessions", async () => {
      const anna = await addAdmin("anna");
      const cookie = await logIn(anna);
      expect(await upsertAdmin("anna", "set-from-the-shell")).toEqual({ created: false });
      expect(await whoIs(cookie)).toBeNull();
    });
  });
});

describe("invitations", () => {
  const T0 = Date.UTC(2026, 0, 10, 12);

  it("store only a hash of the link's token, and work once within 7 days", async () => {
    await addAdmin("anna");
    const { token, expiresAt } = createInvitation(operator("anna"), T0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime()).toBe(T0 + 7 * 24 * 3600 * 1000);
    const [row] = db.select().from(adminInvitations).all();
    expect(row).toMatchObject({ createdBy: "anna", usedAt: null });
    expect(JSON.stringify(row)).not.toContain(token);

    expect(lookUpInvitation(token, "10.0.0.1", T0 + INVITATION_LIFETIME_MS - 1)).toMatchObject({ state: "open", createdBy: "anna" });
    expect(lookUpInvitation(token, "10.0.0.1", T0 + INVITATION_LIFETIME_MS)).toMatchObject({
      state: "expired",
      message: INVITATION_EXPIRED,
    });

    const ben = await acceptInvitation(token, { username: "ben", password: "bens-password" }, T0 + 1000);
    expect(ben.username).toBe("ben");
    expect(await verifyAdminLogin("ben", "bens-password")).toEqual(ben);
    expect(db.select().from(adminInvitations).get()).toMatchObject({ usedBy: "ben", usedAt: new Date(T0 + 1000) });
    expect(lookUpInvitation(token, "10.0.0.1", T0 + 2000)).toMatchObject({ state: "used", message: INVITATION_USED });
    await expect(acceptInvitation(token, { username: "carol", password: "carols-password" }, T0 + 2000)).rejects.toMatchObject({
      status: 410,
      message: INVITATION_USED,
    });
    expect(listAdmins().map((admin) => admin.username)).toEqual(["anna", "ben"]);
  });

  it("an expired link makes no admin", async () => {
    const { token } = createInvitation(operator("anna"), T0);
    await expect(
      acceptInvitation(token, { username: "late", password: "late-password" }, T0 + INVITATION_LIFETIME_MS + 1),
    ).rejects.toMatchObject({
      status: 410,
      message: INVITATION_EXPIRED,
    });
    expect(listAdmins()).toEqual([]);
  });

  it("a taken username leaves the link unused", async () => {
    await addAdmin("anna");
    const { token } = createInvitation(operator("anna"));
    await expect(acceptInvitation(token, { username: "ANNA", password: "a-password" })).rejects.toMatchObject({
      status: 409,
      field: "username",
    });
    expect(lookUpInvitation(token, "10.0.0.1").state).toBe("open");
  });

  it("one link sent twice at once makes one admin", async () => {
    const { token } = createInvitation(operator("anna"));
    const results = await Promise.allSettled([
      acceptInvitation(token, { username: "ben", password: "bens-password" }),
      acceptInvitation(token, { username: "carol", password: "carols-password" }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { status: 410 } });
    expect(listAdmins()).toHaveLength(1);
  });

  it("links that lead nowhere are counted per network, and past the limit none is looked up", () => {
    const { token } = createInvitation(operator("anna"));
    for (let i = 0; i < MAX_UNKNOWN_INVITATIONS; i++) expect(lookUpInvitation(`not-a-token-${i}`, "10.7.0.1").state).toBe("unknown");
    expect(lookUpInvitation(token, "10.7.0.1")).toMatchObject({ state: "throttled", retryAfterSeconds: expect.any(Number) });
    // Another network is not affected, and a good link counts nothing.
    expect(lookUpInvitation(token, "10.8.0.1").state).toBe("open");
  });
});

describe("the first run", () => {
  const setUp = (setupCode: string, username = "anna", clientIp = "10.1.0.1") =>
    setUpFirstAdmin({ setupCode, username, password: "first-password" }, clientIp);

  it("is open while there is no admin, with a setup code told once, that works once", async () => {
    codes.length = 0;
    expect(isSetupOpen()).toBe(true);
    expect(isSetupOpen()).toBe(true);
    expect(codes).toHaveLength(1);
    const [code] = codes as [string];
    expect(code).toMatch(/^[A-HJ-KM-NP-Z2-9]{4}-[A-HJ-KM-NP-Z2-9]{4}-[A-HJ-KM-NP-Z2-9]{4}$/);

    await expect(setUp("AAAA-BBBB-CCCC")).rejects.toMatchObject({ status: 403, field: "setupCode", message: WRONG_SETUP_CODE });
    expect(listAdmins()).toEqual([]);
    // Typed in small letters, without the dashes: the same code.
    const anna = await setUp(code.toLowerCase().replaceAll("-", " "));
    expect(await verifyAdminLogin("anna", "first-password")).toEqual(anna);
    expect(isSetupOpen()).toBe(false);
    await expect(setUp(code, "mallory")).rejects.toMatchObject({ status: 409, message: ALREADY_SET_UP });
    expect(listAdmins().map((admin) => admin.username)).toEqual(["anna"]);
  });

  it("two setups sent at once with the right code make exactly one admin", async () => {
    codes.length = 0;
    expect(isSetupOpen()).toBe(true);
    const code = codes[0]!;
    const results = await Promise.allSettled([
      setUp(code, "anna", "10.2.0.1"),
      setUp(code, "ben", "10.2.0.2"),
      setUp(code, "carol", "10.2.0.3"),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results.filter((r) => r.status === "rejected")) expect(result).toMatchObject({ reason: { status: 409 } });
    expect(listAdmins()).toHaveLength(1);
  });

  it("wrong codes are throttled per network like logins, and a right one gives the network its tries back", async () => {
    codes.length = 0;
    isSetupOpen();
    const code = codes[0]!;
    for (let i = 0; i < MAX_SETUP_GUESSES; i++) await expect(setUp(`WRONG-${i}`, "x", "10.3.0.1")).rejects.toMatchObject({ status: 403 });
    await expect(setUp(code, "anna", "10.3.0.1")).rejects.toMatchObject({
      status: 429,
      message: TOO_MANY_SETUP_CODES,
      retryAfterSeconds: expect.any(Number),
    });
    expect(listAdmins()).toEqual([]);
    // From another network the code still works.
    await setUp(code, "anna", "10.3.0.2");
    expect(listAdmins()).toHaveLength(1);
  });

  it("a new code is told when it is needed again (every admin gone), and the old one is void", async () => {
    codes.length = 0;
    isSetupOpen();
    const first = codes[0]!;
    await setUp(first);
    db.delete(adminUsers).run();
    expect(isSetupOpen()).toBe(true);
    expect(codes).toHaveLength(2);
    expect(codes[1]).not.toBe(first);
    await expect(setUp(first, "mallory")).rejects.toMatchObject({ status: 403 });
    await setUp(codes[1]!, "anna");
  });

  it("is not offered while the admin of ADMIN_USERNAME is being created at start, nor after", async () => {
    codes.length = 0;
    let finish!: () => void;
    const creating = new Promise<void>((resolve) => (finish = resolve)).then(() => upsertAdmin("family", "configured-password"));
    const opened = openSetupAfter(creating);
    expect(isSetupOpen()).toBe(false);
    finish();
    await opened;
    expect(isSetupOpen()).toBe(false);
    expect(codes).toEqual([]);
  });
});

describe("who moderated what", () => {
  const AT = Date.UTC(2026, 1, 3, 9, 30);

  it("approving or rejecting a memory keeps the admin's username and the time", () => {
    const id = db
      .insert(memories)
      .values({ name: "Ellen", email: "e@example.com", message: "I remember the lake." })
      .returning({ id: memories.id })
      .all()[0]!.id;
    expect(getMemory(id)).toMatchObject({ moderatedBy: null, moderatedAt: null });
    expect(setMemoryStatus(id, "APPROVED", operator("anna"), AT)).toBe(true);
    expect(getMemory(id)).toMatchObject({ status: "APPROVED", moderatedBy: "anna", moderatedAt: new Date(AT).toISOString() });
    expect(setMemoryStatus(id, "REJECTED", operator("ben"), AT + 60_000)).toBe(true);
    expect(getMemory(id)).toMatchObject({ status: "REJECTED", moderatedBy: "ben", moderatedAt: new Date(AT + 60_000).toISOString() });
  });

  it("publishing or deleting an upload keeps the admin's username and the time", async () => {
    const insert = () =>
      db
        .insert(uploads)
        // Processed (only a ready upload can be published).
        .values({ type: "IMAGE", url: "/media/x/photo.jpg", originalName: "photo.jpg", processedAt: new Date(AT) })
        .returning({ id: uploads.id })
        .all()[0]!.id;
    const [kept, deleted] = [insert(), insert()];
    await setUploadStatus(kept, "APPROVED", operator("anna"), AT);
    expect(getAdminUpload(kept)).toMatchObject({ status: "APPROVED", moderatedBy: "anna", moderatedAt: new Date(AT).toISOString() });
    await setUploadStatus(deleted, "REJECTED", operator("ben"), AT);
    expect(db.select().from(uploads).where(eq(uploads.id, deleted)).get()).toMatchObject({
      status: "REJECTED",
      moderatedBy: "ben",
      moderatedAt: new Date(AT),
    });
  });
});
