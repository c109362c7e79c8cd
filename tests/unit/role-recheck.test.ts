// A role changed while an admin's request is on its way: each request here
// passes its door, then its body stops halfway until the test lets the rest
// through (tests/support/held-request.ts); meanwhile the family removes the
// helper, makes a family admin a helper, or makes a helper family. When the
// body completes, nothing is written: the removed helper is sent to log in
// (401 from the API), and an admin whose role changed is answered 403, the
// API's {"errors":{"role":[…]}} or the polite page's {forbidden}, whichever
// way it changed. Real SQLite and storage on temporary folders.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminUsers, poems, type Role } from "../../db/schema";
import { hashPassword } from "~/admins/password.server";
import { ROLE_CHANGED } from "~/admins/roles";
import { requireFamilyApi, startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { deletePoem } from "~/poems/poem.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import * as pendingMemoriesTab from "~/routes/admin._index";
import * as familyAdmins from "~/routes/admin.admins";
import * as deletePoemPage from "~/routes/admin.poems.$id.delete";
import * as siteTab from "~/routes/admin.site";
import * as pendingUploadsTab from "~/routes/admin.uploads";
import * as apiAdmin from "~/routes/api.admin.admins.$id";
import * as apiAdmins from "~/routes/api.admin.admins";
import * as apiMemory from "~/routes/api.admin.memories.$id";
import * as apiPoem from "~/routes/api.admin.poems.$id";
import * as apiSettings from "~/routes/api.admin.settings";
import * as apiUpload from "~/routes/api.admin.uploads.$id";
import {
  adminNames,
  expectSentToLogin,
  memoryRow,
  pendingMemory,
  pendingPhoto,
  setting,
  storedFiles,
  uploadRow,
} from "../support/moderation-fixtures";
import { answer } from "../support/route-calls";
import { formBody, heldRequest, jsonBody, type HeldBody } from "../support/held-request";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.70.0.1" };
const LOG_IN_FIRST = { errors: { session: ["Log in as the administrator first"] } };

type Action = (args: never) => unknown;
interface LoggedIn {
  id: number;
  username: string;
  cookie: string;
}

let passwordHash: string;
let keeper: LoggedIn;
let counter = 0;

async function logIn(username: string, id: number): Promise<LoggedIn> {
  const cookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id, username })).split(";")[0]!;
  return { id, username, cookie };
}

/** An admin with this role, logged in. */
async function newAdmin(role: Role, name = `${role}${++counter}`): Promise<LoggedIn> {
  const { id } = db.insert(adminUsers).values({ username: name, password: passwordHash, role }).returning({ id: adminUsers.id }).get();
  return logIn(name, id);
}

beforeAll(async () => {
  passwordHash = await hashPassword("the-right-password");
  keeper = await newAdmin("family", "keeper");
});
beforeEach(() => {
  db.delete(adminUsers).where(eq(adminUsers.role, "helper")).run();
});
afterAll(() => processingIdle());

/** What the family does meanwhile, through the API as the Family admins section would: remove her, or give her another role. */
async function removeThroughApi(admin: LoggedIn) {
  const request = new Request(`${ORIGIN}/api/admin/admins/${admin.id}`, { method: "DELETE", headers: { Cookie: keeper.cookie } });
  expect((await answer(() => apiAdmin.action({ request, params: { id: String(admin.id) }, context } as never))).status).toBe(204);
}
async function setRoleThroughApi(admin: LoggedIn, role: Role) {
  const request = new Request(`${ORIGIN}/api/admin/admins/${admin.id}`, {
    method: "PATCH",
    headers: { Cookie: keeper.cookie, "Content-Type": "application/json" },
    body: JSON.stringify({ role }),
  });
  const changed = await answer(() => apiAdmin.action({ request, params: { id: String(admin.id) }, context } as never));
  expect([changed.status, await changed.json()]).toEqual([200, expect.objectContaining({ id: admin.id, role })]);
}

/** Calls `action` with a held body, does `meanwhile` once the route is reading it, then lets the rest through. */
async function actMidBody(
  action: Action,
  admin: LoggedIn,
  urlPath: string,
  init: HeldBody,
  meanwhile: () => Promise<void>,
  params: Record<string, string> = {},
) {
  const held = heldRequest(urlPath, init, admin.cookie);
  const pending = answer(() => action({ request: held.request, params, context } as never));
  await Promise.race([held.halfRead, pending]);
  await meanwhile();
  held.release();
  return pending;
}

async function expectApiRoleChanged(response: Response) {
  expect([response.status, await response.json()]).toEqual([403, { errors: { role: [ROLE_CHANGED] } }]);
}
async function expectPageRoleChanged(response: Response) {
  expect([response.status, await response.json()]).toEqual([403, { forbidden: ROLE_CHANGED }]);
}
const roleOf = (admin: LoggedIn) => db.select({ role: adminUsers.role }).from(adminUsers).where(eq(adminUsers.id, admin.id)).get()?.role;

describe("a helper removed while her request is on its way", () => {
  it("PATCH /api/admin/memories/{id} approving: 401, and the memory stays pending", async () => {
    const helen = await newAdmin("helper");
    const id = pendingMemory();
    const response = await actMidBody(
      apiMemory.action,
      helen,
      `/api/admin/memories/${id}`,
      { method: "PATCH", ...jsonBody({ status: "APPROVED" }) },
      () => removeThroughApi(helen),
      { id: String(id) },
    );
    expect([response.status, await response.json()]).toEqual([401, LOG_IN_FIRST]);
    expect(memoryRow(id)).toMatchObject({ status: "PENDING", moderatedBy: null });
  });

  it("the Pending Memories tab's Approve: to the login page, and the memory stays pending", async () => {
    const helen = await newAdmin("helper");
    const id = pendingMemory();
    const response = await actMidBody(
      pendingMemoriesTab.action,
      helen,
      "/admin?index",
      formBody({ intent: "approve", id: String(id) }),
      () => removeThroughApi(helen),
    );
    expectSentToLogin(response);
    expect(memoryRow(id)).toMatchObject({ status: "PENDING", moderatedBy: null });
  });

  it("the Pending Uploads tab's Reject: to the login page; the photo stays pending with its files", async () => {
    const helen = await newAdmin("helper");
    const id = await pendingPhoto();
    const files = storedFiles();
    const response = await actMidBody(
      pendingUploadsTab.action,
      helen,
      "/admin/uploads",
      formBody({ intent: "reject", id: String(id), confirmed: "yes" }),
      () => removeThroughApi(helen),
    );
    expectSentToLogin(response);
    expect(uploadRow(id)).toMatchObject({ status: "PENDING", moderatedBy: null });
    expect(storedFiles()).toEqual(files);
  });
});

describe("a family admin made a helper while her request is on its way", () => {
  it("PATCH /api/admin/settings: 403, and the site stays public", async () => {
    const fay = await newAdmin("family");
    const response = await actMidBody(
      apiSettings.action,
      fay,
      "/api/admin/settings",
      { method: "PATCH", ...jsonBody({ visibility: "private", visitorPasscode: "let-me-in" }) },
      () => setRoleThroughApi(fay, "helper"),
    );
    await expectApiRoleChanged(response);
    expect(setting("visibility")).toBeUndefined();
    expect(setting("visitorPasscode")).toBeUndefined();
  });

  it("POST /api/admin/admins: 403, and no admin is added", async () => {
    const fay = await newAdmin("family");
    const response = await actMidBody(
      apiAdmins.action,
      fay,
      "/api/admin/admins",
      jsonBody({ username: "backdoor", password: "backdoor-password", role: "family" }),
      () => setRoleThroughApi(fay, "helper"),
    );
    await expectApiRoleChanged(response);
    expect(adminNames()).not.toContain("backdoor");
  });

  it("the Family admins forms adding someone and making a helper family: the 403 page, and nothing changes", async () => {
    const fay = await newAdmin("family");
    await expectPageRoleChanged(
      await actMidBody(
        familyAdmins.action,
        fay,
        "/admin/admins",
        formBody({ intent: "add", username: "backdoor", password: "backdoor-password", role: "family" }),
        () => setRoleThroughApi(fay, "helper"),
      ),
    );
    const faye = await newAdmin("family");
    const other = await newAdmin("helper");
    await expectPageRoleChanged(
      await actMidBody(
        familyAdmins.action,
        faye,
        "/admin/admins",
        formBody({ intent: "set-role", id: String(other.id), role: "family" }),
        () => setRoleThroughApi(faye, "helper"),
      ),
    );
    expect(adminNames()).not.toContain("backdoor");
    expect(roleOf(other)).toBe("helper");
  });

  it("a Site tab section: the 403 page, and the settings stay as they were", async () => {
    const fay = await newAdmin("family");
    const response = await actMidBody(
      siteTab.action,
      fay,
      "/admin/site",
      formBody({ section: "contact", contactEmail: "mallory@example.com", privacyNote: "Changed." }),
      () => setRoleThroughApi(fay, "helper"),
    );
    await expectPageRoleChanged(response);
    expect(setting("contactEmail")).toBeUndefined();
  });

  it("deleting a poem: the form is answered with the 403 page, DELETE /api/admin/poems/{id} with 403, and the poem stays", async () => {
    const poem = db.insert(poems).values({ title: "Kept", content: "Still here." }).returning({ id: poems.id }).get().id;
    const fay = await newAdmin("family");
    await expectPageRoleChanged(
      await actMidBody(
        deletePoemPage.action,
        fay,
        `/admin/poems/${poem}/delete`,
        formBody({ intent: "delete" }),
        () => setRoleThroughApi(fay, "helper"),
        { id: String(poem) },
      ),
    );

    // A DELETE has no body to wait for: its door and its commit are a step apart. The
    // admin the door let in, whose role changes in that step, deletes nothing.
    const faye = await newAdmin("family");
    const request = () => new Request(`${ORIGIN}/api/admin/poems/${poem}`, { method: "DELETE", headers: { Cookie: faye.cookie } });
    const admitted = await requireFamilyApi(request());
    await setRoleThroughApi(faye, "helper");
    await expectApiRoleChanged(await answer(() => deletePoem(poem, admitted)));
    // And once she is a helper, the door itself answers 403.
    const refused = await answer(() => apiPoem.action({ request: request(), params: { id: String(poem) }, context } as never));
    expect(refused.status).toBe(403);
    expect(db.select({ title: poems.title }).from(poems).where(eq(poems.id, poem)).all()).toEqual([{ title: "Kept" }]);
  });
});

describe("a helper made family while her request is on its way", () => {
  // Her request began as a helper's: whatever it would now be allowed, it was sent under another role.
  it("PATCH /api/admin/memories/{id} and PATCH /api/admin/uploads/{id}: 403, and both stay pending", async () => {
    const helen = await newAdmin("helper");
    const id = pendingMemory();
    await expectApiRoleChanged(
      await actMidBody(
        apiMemory.action,
        helen,
        `/api/admin/memories/${id}`,
        { method: "PATCH", ...jsonBody({ status: "APPROVED" }) },
        () => setRoleThroughApi(helen, "family"),
        { id: String(id) },
      ),
    );
    expect(memoryRow(id)).toMatchObject({ status: "PENDING", moderatedBy: null });

    const hana = await newAdmin("helper");
    const photo = await pendingPhoto();
    const files = storedFiles();
    await expectApiRoleChanged(
      await actMidBody(
        apiUpload.action,
        hana,
        `/api/admin/uploads/${photo}`,
        { method: "PATCH", ...jsonBody({ status: "REJECTED" }) },
        () => setRoleThroughApi(hana, "family"),
        { id: String(photo) },
      ),
    );
    expect(uploadRow(photo)).toMatchObject({ status: "PENDING", moderatedBy: null });
    expect(storedFiles()).toEqual(files);
  });

  it("the Pending Memories tab's Approve: the 403 page saying nothing was changed, and the memory stays pending", async () => {
    const helen = await newAdmin("helper");
    const id = pendingMemory();
    await expectPageRoleChanged(
      await actMidBody(pendingMemoriesTab.action, helen, "/admin?index", formBody({ intent: "approve", id: String(id) }), () =>
        setRoleThroughApi(helen, "family"),
      ),
    );
    expect(memoryRow(id)).toMatchObject({ status: "PENDING", moderatedBy: null });
    // Her session stands: her next request, as family, goes through.
    const again = new Request(`${ORIGIN}/admin?index`, {
      method: "POST",
      headers: { Cookie: helen.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "approve", id: String(id) }),
    });
    expect((await answer(() => pendingMemoriesTab.action({ request: again, params: {}, context } as never))).status).toBe(302);
    expect(memoryRow(id)).toMatchObject({ status: "APPROVED", moderatedBy: helen.username });
  });
});
