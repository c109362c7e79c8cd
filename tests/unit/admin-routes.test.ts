// The admin panel's doors: every page and form of it needs the session
// (requireAdmin on its first line), the login page is its own route outside
// the panel (/admin/login, back to the page asked for), logging out is its
// own action (/admin/logout), and POST /api/admin/login logs in with JSON.
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { memories, sessions } from "../../db/schema";
import { resetLoginThrottle } from "~/admins/authenticator.server";
import { getAdmin } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { upsertAdmin } from "~/admins/admin.server";
import * as layout from "~/routes/admin";
import * as pendingMemories from "~/routes/admin._index";
import * as attendance from "~/routes/admin.attendance";
import * as exportsTab from "~/routes/admin.exports";
import * as memoryDetails from "~/routes/admin.memories.$id";
import * as poemsTab from "~/routes/admin.poems";
import * as deletePoem from "~/routes/admin.poems.$id.delete";
import * as emailTab from "~/routes/admin.email";
import * as rememberTab from "~/routes/admin.remember";
import * as removeFollower from "~/routes/admin.remember.$id.remove";
import * as publishedIndex from "~/routes/admin.published._index";
import * as publishedMemories from "~/routes/admin.published.memories";
import * as deleteMemory from "~/routes/admin.published.memories.$id.delete";
import * as editMemory from "~/routes/admin.published.memories.$id.edit";
import * as publishedUploads from "~/routes/admin.published.uploads";
import * as deleteUpload from "~/routes/admin.published.uploads.$id.delete";
import * as printTab from "~/routes/admin.print";
import * as pendingUploads from "~/routes/admin.uploads";
import * as uploadPreview from "~/routes/admin.uploads.$id";
import * as login from "~/routes/admin_.login";
import * as logout from "~/routes/admin_.logout";
import * as apiLogin from "~/routes/api.admin.login";
import { answer, cookieOf } from "../support/route-calls";

const ORIGIN = "http://localhost";
const ADMIN = { username: "keeper", password: "the-right-password" };
const context = { clientIp: "10.20.0.1" };

beforeEach(async () => {
  resetLoginThrottle();
  db.delete(sessions).run();
  await upsertAdmin(ADMIN.username, ADMIN.password);
});

const form = (fields: Record<string, string>, init: { cookie?: string } = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", ...(init.cookie ? { Cookie: init.cookie } : {}) },
  body: new URLSearchParams(fields),
});

/** Logs in through the login page's form; returns its answer. */
function logInThroughForm(fields: Record<string, string>, path = "/admin/login") {
  return answer(() => login.action({ request: new Request(`${ORIGIN}${path}`, form(fields)), params: {}, context } as never));
}

async function adminCookie() {
  const response = await logInThroughForm(ADMIN);
  expect(response.status).toBe(302);
  return cookieOf(response);
}

function addPendingMemory() {
  return db
    .insert(memories)
    .values({ name: "Cousin Ellen", email: "ellen@example.com", message: "I remember the summer at the lake." })
    .returning({ id: memories.id })
    .all()[0]!.id;
}

describe("every admin page and form without a session", () => {
  type RouteFunction = (args: never) => unknown;
  const pages: [string, RouteFunction, Record<string, string>][] = [
    ["/admin", layout.loader, {}],
    ["/admin", pendingMemories.loader, {}],
    ["/admin/attendance", attendance.loader, {}],
    ["/admin/exports", exportsTab.loader, {}],
    ["/admin/memories/1", memoryDetails.loader, { id: "1" }],
    ["/admin/poems", poemsTab.loader, {}],
    ["/admin/print", printTab.loader, {}],
    ["/admin/uploads", pendingUploads.loader, {}],
    ["/admin/uploads/1", uploadPreview.loader, { id: "1" }],
    ["/admin/published", publishedIndex.loader, {}],
    ["/admin/published/memories", publishedMemories.loader, {}],
    ["/admin/published/memories/1/edit", editMemory.loader, { id: "1" }],
    ["/admin/published/memories/1/delete", deleteMemory.loader, { id: "1" }],
    ["/admin/published/uploads", publishedUploads.loader, {}],
    ["/admin/published/uploads/1/delete", deleteUpload.loader, { id: "1" }],
    ["/admin/poems/1/delete", deletePoem.loader, { id: "1" }],
    ["/admin/email", emailTab.loader, {}],
    ["/admin/remember", rememberTab.loader, {}],
    ["/admin/remember/1/remove", removeFollower.loader, { id: "1" }],
  ];
  const forms: [string, RouteFunction, Record<string, string>][] = [
    ["/admin?index", pendingMemories.action, {}],
    ["/admin/memories/1", memoryDetails.action, { id: "1" }],
    ["/admin/poems", poemsTab.action, {}],
    ["/admin/uploads", pendingUploads.action, {}],
    ["/admin/uploads/1", uploadPreview.action, { id: "1" }],
    ["/admin/published/memories", publishedMemories.action, {}],
    ["/admin/published/memories/1/edit", editMemory.action, { id: "1" }],
    ["/admin/published/memories/1/delete", deleteMemory.action, { id: "1" }],
    ["/admin/published/uploads", publishedUploads.action, {}],
    ["/admin/published/uploads/1/delete", deleteUpload.action, { id: "1" }],
    ["/admin/poems/1/delete", deletePoem.action, { id: "1" }],
    ["/admin/email", emailTab.action, {}],
    ["/admin/remember", rememberTab.action, {}],
    ["/admin/remember/1/remove", removeFollower.action, { id: "1" }],
  ];

  it("goes to the login page, which returns to the page afterwards", async () => {
    for (const [path, loader, params] of pages) {
      const response = await answer(() => loader({ request: new Request(`${ORIGIN}${path}`), params, context } as never));
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe(
        path === "/admin" ? "/admin/login" : `/admin/login?redirectTo=${encodeURIComponent(path)}`,
      );
    }
  });

  it("does nothing and goes to the login page", async () => {
    const id = addPendingMemory();
    for (const [path, action, params] of forms) {
      const request = new Request(`${ORIGIN}${path}`, form({ intent: "approve", id: String(id) }));
      const response = await answer(() => action({ request, params, context } as never));
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toMatch(/^\/admin\/login(\?redirectTo=|$)/);
    }
    expect(db.select().from(memories).where(eq(memories.id, id)).get()?.status).toBe("PENDING");
  });

  it("the panel answers with the session", async () => {
    const cookie = await adminCookie();
    const response = (await layout.loader({
      request: new Request(`${ORIGIN}/admin`, { headers: { Cookie: cookie } }),
      params: {},
      context,
    } as never)) as Response;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ admin: { username: ADMIN.username } });
  });
});

describe("the login page, /admin/login", () => {
  it("logs in with the form and goes to the page asked for, with the confirmation", async () => {
    const response = await logInThroughForm({ ...ADMIN, redirectTo: "/admin/poems" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/poems");
    const cookies = response.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/^__session=/m);
    expect(cookies).toMatch(/^__toast=/m);
    expect(await getAdmin(new Request(ORIGIN, { headers: { Cookie: cookieOf(response) } }))).toMatchObject({ username: ADMIN.username });
  });

  it("never returns to the login page itself", async () => {
    for (const redirectTo of ["/admin/login", "/admin/login?redirectTo=/admin/login"]) {
      expect((await logInThroughForm({ ...ADMIN, redirectTo })).headers.get("Location"), redirectTo).toBe("/admin");
    }
  });

  it("names a missing field beside it, and says a wrong login failed without saying which part", async () => {
    const missing = await logInThroughForm({ username: "   ", password: "" });
    expect(missing.status).toBe(400);
    const missingData = (await missing.json()) as { failed: boolean; result: { error: Record<string, string[]> } };
    expect(missingData.failed).toBe(false);
    expect(missingData.result.error).toMatchObject({ username: ["Username is required"], password: ["Password is required"] });

    const wrong = await logInThroughForm({ username: ADMIN.username, password: "not the password" });
    expect(wrong.status).toBe(401);
    const wrongData = (await wrong.json()) as {
      failed: boolean;
      result: { error: Record<string, string[]>; initialValue: Record<string, string> };
    };
    expect(wrongData.failed).toBe(true);
    expect(wrongData.result.error[""]).toEqual(["Invalid username or password."]);
    // The username typed is kept; the password is not sent back.
    expect(wrongData.result.initialValue).toEqual({ username: ADMIN.username });
  });

  it("keeps a form's limits: another type of body is refused, and so is one too large", async () => {
    const asJson = await answer(() =>
      login.action({
        request: new Request(`${ORIGIN}/admin/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(ADMIN),
        }),
        params: {},
        context,
      } as never),
    );
    expect(asJson.status).toBe(415);
    const huge = await answer(() =>
      login.action({
        request: new Request(`${ORIGIN}/admin/login`, form({ ...ADMIN, padding: "x".repeat(70 * 1024) })),
        params: {},
        context,
      } as never),
    );
    expect(huge.status).toBe(413);
    expect(db.select().from(sessions).all()).toHaveLength(0);
  });

  it("is never kept by a browser or a cache", async () => {
    const card = login.loader();
    expect(card.status).toBe(200);
    expect(card.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("answers a refused login with its messages even to a logged-in administrator", async () => {
    const cookie = await adminCookie();
    const request = new Request(`${ORIGIN}/admin/login`, form({ username: "", password: "x" }, { cookie }));
    expect((await answer(() => login.action({ request, params: {}, context } as never))).status).toBe(400);
  });
});

describe("logging out, /admin/logout", () => {
  it("ends the session and says so on the login page", async () => {
    const cookie = await adminCookie();
    expect(db.select().from(sessions).all()).toHaveLength(1);
    const response = await answer(() =>
      logout.action({ request: new Request(`${ORIGIN}/admin/logout`, form({}, { cookie })), params: {}, context } as never),
    );
    expect([response.status, response.headers.get("Location")]).toEqual([302, "/admin/login"]);
    const cookies = response.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith("__session="))).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(cookies.some((c) => c.startsWith("__toast="))).toBe(true);
    expect(db.select().from(sessions).all()).toHaveLength(0);
    expect(await getAdmin(new Request(ORIGIN, { headers: { Cookie: cookie } }))).toBeNull();
  });

  it("changes nothing on GET", async () => {
    const cookie = await adminCookie();
    const response = await answer(() => logout.loader());
    expect([response.status, response.headers.get("Location")]).toEqual([302, "/admin"]);
    expect(await getAdmin(new Request(ORIGIN, { headers: { Cookie: cookie } }))).not.toBeNull();
  });
});

describe("POST /api/admin/login", () => {
  const post = (body: string, type = "application/json") =>
    answer(() =>
      apiLogin.action({
        request: new Request(`${ORIGIN}/api/admin/login`, { method: "POST", headers: { "Content-Type": type }, body }),
        params: {},
        context,
      } as never),
    );

  it("logs in with JSON and opens the same session as the form", async () => {
    const response = await post(JSON.stringify(ADMIN));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, username: ADMIN.username });
    expect(await getAdmin(new Request(ORIGIN, { headers: { Cookie: cookieOf(response) } }))).toMatchObject({ username: ADMIN.username });
  });

  it("answers what it cannot use in the API's words", async () => {
    expect(await (await post("{}")).json()).toEqual({ errors: { username: ["Username is required"], password: ["Password is required"] } });
    const wrong = await post(JSON.stringify({ ...ADMIN, password: "nope", redirectTo: 5 }));
    expect([wrong.status, await wrong.json()]).toEqual([401, { errors: { form: ["Invalid username or password."] } }]);
    expect((await post("username=keeper", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await post("{not json")).status).toBe(400);
  });
});

describe("the Pending Memories tab, /admin", () => {
  it("shows the waiting memories a page at a time, oldest first, with how many wait and the way on", async () => {
    db.delete(memories).run();
    const start = Date.UTC(2026, 10, 1);
    const ids = Array.from(
      { length: 60 },
      (_, i) =>
        db
          .insert(memories)
          .values({ name: `Guest ${i}`, email: `guest${i}@example.com`, message: `Memory ${i}`, createdAt: new Date(start + i * 1000) })
          .returning({ id: memories.id })
          .all()[0]!.id,
    );
    const cookie = await adminCookie();
    const page = async (address: string) => {
      const response = (await pendingMemories.loader({
        request: new Request(`${ORIGIN}${address}`, { headers: { Cookie: cookie } }),
        params: {},
        context,
      } as never)) as Response;
      return (await response.json()) as { memories: { id: number }[]; next: string | null; total: number; continued: boolean };
    };
    const first = await page("/admin");
    expect(first.memories.map((memory) => memory.id)).toEqual(ids.slice(0, 50));
    expect(first).toMatchObject({ total: 60, continued: false });
    expect(first.next).toEqual(expect.any(String));
    const second = await page(`/admin?after=${first.next}`);
    expect(second.memories.map((memory) => memory.id)).toEqual(ids.slice(50));
    expect(second).toMatchObject({ total: 60, continued: true, next: null });
    // An address no page gave starts from the oldest again.
    expect((await page("/admin?after=nonsense")).memories[0]!.id).toBe(ids[0]);
  });
});
