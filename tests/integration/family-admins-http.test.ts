// The first run and the family admins' API against the production server
// (`node server/index.mjs` on the build): the setup code in the log, the API's
// 401/403/400/201/204/404/409 answers, and sessions that end.
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAST_ADMIN, USERNAME_TAKEN, WRONG_CURRENT_PASSWORD } from "~/admins/admin.schema";
import { postJson, request, requireBuild, scratchDir, startSite, type Answer, type Site } from "../support/site-process";

const cookieOf = (answer: Answer) => (answer.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!).join("; ");
const json = (answer: Answer) => JSON.parse(answer.body) as unknown;
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
});
const setupCodeIn = (output: string) => /Setup code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(output)?.[1];

async function waitFor<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Logs in through the API; the configured admin is made just after the server starts listening, so a first refusal is tried again. */
async function logInAt(port: number, credentials: { username: string; password: string }) {
  for (let i = 0; ; i++) {
    const answer = await postJson(port, "/api/admin/login", credentials);
    if (answer.status === 200 || i > 40) {
      expect(answer.status, answer.body).toBe(200);
      return cookieOf(answer);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(requireBuild);

describe("the first run, on a server started without ADMIN_USERNAME", () => {
  let site: Site;
  afterAll(() => site?.stop());

  it("offers the setup with the code from the log, once, and logs the first admin in", async () => {
    const dir = scratchDir();
    site = await startSite(dir, { ADMIN_USERNAME: "", ADMIN_PASSWORD: "" });
    const code = await waitFor(() => setupCodeIn(site.output()), "the setup code in the log");
    const { port } = site;

    expect((await request(port, "GET", "/admin")).headers.location).toBe("/admin/login");
    expect((await request(port, "GET", "/admin/login")).headers.location).toBe("/admin/setup");
    const page = await request(port, "GET", "/admin/setup");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Set up the memorial");
    expect(page.body).toContain("Setup code");

    const account = { username: "anna", password: "first-password", confirmPassword: "first-password" };
    const wrong = await request(port, "POST", "/admin/setup", form({ ...account, setupCode: "AAAA-BBBB-CCCC" }));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toContain("That setup code is not right.");
    const differ = await request(port, "POST", "/admin/setup", form({ ...account, confirmPassword: "other-password", setupCode: code }));
    expect(differ.status).toBe(400);
    expect(differ.body).toContain("The two passwords are not the same");

    // Two people with the code at once: one admin.
    const [first, second] = await Promise.all([
      request(port, "POST", "/admin/setup", form({ ...account, setupCode: code })),
      request(port, "POST", "/admin/setup", form({ ...account, username: "ben", setupCode: code })),
    ]);
    const made = [first, second].filter((answer) => answer.headers.location === "/admin/site");
    expect(made).toHaveLength(1);
    const other = made[0] === first ? second : first;
    expect(other.status === 409 || other.headers.location === "/admin/login", `${other.status} ${other.body.slice(0, 200)}`).toBe(true);

    const cookie = cookieOf(made[0]!);
    expect(cookie).toContain("__session=");
    const admins = await request(port, "GET", "/api/admin/admins", { headers: { Cookie: cookie } });
    expect(admins.status).toBe(200);
    expect(json(admins)).toEqual([
      { id: expect.any(Number), username: expect.stringMatching(/^(anna|ben)$/), role: "family", createdAt: expect.any(String) },
    ]);
    expect((await request(port, "GET", "/admin", { headers: { Cookie: cookie } })).status).toBe(200);

    // Once an admin exists the setup is gone, and the code with it.
    expect((await request(port, "GET", "/admin/setup")).headers.location).toBe("/admin/login");
    expect((await request(port, "GET", "/admin/login")).status).toBe(200);
    const again = await request(port, "POST", "/admin/setup", form({ ...account, username: "mallory", setupCode: code }));
    expect(again.headers.location).toBe("/admin/login");
    expect((json(await request(port, "GET", "/api/admin/admins", { headers: { Cookie: cookie } })) as unknown[]).length).toBe(1);

    // A restart with an admin prints no code.
    await site.stop();
    site = await startSite(dir, { ADMIN_USERNAME: "", ADMIN_PASSWORD: "" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(setupCodeIn(site.output())).toBeUndefined();
  });

  it("prints no code when ADMIN_USERNAME and ADMIN_PASSWORD make the admin", async () => {
    await site?.stop();
    site = await startSite(scratchDir(), { ADMIN_USERNAME: "family", ADMIN_PASSWORD: "configured-password" });
    await logInAt(site.port, { username: "family", password: "configured-password" });
    expect((await request(site.port, "GET", "/admin/login")).status).toBe(200);
    expect((await request(site.port, "GET", "/admin/setup")).headers.location).toBe("/admin/login");
    expect(setupCodeIn(site.output())).toBeUndefined();
  });

  it("has the configured admin before it answers anything, so the first login works at once", async () => {
    await site?.stop();
    site = await startSite(scratchDir(), { ADMIN_USERNAME: "family", ADMIN_PASSWORD: "configured-password" });
    // No retry: the very first request after the site answers /healthz.
    const login = await postJson(site.port, "/api/admin/login", { username: "family", password: "configured-password" });
    expect(login.status, login.body).toBe(200);
    // Hashed at the production cost, N = 2^15, r = 8, p = 1 (the tests' own hashes are cheaper: app/admins/password.server.ts).
    const file = new Database(path.join(site.dir, "memorial.db"), { readonly: true, fileMustExist: true });
    try {
      const row = file.prepare("SELECT password FROM admin_users WHERE username = ?").get("family") as { password: string } | undefined;
      expect(row?.password).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    } finally {
      file.close();
    }
  });
});

describe("a restart with ADMIN_USERNAME and ADMIN_PASSWORD still set", () => {
  let site: Site | undefined;
  afterAll(() => site?.stop());

  it("keeps the password the family chose in the panel, and the family's sessions", async () => {
    const dir = scratchDir();
    const env = { ADMIN_USERNAME: "family", ADMIN_PASSWORD: "configured-password" };
    site = await startSite(dir, env);
    const login = await request(site.port, "POST", "/admin/login", form({ username: "family", password: "configured-password" }));
    expect(login.status, login.body.slice(0, 300)).toBe(302);
    const panel = cookieOf(login);
    const changed = await request(
      site.port,
      "POST",
      "/admin/admins",
      form(
        {
          intent: "change-password",
          currentPassword: "configured-password",
          newPassword: "the-familys-own-choice",
          confirmPassword: "the-familys-own-choice",
          returnTo: "/admin/admins",
        },
        { Cookie: panel },
      ),
    );
    expect(changed.status, changed.body.slice(0, 300)).toBe(302);
    expect(changed.headers.location).toBe("/admin/admins");
    const phone = await logInAt(site.port, { username: "family", password: "the-familys-own-choice" });

    // Fly stops an idle machine and starts it again at the next visit: the same server, the same variables.
    await site.stop();
    site = await startSite(dir, env);
    for (const cookie of [panel, phone]) {
      expect((await request(site.port, "GET", "/api/admin/admins", { headers: { Cookie: cookie } })).status).toBe(200);
      expect((await request(site.port, "GET", "/admin", { headers: { Cookie: cookie } })).status).toBe(200);
    }
    const old = await postJson(site.port, "/api/admin/login", { username: "family", password: "configured-password" });
    expect(old.status).toBe(401);
    const chosen = await postJson(site.port, "/api/admin/login", { username: "family", password: "the-familys-own-choice" });
    expect(chosen.status, chosen.body).toBe(200);
  });
});

describe("the family admins API", () => {
  let site: Site;
  let port: number;
  const ADMIN = { username: "admin", password: "the-admin-password" };

  beforeAll(async () => {
    site = await startSite(scratchDir(), { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
    port = site.port;
  });
  afterAll(() => site?.stop());

  const logIn = (credentials: { username: string; password: string }) => logInAt(port, credentials);
  const as = (cookie: string) => ({ Cookie: cookie });

  it("answers 401 without a session and 403 from another site", async () => {
    for (const [method, path] of [
      ["GET", "/api/admin/admins"],
      ["POST", "/api/admin/admins"],
      ["DELETE", "/api/admin/admins/1"],
      ["POST", "/api/admin/password"],
    ] as const) {
      const answer = await request(port, method, path, { body: "{}", headers: { "Content-Type": "application/json" } });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(json(answer)).toEqual({ errors: { session: ["Log in as the administrator first"] } });
    }
    const cookie = await logIn(ADMIN);
    const foreign = await postJson(
      port,
      "/api/admin/admins",
      { username: "mallory", password: "a-long-password" },
      { ...as(cookie), Origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect(json(foreign)).toEqual({ errors: { origin: ["Cross-origin requests are not allowed."] } });
    const foreignDelete = await request(port, "DELETE", "/api/admin/admins/1", {
      headers: { ...as(cookie), Origin: "https://evil.example" },
    });
    expect(foreignDelete.status).toBe(403);
  });

  it("adds, lists and removes admins; the last one stays, and a removed admin is logged out", async () => {
    const cookie = await logIn(ADMIN);
    const refused = await postJson(port, "/api/admin/admins", {}, as(cookie));
    expect(refused.status).toBe(400);
    expect(json(refused)).toEqual({ errors: { username: ["Username is required"], password: ["Password must be at least 8 characters"] } });
    const short = await postJson(port, "/api/admin/admins", { username: "ben", password: "short" }, as(cookie));
    expect(json(short)).toEqual({ errors: { password: ["Password must be at least 8 characters"] } });
    expect(
      (
        await request(port, "POST", "/api/admin/admins", {
          body: "not json",
          headers: { ...as(cookie), "Content-Type": "application/json" },
        })
      ).status,
    ).toBe(400);

    const created = await postJson(port, "/api/admin/admins", { username: " ben ", password: "bens-password" }, as(cookie));
    expect(created.status).toBe(201);
    const ben = json(created) as { id: number; username: string; createdAt: string };
    expect(ben).toEqual({
      id: expect.any(Number),
      username: "ben",
      role: "family",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const taken = await postJson(port, "/api/admin/admins", { username: "BEN", password: "another-password" }, as(cookie));
    expect(taken.status).toBe(409);
    expect(json(taken)).toEqual({ errors: { username: [USERNAME_TAKEN] } });

    const list = json(await request(port, "GET", "/api/admin/admins", { headers: as(cookie) })) as { username: string }[];
    expect(list.map((admin) => admin.username)).toEqual(["admin", "ben"]);

    const bens = await logIn({ username: "ben", password: "bens-password" });
    expect((await request(port, "GET", "/api/admin/admins", { headers: as(bens) })).status).toBe(200);
    expect((await request(port, "DELETE", "/api/admin/admins/999999", { headers: as(cookie) })).status).toBe(404);
    expect(json(await request(port, "DELETE", "/api/admin/admins/abc", { headers: as(cookie) }))).toEqual({
      errors: { id: ["There is no admin with this id"] },
    });
    const removed = await request(port, "DELETE", `/api/admin/admins/${ben.id}`, { headers: as(cookie) });
    expect(removed.status).toBe(204);
    expect(removed.body).toBe("");
    // Ben's next request: logged out (the API says 401, a page goes to the login).
    expect((await request(port, "GET", "/api/admin/admins", { headers: as(bens) })).status).toBe(401);
    expect((await request(port, "GET", "/admin/poems", { headers: as(bens) })).headers.location).toBe(
      "/admin/login?redirectTo=%2Fadmin%2Fpoems",
    );

    const me = list.find((admin) => admin.username === "admin") as unknown as { id: number };
    const last = await request(port, "DELETE", `/api/admin/admins/${me.id}`, { headers: as(cookie) });
    expect(last.status).toBe(409);
    expect(json(last)).toEqual({ errors: { admin: [LAST_ADMIN] } });
    expect((await request(port, "GET", "/api/admin/admins/1", { headers: as(cookie) })).status).toBe(405);
  });

  it("changes the admin's own password and ends their other sessions", async () => {
    const [here, elsewhere] = [await logIn(ADMIN), await logIn(ADMIN)];
    const change = (body: unknown, cookie = here) => postJson(port, "/api/admin/password", body, as(cookie));

    const wrong = await change({ currentPassword: "not-the-password", newPassword: "a-new-password" });
    expect(wrong.status).toBe(400);
    expect(json(wrong)).toEqual({ errors: { currentPassword: [WRONG_CURRENT_PASSWORD] } });
    const short = await change({ currentPassword: ADMIN.password, newPassword: "short" });
    expect(short.status).toBe(400);
    expect(json(short)).toEqual({ errors: { newPassword: ["New password must be at least 8 characters"] } });
    expect(json(await change({}))).toEqual({
      errors: { currentPassword: ["Current password is required"], newPassword: ["New password must be at least 8 characters"] },
    });
    expect((await request(port, "GET", "/api/admin/password", { headers: as(here) })).status).toBe(405);
    expect((await request(port, "GET", "/api/admin/admins", { headers: as(elsewhere) })).status).toBe(200);

    const changed = await change({ currentPassword: ADMIN.password, newPassword: "a-new-password" });
    expect(changed.status).toBe(204);
    expect((await request(port, "GET", "/api/admin/admins", { headers: as(here) })).status).toBe(200);
    expect((await request(port, "GET", "/api/admin/admins", { headers: as(elsewhere) })).status).toBe(401);
    expect((await postJson(port, "/api/admin/login", ADMIN)).status).toBe(401);
    await logIn({ username: ADMIN.username, password: "a-new-password" });
    expect((await change({ currentPassword: "a-new-password", newPassword: ADMIN.password })).status).toBe(204);
  });

  it("a wrong password: the login form comes back (401, and 403 for a text browser, which shows no 401 page); the JSON API keeps its 401", async () => {
    const wrong = { username: ADMIN.username, password: "not-the-password" };
    const browser = await request(
      port,
      "POST",
      "/admin/login",
      form(wrong, { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/139.0" }),
    );
    expect(browser.status).toBe(401);
    expect(browser.body).toContain("Invalid username or password.");
    const lynx = await request(port, "POST", "/admin/login", form(wrong, { "User-Agent": "Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1" }));
    expect(lynx.status).toBe(403);
    expect(lynx.headers["www-authenticate"]).toBeUndefined();
    expect(lynx.body).toContain("Invalid username or password.");
    expect(lynx.body).toContain('name="password"');
    const api = await postJson(port, "/api/admin/login", wrong);
    expect(api.status).toBe(401);
    expect(json(api)).toEqual({ errors: { form: ["Invalid username or password."] } });
    await logIn(ADMIN);
  });

  it("moderating through the API records who did it", async () => {
    const cookie = await logIn(ADMIN);
    const sent = await postJson(port, "/api/guestbook", {
      name: "Ellen",
      email: "ellen@example.com",
      message: "I remember the summer at the lake.",
    });
    expect(sent.status).toBe(201);
    const { id } = json(sent) as { id: number };
    const before = Date.now();
    const moderated = await request(port, "PATCH", `/api/admin/memories/${id}`, {
      body: JSON.stringify({ status: "APPROVED" }),
      headers: { ...as(cookie), "Content-Type": "application/json" },
    });
    expect(moderated.status).toBe(200);
    const memory = json(moderated) as { moderatedBy: string; moderatedAt: string };
    expect(memory.moderatedBy).toBe("admin");
    expect(Date.parse(memory.moderatedAt)).toBeGreaterThanOrEqual(before - 1000);
    // The public guest book shows none of it.
    const [shown] = json(await request(port, "GET", "/api/guestbook")) as Record<string, unknown>[];
    expect(Object.keys(shown!).sort()).toEqual(["createdAt", "id", "message", "name"]);
  });
});
