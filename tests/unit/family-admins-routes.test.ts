// The Family admins section's forms (/admin/admins) and the invitation page
// (/admin/invite/<token>), called as Remix calls them: every form needs the
// session, answers with a redirect and a toast, asks before you remove
// yourself, and shows a new invitation link once.
import { beforeEach, describe, expect, it } from "vitest";
import { adminInvitations, adminUsers, sessions } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { resetLoginThrottle } from "~/admins/authenticator.server";
import { getAdmin, startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { createAdmin, listAdmins, type Admin } from "~/admins/admin.server";
import { resetInvitationLimits } from "~/admins/invitation.server";
import * as familyAdmins from "~/routes/admin.admins";
import * as invitationPage from "~/routes/admin_.invite.$token";
import * as setupPage from "~/routes/admin_.setup";
import { answer, cookieOf } from "../support/route-calls";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.30.0.1" };

beforeEach(() => {
  db.delete(sessions).run();
  db.delete(adminInvitations).run();
  db.delete(adminUsers).run();
  resetLoginThrottle();
  resetInvitationLimits();
});

async function addAdmin(username: string): Promise<Admin> {
  const { id } = await createAdmin({ username, password: "a-good-password" }, operator());
  return { id, username, role: "family" };
}
const logIn = async (admin: Admin) => (await startAdminSession(new Request(`${ORIGIN}/admin`), admin)).split(";")[0]!;

function post(path: string, fields: Record<string, string>, cookie?: string) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}
const send = (fields: Record<string, string>, cookie?: string) =>
  answer(() => familyAdmins.action({ request: post("/admin/admins", fields, cookie), params: {}, context } as never));
const load = async (cookie: string) => {
  const response = await answer(() =>
    familyAdmins.loader({ request: new Request(`${ORIGIN}/admin/admins`, { headers: { Cookie: cookie } }), params: {}, context } as never),
  );
  return ((await response.json()) as { familyAdmins: { admins: { username: string }[]; invitation: { link: string } | null } })
    .familyAdmins;
};
/** The toast a redirect sets (a signed cookie whose value is base64 JSON), or undefined. */
function toastOf(response: Response): { title: string; description?: string; type: string } | undefined {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__toast="));
  if (!cookie) return undefined;
  const value = decodeURIComponent(cookie.split(";")[0]!.slice("__toast=".length));
  const data = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as Record<string, unknown>;
  return data["__flash_toast__"] as never;
}

describe("the Family admins forms", () => {
  it("need the admin's session", async () => {
    const response = await send({ intent: "add", username: "mallory", password: "a-long-password" });
    expect(response.headers.get("Location")).toMatch(/^\/admin\/login/);
    const page = await answer(() => familyAdmins.loader({ request: new Request(`${ORIGIN}/admin/admins`), params: {}, context } as never));
    expect(page.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fadmins");
    expect(listAdmins()).toEqual([]);
  });

  it("add an admin and come back to the Site tab (or the page they were sent from, inside the panel) with a toast", async () => {
    const cookie = await logIn(await addAdmin("anna"));
    const added = await send({ intent: "add", username: "ben", password: "bens-password" }, cookie);
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/admin/site#family-admins");
    expect(toastOf(added)).toMatchObject({ title: "Admin Added", description: "ben can now log in to the admin panel." });
    expect(listAdmins().map((admin) => admin.username)).toEqual(["anna", "ben"]);

    const back = await send(
      { intent: "add", username: "carol", password: "carols-password", returnTo: "/admin/admins#family-admins" },
      cookie,
    );
    expect(back.headers.get("Location")).toBe("/admin/admins#family-admins");
    const outside = await send({ intent: "add", username: "dan", password: "dans-password", returnTo: "//evil.example/" }, cookie);
    expect(outside.headers.get("Location")).toBe("/admin/site#family-admins");

    const taken = await send({ intent: "add", username: "Ben", password: "another-password" }, cookie);
    expect(taken.status).toBe(409);
    const reply = (await taken.json()) as {
      form: string;
      result: { error: Record<string, string[]>; initialValue: Record<string, string> };
    };
    expect(reply.form).toBe("add-admin");
    expect(reply.result.error.username).toEqual(["That username is already taken. Please choose another."]);
    expect(reply.result.initialValue.password).toBeUndefined();

    const short = await send({ intent: "add", username: "erin", password: "short" }, cookie);
    expect(short.status).toBe(400);
    expect(((await short.json()) as { result: { error: Record<string, string[]> } }).result.error.password).toEqual([
      "Password must be at least 8 characters",
    ]);
    expect((await send({ intent: "dance" }, cookie)).status).toBe(400);
  });

  it("show a new invitation link once, to the admin who made it", async () => {
    const anna = await addAdmin("anna");
    const [cookie, otherTab] = [await logIn(anna), await logIn(anna)];
    const made = await send({ intent: "invite" }, cookie);
    expect(made.headers.get("Location")).toBe("/admin/site#family-admins");
    expect(toastOf(made)).toMatchObject({ title: "Invitation Created" });
    const first = await load(cookie);
    expect(first.invitation?.link).toMatch(/^http:\/\/localhost\/admin\/invite\/[A-Za-z0-9_-]{43}$/);
    expect((await load(otherTab)).invitation).toBeNull();
    expect((await load(cookie)).invitation).toBeNull();

    const token = first.invitation!.link.split("/").pop()!;
    const open = await answer(() =>
      invitationPage.loader({ request: new Request(first.invitation!.link), params: { token }, context } as never),
    );
    expect(open.status).toBe(200);
    expect(await open.json()).toMatchObject({ open: true, invitedBy: "anna" });

    const differ = await answer(() =>
      invitationPage.action({
        request: post(`/admin/invite/${token}`, { username: "ben", password: "bens-password", confirmPassword: "bens-passw0rd" }),
        params: { token },
        context,
      } as never),
    );
    expect(differ.status).toBe(400);
    const accepted = await answer(() =>
      invitationPage.action({
        request: post(`/admin/invite/${token}`, { username: "ben", password: "bens-password", confirmPassword: "bens-password" }),
        params: { token },
        context,
      } as never),
    );
    expect(accepted.headers.get("Location")).toBe("/admin");
    const bens = cookieOf(accepted);
    expect(await getAdmin(new Request(`${ORIGIN}/admin`, { headers: { Cookie: bens } }))).toMatchObject({ username: "ben" });

    const used = await answer(() =>
      invitationPage.loader({ request: new Request(first.invitation!.link), params: { token }, context } as never),
    );
    expect(used.status).toBe(410);
    expect(await used.json()).toMatchObject({ open: false, message: expect.stringContaining("already been used") });
    const unknown = await answer(() =>
      invitationPage.loader({ request: new Request(`${ORIGIN}/admin/invite/nope`), params: { token: "nope" }, context } as never),
    );
    expect(unknown.status).toBe(404);
  });

  it("ask before you remove yourself, then log you out; the last admin stays", async () => {
    const [anna, ben] = [await addAdmin("anna"), await addAdmin("ben")];
    const [annas, bens] = [await logIn(anna), await logIn(ben)];

    const question = await send({ intent: "remove", id: String(anna.id) }, annas);
    expect(question.status).toBe(200);
    expect(await question.json()).toEqual({
      confirm: expect.objectContaining({
        id: anna.id,
        intent: "remove",
        title: "Remove yourself as an admin?",
        confirmLabel: "Yes, remove me",
      }),
    });
    expect(listAdmins()).toHaveLength(2);

    const gone = await send({ intent: "remove", id: String(anna.id), confirmed: "yes" }, annas);
    expect(gone.headers.get("Location")).toBe("/admin/login");
    expect(toastOf(gone)).toMatchObject({ title: "Admin Removed" });
    expect(gone.headers.getSetCookie().some((cookie) => cookie.startsWith("__session=;"))).toBe(true);
    expect(await getAdmin(new Request(`${ORIGIN}/admin`, { headers: { Cookie: annas } }))).toBeNull();
    expect(listAdmins().map((admin) => admin.username)).toEqual(["ben"]);

    const last = await send({ intent: "remove", id: String(ben.id), confirmed: "yes" }, bens);
    expect(last.headers.get("Location")).toBe("/admin/site#family-admins");
    expect(toastOf(last)).toMatchObject({
      title: "Not Removed",
      type: "destructive",
      description: expect.stringContaining("at least one admin"),
    });
    expect(listAdmins().map((admin) => admin.username)).toEqual(["ben"]);
  });

  it("remove someone else at once, ending their sessions", async () => {
    const [anna, ben] = [await addAdmin("anna"), await addAdmin("ben")];
    const [annas, bens] = [await logIn(anna), await logIn(ben)];
    const removed = await send({ intent: "remove", id: String(ben.id) }, annas);
    expect(removed.headers.get("Location")).toBe("/admin/site#family-admins");
    expect(toastOf(removed)).toMatchObject({ title: "Admin Removed", description: "ben can no longer log in." });
    expect(await getAdmin(new Request(`${ORIGIN}/admin`, { headers: { Cookie: bens } }))).toBeNull();
    const page = await answer(() =>
      familyAdmins.loader({ request: new Request(`${ORIGIN}/admin/admins`, { headers: { Cookie: bens } }), params: {}, context } as never),
    );
    expect(page.headers.get("Location")).toMatch(/^\/admin\/login/);
  });

  it("change your password: the current one is needed, the new one twice", async () => {
    const anna = await addAdmin("anna");
    const [here, elsewhere] = [await logIn(anna), await logIn(anna)];
    const differ = await send(
      { intent: "change-password", currentPassword: "a-good-password", newPassword: "new-password", confirmPassword: "new-passw0rd" },
      here,
    );
    expect(differ.status).toBe(400);
    expect(((await differ.json()) as { result: { error: Record<string, string[]> } }).result.error.confirmPassword).toEqual([
      "The two passwords are not the same",
    ]);
    const wrong = await send(
      { intent: "change-password", currentPassword: "not-it", newPassword: "new-password", confirmPassword: "new-password" },
      here,
    );
    expect(wrong.status).toBe(400);
    const reply = (await wrong.json()) as {
      form: string;
      result: { error: Record<string, string[]>; initialValue: Record<string, unknown> };
    };
    expect(reply).toMatchObject({
      form: "change-password",
      result: { error: { currentPassword: ["The current password is not right."] } },
    });
    // No password is ever sent back into the page.
    expect(reply.result.initialValue).toEqual({ intent: "change-password" });

    const changed = await send(
      { intent: "change-password", currentPassword: "a-good-password", newPassword: "new-password", confirmPassword: "new-password" },
      here,
    );
    expect(changed.headers.get("Location")).toBe("/admin/site#family-admins");
    expect(toastOf(changed)).toMatchObject({ title: "Password Changed" });
    expect(await getAdmin(new Request(`${ORIGIN}/admin`, { headers: { Cookie: here } }))).toEqual(anna);
    expect(await getAdmin(new Request(`${ORIGIN}/admin`, { headers: { Cookie: elsewhere } }))).toBeNull();
  });
});

describe("the setup page", () => {
  it("is gone once an admin exists", async () => {
    await addAdmin("anna");
    expect((await answer(() => setupPage.loader())).headers.get("Location")).toBe("/admin/login");
    const sent = await answer(() =>
      setupPage.action({
        request: post("/admin/setup", { setupCode: "X", username: "m", password: "12345678", confirmPassword: "12345678" }),
        params: {},
        context,
      } as never),
    );
    expect(sent.headers.get("Location")).toBe("/admin/login");
  });
});
