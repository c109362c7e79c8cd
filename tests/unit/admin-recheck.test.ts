// Every admin action, called as Remix calls it, with a body that stops
// halfway until the test lets the rest through: the session ends meanwhile
// (the admin is removed, or her password is changed in another session),
// and when the body completes the action is refused (the API with 401, a
// form with the login page) and nothing has changed. And a body that takes
// longer than its deadline is answered 408, with nothing changed. Real
// SQLite and storage on temporary folders; fake timers only for the deadline.
import fs from "node:fs/promises";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { adminInvitations, adminUsers, memories, poems, siteSettings, uploads } from "../../db/schema";
import { startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { upsertAdmin, verifyAdminLogin } from "~/admins/admin.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import * as pendingMemoriesTab from "~/routes/admin._index";
import * as familyAdmins from "~/routes/admin.admins";
import * as memoryDetails from "~/routes/admin.memories.$id";
import * as poemsTab from "~/routes/admin.poems";
import * as deletePoem from "~/routes/admin.poems.$id.delete";
import * as publishedMemories from "~/routes/admin.published.memories";
import * as deleteMemory from "~/routes/admin.published.memories.$id.delete";
import * as editMemory from "~/routes/admin.published.memories.$id.edit";
import * as publishedUploads from "~/routes/admin.published.uploads";
import * as deleteUpload from "~/routes/admin.published.uploads.$id.delete";
import * as siteTab from "~/routes/admin.site";
import * as heroPhoto from "~/routes/admin.site_.hero";
import * as karenSong from "~/routes/admin.site_.song";
import * as uploadPreview from "~/routes/admin.uploads.$id";
import * as pendingUploadsTab from "~/routes/admin.uploads";
import * as emailTab from "~/routes/admin.email";
import * as apiAdmins from "~/routes/api.admin.admins";
import * as apiEmail from "~/routes/api.admin.email";
import * as apiAdmin from "~/routes/api.admin.admins.$id";
import * as apiMemory from "~/routes/api.admin.memories.$id";
import * as apiPassword from "~/routes/api.admin.password";
import * as apiPoems from "~/routes/api.admin.poems";
import * as apiSettings from "~/routes/api.admin.settings";
import * as apiUpload from "~/routes/api.admin.uploads.$id";
import * as apiRotate from "~/routes/api.admin.uploads.$id.rotate";
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
import { formBody, heldRequest, jsonBody, multipartBody, type HeldBody } from "../support/held-request";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.40.0.1" };
const LOG_IN_FIRST = { errors: { session: ["Log in as the administrator first"] } };
const BUNDLED_SONG = path.resolve(import.meta.dirname, "../../public/audio/karen-mode.mp3");

type Action = (args: never) => unknown;
interface LoggedIn {
  id: number;
  username: string;
  cookie: string;
}

let keeper: LoggedIn;
let counter = 0;

async function logIn(username: string, id: number): Promise<LoggedIn> {
  const cookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id, username })).split(";")[0]!;
  return { id, username, cookie };
}

/** A family admin (password `<username>-password`), logged in. */
async function newAdmin(name = `eve${++counter}`): Promise<LoggedIn> {
  await upsertAdmin(name, `${name}-password`);
  const { id } = db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, name)).get()!;
  return logIn(name, id);
}

beforeAll(async () => {
  keeper = await newAdmin("keeper");
});
afterAll(() => processingIdle());

/** Ends every session of `admin` the way the family does: DELETE /api/admin/admins/{id} by the keeper. */
async function removeThroughApi(admin: LoggedIn) {
  const request = new Request(`${ORIGIN}/api/admin/admins/${admin.id}`, { method: "DELETE", headers: { Cookie: keeper.cookie } });
  const removed = await answer(() => apiAdmin.action({ request, params: { id: String(admin.id) }, context } as never));
  expect(removed.status).toBe(204);
}

/** Calls `action` with a held body, ends the session while the body is on its way, then lets the rest through. */
async function actMidBody(
  action: Action,
  admin: LoggedIn,
  urlPath: string,
  init: HeldBody,
  params: Record<string, string> = {},
  endSession: () => Promise<void> = () => removeThroughApi(admin),
) {
  const held = heldRequest(urlPath, init, admin.cookie);
  const pending = answer(() => action({ request: held.request, params, context } as never));
  await Promise.race([held.halfRead, pending]);
  await endSession();
  held.release();
  return pending;
}

async function expectApiRefused(response: Response) {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual(LOG_IN_FIRST);
}

describe("an admin removed while her request's body is on its way is refused when it completes", () => {
  it("POST /api/admin/admins: 401, and no admin is added", async () => {
    const eve = await newAdmin();
    const response = await actMidBody(
      apiAdmins.action,
      eve,
      "/api/admin/admins",
      jsonBody({ username: "backdoor", password: "backdoor-password" }),
    );
    await expectApiRefused(response);
    expect(adminNames()).not.toContain("backdoor");
  });

  it("PATCH /api/admin/settings: 401, and the site stays public", async () => {
    const eve = await newAdmin();
    const response = await actMidBody(apiSettings.action, eve, "/api/admin/settings", {
      method: "PATCH",
      ...jsonBody({ visibility: "private", visitorPasscode: "let-me-in" }),
    });
    await expectApiRefused(response);
    expect(setting("visibility")).toBeUndefined();
    expect(setting("visitorPasscode")).toBeUndefined();
  });

  it("PATCH /api/admin/memories/{id}: 401, and the memory stays pending", async () => {
    const eve = await newAdmin();
    const id = pendingMemory();
    const response = await actMidBody(
      apiMemory.action,
      eve,
      `/api/admin/memories/${id}`,
      { method: "PATCH", ...jsonBody({ status: "APPROVED" }) },
      {
        id: String(id),
      },
    );
    await expectApiRefused(response);
    expect(memoryRow(id)).toMatchObject({ status: "PENDING", moderatedBy: null });
  });

  it("PATCH /api/admin/memories/{id} correcting a published memory: 401, and it reads as before", async () => {
    const eve = await newAdmin();
    const id = pendingMemory();
    db.update(memories).set({ status: "APPROVED" }).where(eq(memories.id, id)).run();
    const response = await actMidBody(
      apiMemory.action,
      eve,
      `/api/admin/memories/${id}`,
      { method: "PATCH", ...jsonBody({ status: "HIDDEN", name: "Mallory" }) },
      { id: String(id) },
    );
    await expectApiRefused(response);
    expect(memoryRow(id)).toMatchObject({ status: "APPROVED", name: "Cousin Ellen", originalName: null });
  });

  it("PATCH /api/admin/uploads/{id}: 401, and the upload stays pending with its files", async () => {
    const eve = await newAdmin();
    const id = await pendingPhoto();
    const files = storedFiles();
    const response = await actMidBody(
      apiUpload.action,
      eve,
      `/api/admin/uploads/${id}`,
      { method: "PATCH", ...jsonBody({ status: "REJECTED" }) },
      {
        id: String(id),
      },
    );
    await expectApiRefused(response);
    expect(uploadRow(id)).toMatchObject({ status: "PENDING", moderatedBy: null });
    expect(storedFiles()).toEqual(files);
  });

  it("POST /api/admin/uploads/{id}/rotate: 401, the photo is not turned, and the new copies made meanwhile are removed", async () => {
    const eve = await newAdmin();
    const id = await pendingPhoto();
    const before = uploadRow(id);
    const files = storedFiles();
    const response = await actMidBody(apiRotate.action, eve, `/api/admin/uploads/${id}/rotate`, jsonBody({ direction: "left" }), {
      id: String(id),
    });
    await expectApiRefused(response);
    expect(uploadRow(id)).toMatchObject({ rotation: 0, url: before.url, thumbnailUrl: before.thumbnailUrl });
    expect(storedFiles()).toEqual(files);
  });

  it("PATCH /api/admin/email and the E-mail tab's form: refused, and her e-mail choice stays as it was", async () => {
    // Her session is ended by a password change in her other session, so her row stays to be looked at.
    const eve = await newAdmin();
    const other = await logIn(eve.username, eve.id);
    const endSession = () => changePasswordThroughApi(other, `${eve.username}-password`, "eve-new-password");
    await expectApiRefused(
      await actMidBody(
        apiEmail.action,
        eve,
        "/api/admin/email",
        { method: "PATCH", ...jsonBody({ email: "eve@evil.example", mailChoice: "each" }) },
        {},
        endSession,
      ),
    );
    const ben = await newAdmin();
    const bens = await logIn(ben.username, ben.id);
    expectSentToLogin(
      await actMidBody(
        emailTab.action,
        ben,
        "/admin/email",
        formBody({ intent: "save", email: "ben@evil.example", mailChoice: "each" }),
        {},
        () => changePasswordThroughApi(bens, `${ben.username}-password`, "ben-new-password"),
      ),
    );
    const chosen = db
      .select({ email: adminUsers.email, mailChoice: adminUsers.mailChoice })
      .from(adminUsers)
      .where(inArray(adminUsers.id, [eve.id, ben.id]))
      .all();
    expect(chosen).toEqual([
      { email: null, mailChoice: "none" },
      { email: null, mailChoice: "none" },
    ]);
  });

  it("POST /api/admin/password: 401", async () => {
    const eve = await newAdmin();
    const response = await actMidBody(
      apiPassword.action,
      eve,
      "/api/admin/password",
      jsonBody({ currentPassword: `${eve.username}-password`, newPassword: "mallorys-password" }),
    );
    await expectApiRefused(response);
  });

  it("POST /api/admin/poems: 401, and no poem is added", async () => {
    const eve = await newAdmin();
    const response = await actMidBody(apiPoems.action, eve, "/api/admin/poems", jsonBody({ title: "Held open", content: "Sent slowly." }));
    await expectApiRefused(response);
    expect(db.select().from(poems).all()).toEqual([]);
  });

  it.each([
    ["the Pending Memories tab", pendingMemoriesTab.action, "/admin?index", "approve"],
    ["a memory's details", memoryDetails.action, "/admin/memories/0", "reject"],
  ])("a memory's form on %s: to the login page, and the memory stays pending", async (_where, action, urlPath, intent) => {
    const eve = await newAdmin();
    const id = pendingMemory();
    const response = await actMidBody(
      action,
      eve,
      urlPath.replace("/0", `/${id}`),
      formBody({ intent, id: String(id), confirmed: "yes" }),
      {
        id: String(id),
      },
    );
    expectSentToLogin(response);
    expect(memoryRow(id)).toMatchObject({ status: "PENDING", moderatedBy: null });
  });

  it.each([
    ["the Pending Uploads tab", pendingUploadsTab.action, "/admin/uploads", "reject"],
    ["an upload's preview", uploadPreview.action, "/admin/uploads/0", "rotate-right"],
  ])(
    "an upload's form on %s: to the login page; the upload, its copies and its files stay as they were",
    async (_where, action, urlPath, intent) => {
      const eve = await newAdmin();
      const id = await pendingPhoto();
      const before = uploadRow(id);
      const files = storedFiles();
      const response = await actMidBody(
        action,
        eve,
        urlPath.replace("/0", `/${id}`),
        formBody({ intent, id: String(id), confirmed: "yes" }),
        {
          id: String(id),
        },
      );
      expectSentToLogin(response);
      expect(uploadRow(id)).toMatchObject({ status: "PENDING", rotation: 0, url: before.url });
      expect(storedFiles()).toEqual(files);
    },
  );

  it("the poem forms: to the login page; no poem is added and none deleted", async () => {
    const kept = db.insert(poems).values({ title: "Kept", content: "Still here." }).returning().all()[0]!;
    const eve = await newAdmin();
    expectSentToLogin(
      await actMidBody(poemsTab.action, eve, "/admin/poems", formBody({ intent: "create", title: "Held", content: "Slowly." })),
    );
    const ben = await newAdmin();
    expectSentToLogin(
      await actMidBody(deletePoem.action, ben, `/admin/poems/${kept.id}/delete`, formBody({ intent: "delete" }), { id: String(kept.id) }),
    );
    expect(db.select({ title: poems.title }).from(poems).all()).toEqual([{ title: "Kept" }]);
  });

  it("the Published view's forms (unpublish, correct, delete): to the login page; the memory and the photo stay as they were", async () => {
    const id = pendingMemory();
    db.update(memories).set({ status: "APPROVED" }).where(eq(memories.id, id)).run();
    const photo = await pendingPhoto();
    db.update(uploads).set({ status: "APPROVED" }).where(eq(uploads.id, photo)).run();
    const files = storedFiles();
    const params = { id: String(id) };
    const attempts: [Action, string, Record<string, string>, Record<string, string>][] = [
      [publishedMemories.action, "/admin/published/memories", { intent: "unpublish", id: String(id) }, {}],
      [editMemory.action, `/admin/published/memories/${id}/edit`, { name: "Mallory", message: "Words she never wrote." }, params],
      [deleteMemory.action, `/admin/published/memories/${id}/delete`, { intent: "delete" }, params],
      [publishedUploads.action, "/admin/published/uploads", { intent: "unpublish", id: String(photo) }, {}],
      [deleteUpload.action, `/admin/published/uploads/${photo}/delete`, { intent: "delete" }, { id: String(photo) }],
    ];
    for (const [action, urlPath, fields, routeParams] of attempts) {
      const eve = await newAdmin();
      expectSentToLogin(await actMidBody(action, eve, urlPath, formBody(fields), routeParams));
    }
    expect(memoryRow(id)).toMatchObject({ status: "APPROVED", name: "Cousin Ellen", editedBy: null });
    expect(uploadRow(photo).status).toBe("APPROVED");
    expect(storedFiles()).toEqual(files);
  });

  it("a Site tab section: to the login page, and the settings stay as they were", async () => {
    const eve = await newAdmin();
    const response = await actMidBody(
      siteTab.action,
      eve,
      "/admin/site",
      formBody({ section: "contact", contactEmail: "mallory@example.com", privacyNote: "Changed." }),
    );
    expectSentToLogin(response);
    expect(setting("contactEmail")).toBeUndefined();
  });

  it("the hero photo's upload and reset: to the login page; the photo, its words and storage stay as they were", async () => {
    db.insert(siteSettings).values({ key: "heroImageAlt", value: "Mum on the pier", updatedBy: "keeper" }).run();
    const photo = await sharp({ create: { width: 700, height: 400, channels: 3, background: "#7a9c6a" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append("heroImageAlt", "Not her");
    form.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "other.jpg");
    const files = storedFiles();
    const eve = await newAdmin();
    expectSentToLogin(await actMidBody(heroPhoto.action, eve, "/admin/site/hero", await multipartBody(form)));
    const ben = await newAdmin();
    expectSentToLogin(await actMidBody(heroPhoto.action, ben, "/admin/site/hero", formBody({ intent: "reset" })));
    expect(setting("heroImage")).toBeUndefined();
    expect(setting("heroImageAlt")).toBe("Mum on the pier");
    expect(storedFiles()).toEqual(files);
  });

  it("the Karen Mode song's upload and reset: to the login page; the song and storage stay as they were", async () => {
    const song = { key: "site/song-kept.mp3", title: "Kept", originalName: "kept.mp3", bytes: 3 };
    db.insert(siteSettings).values({ key: "karenSong", value: song, updatedBy: "keeper" }).run();
    const form = new FormData();
    form.append("song", new Blob([new Uint8Array(await fs.readFile(BUNDLED_SONG))], { type: "audio/mpeg" }), "party.mp3");
    form.append("title", "Not ours");
    const files = storedFiles();
    const eve = await newAdmin();
    expectSentToLogin(await actMidBody(karenSong.action, eve, "/admin/site/song", await multipartBody(form)));
    const ben = await newAdmin();
    expectSentToLogin(await actMidBody(karenSong.action, ben, "/admin/site/song", formBody({ intent: "reset" })));
    expect(setting("karenSong")).toEqual(song);
    expect(storedFiles()).toEqual(files);
  });

  it("the Family admins forms (add, invite, remove, change password): to the login page, and nothing changes", async () => {
    const invitations = db.select().from(adminInvitations).all().length;
    // Removing the keeper comes last: were it to go through, the keeper could not end the next session.
    for (const fields of [
      { intent: "add", username: "backdoor", password: "backdoor-password" } as Record<string, string>,
      { intent: "invite" },
      { intent: "remove", id: String(keeper.id) },
    ]) {
      const eve = await newAdmin();
      expectSentToLogin(await actMidBody(familyAdmins.action, eve, "/admin/admins", formBody(fields)));
    }
    expect(adminNames()).toContain("keeper");
    expect(adminNames()).not.toContain("backdoor");
    expect(db.select().from(adminInvitations).all()).toHaveLength(invitations);

    // Her session ends with a password change made in her other session; the first session's own change must not follow.
    const eve = await newAdmin();
    const other = await logIn(eve.username, eve.id);
    const changeOwn = formBody({
      intent: "change-password",
      currentPassword: `${eve.username}-password`,
      newPassword: "mallorys-password",
      confirmPassword: "mallorys-password",
    });
    const response = await actMidBody(familyAdmins.action, eve, "/admin/admins", changeOwn, {}, () =>
      changePasswordThroughApi(other, `${eve.username}-password`, "the-new-password"),
    );
    expectSentToLogin(response);
    expect(await verifyAdminLogin(eve.username, "the-new-password")).toEqual({ id: eve.id, username: eve.username, role: "family" });
  });
});

async function changePasswordThroughApi(session: LoggedIn, currentPassword: string, newPassword: string) {
  const request = new Request(`${ORIGIN}/api/admin/password`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: session.cookie },
    body: JSON.stringify({ currentPassword, newPassword }),
  });
  const changed = await answer(() => apiPassword.action({ request, params: {}, context } as never));
  expect(changed.status).toBe(204);
}

describe("a session ended by a password change in another session", () => {
  it("refuses the first session's request still on its way (401), and adds no admin", async () => {
    const eve = await newAdmin();
    const other = await logIn(eve.username, eve.id);
    const response = await actMidBody(
      apiAdmins.action,
      eve,
      "/api/admin/admins",
      jsonBody({ username: "backdoor2", password: "backdoor-password" }),
      {},
      () => changePasswordThroughApi(other, `${eve.username}-password`, "the-new-password"),
    );
    await expectApiRefused(response);
    expect(adminNames()).not.toContain("backdoor2");
    // The session that changed the password stays logged in.
    const check = new Request(`${ORIGIN}/api/admin/admins`, { headers: { Cookie: other.cookie } });
    expect((await answer(() => apiAdmins.loader({ request: check, params: {}, context } as never))).status).toBe(200);
  });
});

describe("an admin's body that takes too long to arrive", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Calls `action` with a held body, lets `ms` pass on the clock, then lets the rest through. */
  async function actAfter(
    ms: number,
    action: Action,
    admin: LoggedIn,
    urlPath: string,
    init: HeldBody,
    params: Record<string, string> = {},
  ) {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const held = heldRequest(urlPath, init, admin.cookie);
    const pending = answer(() => action({ request: held.request, params, context } as never));
    await Promise.race([held.halfRead, pending]);
    await vi.advanceTimersByTimeAsync(ms);
    // The rest of the work (a photo's processing has a time limit of its own) runs on the real clock.
    vi.useRealTimers();
    held.release();
    return pending;
  }

  it("is answered 408 in the API's shape after a minute, and the memory stays pending", async () => {
    const eve = await newAdmin();
    const id = pendingMemory();
    const response = await actAfter(
      61_000,
      apiMemory.action,
      eve,
      `/api/admin/memories/${id}`,
      { method: "PATCH", ...jsonBody({ status: "APPROVED" }) },
      {
        id: String(id),
      },
    );
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual({ errors: { body: [expect.stringContaining("took too long")] } });
    expect(memoryRow(id).status).toBe("PENDING");
  });

  it("is answered 408 with a plain sentence for a form, and no poem is added", async () => {
    const eve = await newAdmin();
    const response = await actAfter(
      61_000,
      poemsTab.action,
      eve,
      "/admin/poems",
      formBody({ intent: "create", title: "Late", content: "Too slow." }),
    );
    expect(response.status).toBe(408);
    expect(await response.text()).toMatch(/took too long/);
    expect(db.select().from(poems).where(eq(poems.title, "Late")).all()).toEqual([]);
  });

  it("gives a hero photo upload the time its size needs at a slow connection, then answers 408 and keeps the photo before", async () => {
    const photo = await sharp({ create: { width: 700, height: 400, channels: 3, background: "#8a6c5a" } })
      .jpeg()
      .toBuffer();
    const upload = async () => {
      const form = new FormData();
      form.append("heroImageAlt", "The pier");
      form.append("photo", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "pier.jpg");
      return multipartBody(form);
    };
    const before = setting("heroImage");
    // Two minutes is long for a form, not for a photo of up to 25 MB.
    const eve = await newAdmin();
    const inTime = await actAfter(120_000, heroPhoto.action, eve, "/admin/site/hero", await upload());
    expect(inTime.status).toBe(302);
    const saved = setting("heroImage") as { copies: { webp: string; jpeg: string }[] };
    expect(saved).not.toEqual(before);
    const afterSaved = storedFiles();
    expect(afterSaved).toEqual(expect.arrayContaining(saved.copies.flatMap((copy) => [copy.webp, copy.jpeg])));

    const late = await actAfter(20 * 60_000, heroPhoto.action, eve, "/admin/site/hero", await upload());
    expect(late.status).toBe(408);
    expect(JSON.stringify(await late.json())).toMatch(/took too long/);
    expect(setting("heroImage")).toEqual(saved);
    expect(storedFiles()).toEqual(afterSaved);
  });
});
