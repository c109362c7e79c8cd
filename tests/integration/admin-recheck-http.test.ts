// An admin whose session ends while her request's body is still on its way
// (she was removed, or her password was changed elsewhere) is refused when
// the body completes, against the production server (`npm run build` first):
// the session is checked again in the write's own transaction, not only
// when the request began.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, request, requireBuild, scratchDir, startSite, type Answer, type Site } from "../support/site-process";

const ADMIN = { username: "admin", password: "the-admin-password" };
const LOG_IN_FIRST = { errors: { session: ["Log in as the administrator first"] } };

const cookieOf = (answer: Answer) => (answer.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!).join("; ");
const json = (answer: Answer) => JSON.parse(answer.body) as unknown;

let site: Site;
let port: number;

beforeAll(async () => {
  requireBuild();
  site = await startSite(scratchDir(), { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
  port = site.port;
}, 60_000);
afterAll(() => site?.stop());

const as = (cookie: string) => ({ Cookie: cookie });

async function logIn(credentials: { username: string; password: string }) {
  const answer = await postJson(port, "/api/admin/login", credentials);
  expect(answer.status, answer.body).toBe(200);
  return cookieOf(answer);
}

/** A second family admin, logged in. */
async function addAdmin(admin: string, username: string) {
  const password = `${username}-password`;
  const created = await postJson(port, "/api/admin/admins", { username, password }, as(admin));
  expect(created.status, created.body).toBe(201);
  const { id } = json(created) as { id: number };
  return { id, cookie: await logIn({ username, password }) };
}

const usernames = async (admin: string) =>
  (json(await request(port, "GET", "/api/admin/admins", { headers: as(admin) })) as { username: string }[]).map((a) => a.username);

/**
 * A request whose body is sent in two halves: the first at once, the rest
 * when `finish` is called. Resolves with the whole answer.
 */
function slowRequest(method: string, urlPath: string, body: string, headers: Record<string, string>) {
  const bytes = Buffer.from(body);
  const half = Math.floor(bytes.length / 2);
  let answered: (answer: Answer) => void;
  let failed: (error: unknown) => void;
  const answer = new Promise<Answer>((resolve, reject) => ((answered = resolve), (failed = reject)));
  const req = http.request(
    { host: "127.0.0.1", port, method, path: urlPath, agent: false, headers: { ...headers, "Content-Length": bytes.length } },
    (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => answered({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on("error", failed);
    },
  );
  req.on("error", (error) => failed(error));
  // A test that fails before finishing leaves this open until the server stops: not an error of its own.
  answer.catch(() => {});
  req.write(bytes.subarray(0, half));
  return {
    finish: () => {
      req.end(bytes.subarray(half));
      return answer;
    },
  };
}

const slowJson = (method: string, urlPath: string, data: unknown, cookie: string) =>
  slowRequest(method, urlPath, JSON.stringify(data), { "Content-Type": "application/json", ...as(cookie) });
const slowForm = (urlPath: string, fields: Record<string, string>, cookie: string) =>
  slowRequest("POST", urlPath, new URLSearchParams(fields).toString(), {
    "Content-Type": "application/x-www-form-urlencoded",
    ...as(cookie),
  });

/**
 * Gives the server time to check the slow request's session and begin
 * waiting for its body (nothing outside it can tell when that happened).
 */
const whileTheBodyIsOnItsWay = () => new Promise((resolve) => setTimeout(resolve, 400));

async function pendingMemory() {
  const sent = await postJson(port, "/api/guestbook", {
    name: "Cousin Ellen",
    email: "ellen@example.com",
    message: "I remember the summer at the lake, and the boat.",
  });
  expect(sent.status, sent.body).toBe(201);
  return (json(sent) as { id: number }).id;
}

const memoryStatus = async (admin: string, id: number) =>
  (json(await request(port, "GET", `/api/admin/memories/${id}`, { headers: as(admin) })) as { status: string }).status;

const poemTitles = async (admin: string) =>
  (json(await request(port, "GET", "/api/admin/poems", { headers: as(admin) })) as { title: string }[]).map((p) => p.title);

describe("a removed admin's request still on its way", () => {
  it("is refused with 401 when its body completes, and adds no admin (POST /api/admin/admins)", async () => {
    const admin = await logIn(ADMIN);
    const eve = await addAdmin(admin, "eve");
    const slow = slowJson("POST", "/api/admin/admins", { username: "backdoor", password: "backdoor-password" }, eve.cookie);
    await whileTheBodyIsOnItsWay();

    expect((await request(port, "DELETE", `/api/admin/admins/${eve.id}`, { headers: as(admin) })).status).toBe(204);
    expect((await request(port, "GET", "/api/admin/admins", { headers: as(eve.cookie) })).status).toBe(401);

    const answer = await slow.finish();
    expect(answer.status, answer.body).toBe(401);
    expect(json(answer)).toEqual(LOG_IN_FIRST);
    expect(await usernames(admin)).toEqual(["admin"]);
  });

  it("is sent to the login page when a form's body completes, and the memory stays pending (approving a memory)", async () => {
    const admin = await logIn(ADMIN);
    const id = await pendingMemory();
    const eve = await addAdmin(admin, "eve2");
    const slow = slowForm(`/admin/memories/${id}`, { intent: "approve", id: String(id) }, eve.cookie);
    await whileTheBodyIsOnItsWay();

    expect((await request(port, "DELETE", `/api/admin/admins/${eve.id}`, { headers: as(admin) })).status).toBe(204);

    const answer = await slow.finish();
    expect(answer.status, answer.body).toBe(302);
    expect(answer.headers.location).toBe(`/admin/login?redirectTo=${encodeURIComponent(`/admin/memories/${id}`)}`);
    expect(await memoryStatus(admin, id)).toBe("PENDING");
  });

  it("changes no setting (PATCH /api/admin/settings: the site made private)", async () => {
    const admin = await logIn(ADMIN);
    const eve = await addAdmin(admin, "eve3");
    const slow = slowJson("PATCH", "/api/admin/settings", { visibility: "private", visitorPasscode: "let-me-in" }, eve.cookie);
    await whileTheBodyIsOnItsWay();

    expect((await request(port, "DELETE", `/api/admin/admins/${eve.id}`, { headers: as(admin) })).status).toBe(204);

    const answer = await slow.finish();
    expect(answer.status, answer.body).toBe(401);
    expect(json(answer)).toEqual(LOG_IN_FIRST);
    const settings = json(await request(port, "GET", "/api/admin/settings", { headers: as(admin) })) as { visibility: string };
    expect(settings.visibility).toBe("public");
  });
});

describe("a session ended by a password change, with a request still on its way", () => {
  it("is refused when the body completes, by the API (401) and by a form (to the login page); nothing is added", async () => {
    const kept = await logIn(ADMIN);
    const ended = await logIn(ADMIN);
    const api = slowJson("POST", "/api/admin/poems", { title: "Held open", content: "A poem sent slowly." }, ended);
    const form = slowForm("/admin/poems", { intent: "create", title: "Held open too", content: "Another poem sent slowly." }, ended);
    await whileTheBodyIsOnItsWay();

    const changed = await postJson(
      port,
      "/api/admin/password",
      { currentPassword: ADMIN.password, newPassword: "a-new-admin-password" },
      as(kept),
    );
    expect(changed.status, changed.body).toBe(204);
    expect((await request(port, "GET", "/api/admin/poems", { headers: as(ended) })).status).toBe(401);

    const apiAnswer = await api.finish();
    expect(apiAnswer.status, apiAnswer.body).toBe(401);
    expect(json(apiAnswer)).toEqual(LOG_IN_FIRST);
    const formAnswer = await form.finish();
    expect(formAnswer.status, formAnswer.body).toBe(302);
    expect(formAnswer.headers.location).toBe("/admin/login?redirectTo=%2Fadmin%2Fpoems");
    expect(await poemTitles(kept)).toEqual([]);
  });
});
