// Who is family and who is a helper, and how that is chosen and changed:
// the admins API (POST and GET /api/admin/admins, PATCH and DELETE
// /api/admin/admins/{id}), the Family admins section's forms (add, invite,
// set-role), invitations (the role is the invitation's, whatever the form
// says), and the admin command and ADMIN_USERNAME, which make family.
// Called as Remix calls them, on a real SQLite database.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { adminInvitations, adminUsers, sessions, type Role } from "../../db/schema";
import { NO_SUCH_ADMIN } from "~/admins/admin.schema";
import { ensureConfiguredAdmin, upsertAdmin } from "~/admins/admin.server";
import { resetLoginThrottle } from "~/admins/authenticator.server";
import { createInvitation, resetInvitationLimits } from "~/admins/invitation.server";
import { hashPassword } from "~/admins/password.server";
import { FAMILY_ONLY, LAST_FAMILY_ADMIN } from "~/admins/roles";
import { getAdmin, startAdminSession } from "~/admins/session.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import * as familyAdmins from "~/routes/admin.admins";
import * as poemsTab from "~/routes/admin.poems";
import * as invitationPage from "~/routes/admin_.invite.$token";
import * as apiAdmin from "~/routes/api.admin.admins.$id";
import * as apiAdmins from "~/routes/api.admin.admins";
import { answer, cookieOf, toastOf } from "../support/route-calls";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.80.0.1" };
const ROLE_MESSAGE = "Role must be family or helper";
const CREATED_AT = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);

let passwordHash: string | undefined;

beforeEach(() => {
  db.delete(sessions).run();
  db.delete(adminInvitations).run();
  db.delete(adminUsers).run();
  resetLoginThrottle();
  resetInvitationLimits();
});

interface LoggedIn {
  id: number;
  username: string;
  cookie: string;
}

/** An admin with this role (password "the-right-password"), logged in. */
async function addAdmin(username: string, role: Role): Promise<LoggedIn> {
  passwordHash ??= await hashPassword("the-right-password");
  const { id } = db.insert(adminUsers).values({ username, password: passwordHash, role }).returning({ id: adminUsers.id }).get();
  const cookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id, username })).split(";")[0]!;
  return { id, username, cookie };
}
const roleOf = (username: string) =>
  db.select({ role: adminUsers.role }).from(adminUsers).where(eq(adminUsers.username, username)).get()?.role;

/** A JSON request to the admins API. */
function apiRequest(path: string, method: string, cookie: string, body?: unknown) {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: { Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const listThroughApi = (cookie: string) =>
  answer(() => apiAdmins.loader({ request: apiRequest("/api/admin/admins", "GET", cookie), params: {}, context } as never));
const addThroughApi = (cookie: string, body: unknown) =>
  answer(() => apiAdmins.action({ request: apiRequest("/api/admin/admins", "POST", cookie, body), params: {}, context } as never));
const changeThroughApi = (cookie: string, id: number | string, method: "PATCH" | "DELETE", body?: unknown) =>
  answer(() =>
    apiAdmin.action({ request: apiRequest(`/api/admin/admins/${id}`, method, cookie, body), params: { id: String(id) }, context } as never),
  );

/** A form of the Family admins section, as the browser posts it. */
function post(path: string, fields: Record<string, string>, cookie?: string) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}
const send = (cookie: string, fields: Record<string, string>) =>
  answer(() => familyAdmins.action({ request: post("/admin/admins", fields, cookie), params: {}, context } as never));
async function sectionOf(cookie: string) {
  const response = await answer(() =>
    familyAdmins.loader({ request: new Request(`${ORIGIN}/admin/admins`, { headers: { Cookie: cookie } }), params: {}, context } as never),
  );
  return (
    (await response.json()) as {
      familyAdmins: { admins: { username: string; role: Role }[]; invitation: { link: string; role: Role } | null };
    }
  ).familyAdmins;
}

describe("the admins API and roles", () => {
  it("POST adds a helper when asked, family when not, and refuses a role that is neither", async () => {
    const anna = await addAdmin("anna", "family");
    const helper = await addThroughApi(anna.cookie, { username: "helen", password: "helens-password", role: "helper" });
    expect([helper.status, await helper.json()]).toEqual([
      201,
      { id: expect.any(Number), username: "helen", role: "helper", createdAt: CREATED_AT },
    ]);
    const family = await addThroughApi(anna.cookie, { username: "fred", password: "freds-password" });
    expect([family.status, await family.json()]).toEqual([
      201,
      { id: expect.any(Number), username: "fred", role: "family", createdAt: CREATED_AT },
    ]);
    for (const role of ["admin", "Family", "", 1, null]) {
      const refused = await addThroughApi(anna.cookie, { username: "mallory", password: "mallorys-password", role });
      expect([refused.status, await refused.json()], String(role)).toEqual([400, { errors: { role: [ROLE_MESSAGE] } }]);
    }
    expect(roleOf("mallory")).toBeUndefined();

    const listed = await listThroughApi(anna.cookie);
    expect([listed.status, await listed.json()]).toEqual([
      200,
      [
        { id: anna.id, username: "anna", role: "family", createdAt: CREATED_AT },
        { id: expect.any(Number), username: "helen", role: "helper", createdAt: CREATED_AT },
        { id: expect.any(Number), username: "fred", role: "family", createdAt: CREATED_AT },
      ],
    ]);
  });

  it("PATCH /api/admin/admins/{id} changes a role: 200, 404 for nobody, 400 for a role that is neither", async () => {
    const anna = await addAdmin("anna", "family");
    const ben = await addAdmin("ben", "family");
    const helper = await changeThroughApi(anna.cookie, ben.id, "PATCH", { role: "helper" });
    expect([helper.status, await helper.json()]).toEqual([200, { id: ben.id, username: "ben", role: "helper", createdAt: CREATED_AT }]);
    expect(roleOf("ben")).toBe("helper");
    // Asking for the role she has is no change, and no refusal.
    expect((await changeThroughApi(anna.cookie, ben.id, "PATCH", { role: "helper" })).status).toBe(200);
    const family = await changeThroughApi(anna.cookie, ben.id, "PATCH", { role: "family" });
    expect([family.status, await family.json()]).toEqual([200, { id: ben.id, username: "ben", role: "family", createdAt: CREATED_AT }]);

    for (const id of [999_999, "nobody"]) {
      const unknown = await changeThroughApi(anna.cookie, id, "PATCH", { role: "helper" });
      expect([unknown.status, await unknown.json()], String(id)).toEqual([404, { errors: { id: [NO_SUCH_ADMIN] } }]);
    }
    for (const body of [{ role: "admin" }, {}, { role: null }]) {
      const refused = await changeThroughApi(anna.cookie, ben.id, "PATCH", body);
      expect([refused.status, await refused.json()], JSON.stringify(body)).toEqual([400, { errors: { role: [ROLE_MESSAGE] } }]);
    }
    expect(roleOf("ben")).toBe("family");
  });

  it("keeps one family admin: the last cannot be made a helper (409) nor removed (409)", async () => {
    const anna = await addAdmin("anna", "family");
    const helen = await addAdmin("helen", "helper");
    const demoted = await changeThroughApi(anna.cookie, anna.id, "PATCH", { role: "helper" });
    expect([demoted.status, await demoted.json()]).toEqual([409, { errors: { role: [LAST_FAMILY_ADMIN] } }]);
    const removed = await changeThroughApi(anna.cookie, anna.id, "DELETE");
    expect([removed.status, await removed.json()]).toEqual([409, { errors: { admin: [LAST_FAMILY_ADMIN] } }]);
    expect(roleOf("anna")).toBe("family");
    expect(await getAdmin(new Request(ORIGIN, { headers: { Cookie: anna.cookie } }))).toMatchObject({ username: "anna" });

    // A helper can be removed; with a second family admin, so can the first.
    expect((await changeThroughApi(anna.cookie, helen.id, "DELETE")).status).toBe(204);
    const ben = await addAdmin("ben", "family");
    expect((await changeThroughApi(ben.cookie, anna.id, "PATCH", { role: "helper" })).status).toBe(200);
    expect((await changeThroughApi(ben.cookie, anna.id, "DELETE")).status).toBe(204);
    expect(db.select({ username: adminUsers.username, role: adminUsers.role }).from(adminUsers).all()).toEqual([
      { username: "ben", role: "family" },
    ]);
  });

  it("answers a helper 403 at every one of these, and changes nothing", async () => {
    const anna = await addAdmin("anna", "family");
    const helen = await addAdmin("helen", "helper");
    const forbidden = { errors: { role: [FAMILY_ONLY] } };
    const answers = [
      await listThroughApi(helen.cookie),
      await addThroughApi(helen.cookie, { username: "backdoor", password: "backdoor-password", role: "family" }),
      await changeThroughApi(helen.cookie, helen.id, "PATCH", { role: "family" }),
      await changeThroughApi(helen.cookie, anna.id, "PATCH", { role: "helper" }),
      await changeThroughApi(helen.cookie, anna.id, "DELETE"),
      await changeThroughApi(helen.cookie, helen.id, "DELETE"),
    ];
    for (const response of answers) expect([response.status, await response.json()]).toEqual([403, forbidden]);
    expect(db.select({ username: adminUsers.username, role: adminUsers.role }).from(adminUsers).all()).toEqual([
      { username: "anna", role: "family" },
      { username: "helen", role: "helper" },
    ]);
  });
});

describe("the Family admins forms and roles", () => {
  it("add a helper, or family when no role is chosen; a role that is neither is named beside its field", async () => {
    const anna = await addAdmin("anna", "family");
    const helper = await send(anna.cookie, { intent: "add", username: "helen", password: "helens-password", role: "helper" });
    expect([helper.status, helper.headers.get("Location")]).toEqual([302, "/admin/site#family-admins"]);
    expect(toastOf(helper)).toMatchObject({ title: "Admin Added", description: "helen can now log in to the admin panel as a helper." });
    expect(roleOf("helen")).toBe("helper");
    expect((await send(anna.cookie, { intent: "add", username: "fred", password: "freds-password" })).status).toBe(302);
    expect(roleOf("fred")).toBe("family");

    const refused = await send(anna.cookie, { intent: "add", username: "mallory", password: "mallorys-password", role: "owner" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { result: { error: Record<string, string[]> } }).result.error.role).toEqual([ROLE_MESSAGE]);
    expect(roleOf("mallory")).toBeUndefined();
    expect((await sectionOf(anna.cookie)).admins.map(({ username, role }) => [username, role])).toEqual([
      ["anna", "family"],
      ["helen", "helper"],
      ["fred", "family"],
    ]);
  });

  it("set a role with Make Helper and Make Family, keep the last family admin, and send yourself to the panel once a helper", async () => {
    const anna = await addAdmin("anna", "family");
    const ben = await addAdmin("ben", "family");
    const made = await send(anna.cookie, {
      intent: "set-role",
      id: String(ben.id),
      role: "helper",
      returnTo: "/admin/admins#family-admins",
    });
    expect([made.status, made.headers.get("Location")]).toEqual([302, "/admin/admins#family-admins"]);
    expect(toastOf(made)).toMatchObject({
      title: "Role Changed",
      description: "ben is now a helper: they can moderate, and nothing more.",
    });
    expect(roleOf("ben")).toBe("helper");

    // Anna is now the last family admin.
    const last = await send(anna.cookie, { intent: "set-role", id: String(anna.id), role: "helper" });
    expect(last.status).toBe(302);
    expect(toastOf(last)).toMatchObject({ title: "Role Not Changed", description: LAST_FAMILY_ADMIN, type: "destructive" });
    expect(roleOf("anna")).toBe("family");

    const back = await send(anna.cookie, { intent: "set-role", id: String(ben.id), role: "family" });
    expect(toastOf(back)).toMatchObject({ description: "ben is now family: they can do everything." });
    // With Ben family again, Anna may make herself a helper: the family's pages are closed to her, so she goes to the panel.
    const herself = await send(anna.cookie, { intent: "set-role", id: String(anna.id), role: "helper" });
    expect([herself.status, herself.headers.get("Location")]).toEqual([302, "/admin"]);
    expect(roleOf("anna")).toBe("helper");
    expect((await send(anna.cookie, { intent: "set-role", id: String(anna.id), role: "family" })).status).toBe(403);

    const unknown = await send(ben.cookie, { intent: "set-role", id: "999999", role: "helper" });
    expect(toastOf(unknown)).toMatchObject({ title: "Role Not Changed", description: expect.stringContaining(NO_SUCH_ADMIN) });
    expect((await send(ben.cookie, { intent: "set-role", id: String(anna.id), role: "owner" })).status).toBe(400);
    expect(roleOf("anna")).toBe("helper");
  });

  it("invite a helper: the link says so, and accepting it makes a helper whatever the form sends", async () => {
    const anna = await addAdmin("anna", "family");
    expect((await send(anna.cookie, { intent: "invite", role: "owner" })).status).toBe(400);
    const made = await send(anna.cookie, { intent: "invite", role: "helper" });
    expect([made.status, toastOf(made)?.title]).toEqual([302, "Invitation Created"]);
    const { invitation } = await sectionOf(anna.cookie);
    expect(invitation).toMatchObject({ role: "helper", link: expect.stringMatching(/\/admin\/invite\/[A-Za-z0-9_-]{43}$/) });
    const token = invitation!.link.split("/").pop()!;

    const page = await answer(() => invitationPage.loader({ request: new Request(invitation!.link), params: { token }, context } as never));
    expect([page.status, await page.json()]).toEqual([200, expect.objectContaining({ open: true, role: "helper", invitedBy: "anna" })]);

    const accepted = await answer(() =>
      invitationPage.action({
        request: post(`/admin/invite/${token}`, {
          username: "helen",
          password: "helens-password",
          confirmPassword: "helens-password",
          role: "family",
        }),
        params: { token },
        context,
      } as never),
    );
    expect([accepted.status, accepted.headers.get("Location")]).toEqual([302, "/admin"]);
    expect(toastOf(accepted)?.description).toMatch(/You are now a helper on this memorial/);
    expect(roleOf("helen")).toBe("helper");
    expect(await getAdmin(new Request(ORIGIN, { headers: { Cookie: cookieOf(accepted) } }))).toMatchObject({
      username: "helen",
      role: "helper",
    });
  });

  it("invite family when no role is chosen, as before helpers", async () => {
    const anna = await addAdmin("anna", "family");
    await send(anna.cookie, { intent: "invite" });
    const { invitation } = await sectionOf(anna.cookie);
    expect(invitation?.role).toBe("family");
    const token = createInvitation(operator("anna")).token;
    const accepted = await answer(() =>
      invitationPage.action({
        request: post(`/admin/invite/${token}`, {
          username: "fred",
          password: "freds-password",
          confirmPassword: "freds-password",
          role: "helper",
        }),
        params: { token },
        context,
      } as never),
    );
    expect(accepted.status).toBe(302);
    expect(toastOf(accepted)?.description).toBe("You are now an admin of this memorial.");
    expect(roleOf("fred")).toBe("family");
  });
});

describe("the admin command and ADMIN_USERNAME", () => {
  it("make family admins, and a new password leaves a helper a helper", async () => {
    expect(await upsertAdmin("keeper", "keepers-password")).toEqual({ created: true });
    expect(roleOf("keeper")).toBe("family");
    await ensureConfiguredAdmin("configured", "configured-password");
    expect(roleOf("configured")).toBe("family");

    await addAdmin("helen", "helper");
    expect(await upsertAdmin("helen", "a-forgotten-password")).toEqual({ created: false });
    expect(roleOf("helen")).toBe("helper");
    await ensureConfiguredAdmin("helen", "another-password");
    expect(roleOf("helen")).toBe("helper");
  });
});

describe("the Poems tab", () => {
  it("offers Delete to the family only: a helper adds poems, and deleting one is not hers", async () => {
    for (const [username, role] of [
      ["anna", "family"],
      ["helen", "helper"],
    ] as const) {
      const { cookie } = await addAdmin(username, role);
      const request = new Request(`${ORIGIN}/admin/poems`, { headers: { Cookie: cookie } });
      const tab = await answer(() => poemsTab.loader({ request, params: {}, context } as never));
      expect(await tab.json(), role).toMatchObject({ canDelete: role === "family" });
    }
  });
});
