// Each request's data loaded and page rendered from the routes it matched
// (docs/decisions/018-remembered-route-matching.md) answers exactly as Remix
// does with the whole route tree: two production servers on one database,
// one of them with ROUTE_MATCHING=plain, asked the same things, for every
// route there is, as a visitor and as the administrator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCrowd } from "../../bench/lib.mjs";
import { postJson, request, requireBuild, scratchDir, startSite, type Answer, type Site } from "./support/site-process";

const ADMIN = { username: "keeper", password: "narrowing-test-password" };

const VISITOR_PAGES = [
  "/",
  "/guestbook",
  "/guestbook?offset=10",
  "/guestbook?limit=5&offset=3",
  "/gallery",
  "/gallery?type=video",
  "/gallery/1",
  "/gallery/99999",
  "/poems",
  "/rsvp",
  "/share",
  "/slideshow",
  "/passcode",
  "/admin/login",
  "/admin/setup",
  "/admin/invite/not-a-token",
  "/no-such-page",
  "/no/such/page/at/all",
  "/GuestBook",
  "/guestbook/",
  "/guestbook?_data=routes/guestbook",
  "/guestbook?_data=root",
  "/gallery/1?_data=routes/gallery_.$id",
  "/poems?_data=routes/guestbook",
  "/?index&_data=routes/_index",
  "/api/guestbook",
  "/api/guestbook?limit=3&offset=2",
  "/api/gallery?type=photo",
  "/api/poems",
  "/api/slideshow",
  "/api/no-such-thing",
  "/api/admin/pending-memories",
  "/media/1/nope.jpg",
  "/robots.txt",
  "/service.ics",
  "/healthz",
];

const ADMIN_PAGES = [
  "/admin",
  "/admin?tab=uploads",
  "/admin/memories/1",
  "/admin/memories/424242",
  "/admin/uploads",
  "/admin/uploads/1",
  "/admin/poems",
  "/admin/site",
  "/admin/site/hero",
  "/admin/site/song",
  "/admin/attendance",
  "/admin/exports",
  "/admin/admins",
  "/admin/print",
  "/admin/no-such-tab",
  "/admin?_data=routes/admin",
  "/api/admin/pending-memories",
  "/api/admin/rsvps/stats",
  "/guestbook",
];

let narrowed: Site;
let plain: Site;
let adminCookie: string;

async function login(site: Site): Promise<string> {
  for (let i = 0; ; i++) {
    // The configured admin is made just after the server starts listening.
    const answer = await postJson(site.port, "/api/admin/login", ADMIN);
    if (answer.status === 200 || i > 40) {
      expect(answer.status, answer.body).toBe(200);
      return (answer.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!).join("; ");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  requireBuild();
  const dir = scratchDir();
  const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, RENDER_CACHE: "off" };
  narrowed = await startSite(dir, env);
  plain = await startSite(dir, { ...env, ROUTE_MATCHING: "plain" });
  // Written once both servers have done their work at start (which would try to finish the seeded uploads' processing).
  seedCrowd(dir, { memories: 40, uploads: 30, pending: 3 });
  adminCookie = await login(narrowed);
}, 90_000);

afterAll(async () => {
  await narrowed?.stop();
  await plain?.stop();
});

/** What may differ between two answers to one question: the per-response nonce, the clock, and "… ago" should a minute turn between them. */
function comparable(answer: Answer) {
  const nonce = /nonce-([A-Za-z0-9+/=_-]+)/.exec(String(answer.headers["content-security-policy"] ?? ""))?.[1];
  let body = answer.body;
  if (nonce) body = body.split(nonce).join("NONCE");
  body = body
    .replace(/(about |less than |over |almost )?(a|an|\d+) (second|minute|hour|day|month|year)s? ago/g, "… ago")
    .replace(/"now":\d+/g, '"now":0')
    .replace(/"freeBytes":\d+/g, '"freeBytes":0');
  // Every header a loader or route can set (Cache-Control, Vary, cookies…), the per-response ones aside.
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_RESPONSE_HEADERS.has(name)));
  return { status: answer.status, headers, body };
}

/** Headers that differ between any two responses, or with the nonce and the clock in the body. */
const PER_RESPONSE_HEADERS = new Set([
  "date",
  "content-security-policy",
  "content-length",
  "etag",
  "keep-alive",
  "connection",
  "x-response-time",
]);

/** The same question to both servers (under one host name, so addresses in the pages agree). */
async function expectSameAnswers(method: string, path: string, options: { body?: string; headers?: Record<string, string> } = {}) {
  const asked = { ...options, headers: { Host: "memorial.test", ...options.headers } };
  const [fromNarrowed, fromPlain] = await Promise.all([
    request(narrowed.port, method, path, asked),
    request(plain.port, method, path, asked),
  ]);
  const got = comparable(fromNarrowed);
  const want = comparable(fromPlain);
  expect({ ...got, body: undefined }, `${method} ${path}`).toEqual({ ...want, body: undefined });
  if (got.body !== want.body) {
    let at = 0;
    while (got.body[at] === want.body[at]) at++;
    const around = (text: string) => text.slice(Math.max(0, at - 150), at + 150);
    expect.fail(`${method} ${path}: the bodies differ at ${at}:\n narrowed: ${around(got.body)}\n plain:    ${around(want.body)}`);
  }
  return fromNarrowed;
}

describe("answers from the matched routes alone", () => {
  it("are Remix's own answers for a visitor, on every kind of page and API read", async () => {
    const statuses = new Set<number>();
    for (const path of VISITOR_PAGES) statuses.add((await expectSameAnswers("GET", path)).status);
    // The list reaches pages, data requests, refusals and made-up addresses.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 401, 404]));
  });

  it("are Remix's own answers for the administrator, on every admin page", async () => {
    for (const path of ADMIN_PAGES) {
      const answer = await expectSameAnswers("GET", path, { headers: { Cookie: adminCookie } });
      if (!path.includes("no-such") && !path.includes("424242")) expect(answer.status, path).toBe(200);
    }
  });

  it("are Remix's own answers to a refused form, which changes nothing", async () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    for (const path of ["/guestbook", "/rsvp", "/poems", "/admin/login", "/guestbook?index"]) {
      const answer = await expectSameAnswers("POST", path, { body: "name=&message=", headers: form });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
    }
    // A form posted to a page without an action, and an unknown method.
    await expectSameAnswers("POST", "/gallery", { body: "x=1", headers: form });
    await expectSameAnswers("DELETE", "/guestbook");
  });
});

describe("a page as the server sends it", () => {
  /** The page's text with its nonce and clock set aside (comparable), to hold two answers side by side. */
  const sameness = (body: string, policy: unknown) => {
    const nonce = /nonce-([A-Za-z0-9+/=]+)/.exec(String(policy))?.[1] ?? "NONCE";
    return comparable({ status: 200, headers: {}, body: body.split(nonce).join("NONCE") }).body;
  };

  it("carries its length in bytes, and is the same page compressed", async () => {
    for (const path of ["/", "/guestbook", "/gallery", "/poems", "/no-such-page", "/admin/login"]) {
      const raw = await request(narrowed.port, "GET", path);
      expect(Number(raw.headers["content-length"]), path).toBe(Buffer.byteLength(raw.body));
      expect(raw.headers["transfer-encoding"], path).toBeUndefined();
      const zipped = await fetch(`http://127.0.0.1:${narrowed.port}${path}`, { headers: { "Accept-Encoding": "gzip" } });
      expect(zipped.headers.get("content-encoding"), path).toBe("gzip");
      expect(sameness(await zipped.text(), zipped.headers.get("content-security-policy")), path).toBe(
        sameness(raw.body, raw.headers["content-security-policy"]),
      );
    }
  });
});
