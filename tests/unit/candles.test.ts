// Candles: counted once per visitor and day (and a network's share bounded),
// words waiting for the family, every input bounded, and the HTML form, the
// JSON API and the admin's moderation answering as the docs say. Real SQLite.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminUsers, candles } from "../../db/schema";
import { upsertAdmin } from "~/admins/admin.server";
import { startAdminSession } from "~/admins/session.server";
import { COUNTED_PER_NETWORK_PER_DAY, lightCandle, publishedCandles, resetCandleCounts, setCandleStatus } from "~/candles/candles.server";
import { operator } from "~/platform/actor.server";
import { config } from "~/platform/config.server";
import { contentVersion, db } from "~/platform/db.server";
import { resetSubmissionLimits, TOO_MANY_SUBMISSIONS } from "~/platform/submission-limit.server";
import * as adminCandle from "~/routes/api.admin.candles.$id";
import * as adminPending from "~/routes/api.admin.pending-candles";
import * as adminTab from "~/routes/admin._index";
import * as api from "~/routes/api.candles";
import * as candlesPage from "~/routes/candles";
import * as guestbookPage from "~/routes/guestbook";
import * as home from "~/routes/_index";
import { renderCacheVariant } from "~/server/render-cache.server";
import { answer } from "../support/route-calls";

const ORIGIN = "http://localhost";
const admin = operator("keeper");
let adminCookie: string;

beforeAll(async () => {
  await upsertAdmin("keeper", "the-right-password");
  const { id } = db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!;
  adminCookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id, username: "keeper" })).split(";")[0]!;
});

beforeEach(() => {
  db.delete(candles).run();
  resetSubmissionLimits();
  resetCandleCounts();
});

const apiPost = (body: unknown, { clientIp = "203.0.113.7", cookie = "", raw = false } = {}) =>
  answer(() =>
    api.action({
      request: new Request(`${ORIGIN}/api/candles`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
        body: raw ? (body as string) : JSON.stringify(body),
      }),
      params: {},
      context: { clientIp },
    }),
  );

const apiGet = async () => (await answer(() => api.loader())).json() as Promise<{ count: number; recent: unknown[] }>;

const formPost = (fields: Record<string, string>, { clientIp = "198.51.100.7", cookie = "" } = {}) =>
  answer(() =>
    candlesPage.action({
      request: new Request(`${ORIGIN}/candles`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
        body: new URLSearchParams(fields),
      }),
      params: {},
      context: { clientIp },
    }),
  );

/** The toast a redirect sets (a signed cookie whose value is base64 JSON). */
function toastOf(response: Response): { title: string; description?: string } | undefined {
  const set = response.headers.getSetCookie().find((c) => c.startsWith("__toast="));
  if (!set) return undefined;
  const value = decodeURIComponent(set.split(";")[0]!.slice("__toast=".length));
  return JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8"))["__flash_toast__"];
}

const visitorCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .filter((cookie) => cookie.startsWith("candle_visitor="))
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");

const DAY = 24 * 60 * 60 * 1000;
const NOON = Date.UTC(2026, 5, 1, 19, 0, 0);

describe("the count", () => {
  it("counts a wordless candle at once, and a visitor's second candle that day is kept but not counted again", async () => {
    expect(await apiGet()).toEqual({ count: 0, recent: [] });
    const first = await apiPost({});
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ counted: true, count: 1, status: "APPROVED" });
    const cookie = visitorCookie(first);
    expect(first.headers.get("Set-Cookie")).toMatch(/candle_visitor=.*HttpOnly.*SameSite=Lax/i);

    const again = await apiPost({ name: "Ann" }, { cookie });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ counted: false, count: 1, status: "PENDING" });
    expect(again.headers.get("Set-Cookie")).toBeNull();
    // The second candle's words still go to the family; published, it is shown but not counted.
    const [, second] = db.select().from(candles).orderBy(candles.id).all();
    expect(second).toMatchObject({ name: "Ann", status: "PENDING", counted: false });
    setCandleStatus(second!.id, "APPROVED", admin);
    expect(await apiGet()).toMatchObject({ count: 1, recent: [{ name: "Ann", message: null }] });
  });

  it("lets a visitor whose first candle's words were rejected light one that counts", () => {
    const source = { clientIp: "192.0.2.9", visitorId: "b".repeat(32) };
    lightCandle({ message: "Buy cheap pills" }, source, NOON);
    setCandleStatus(db.select().from(candles).get()!.id, "REJECTED", admin);
    expect(lightCandle({}, source, NOON + 1000)).toEqual({ counted: true, count: 1, status: "APPROVED" });
  });

  it("keeps only a hash of the visitor, never their cookie or address", async () => {
    const lit = await apiPost({}, { clientIp: "203.0.113.99" });
    const id = decodeURIComponent(visitorCookie(lit).split("=")[1]!).replace(/^"|"$/g, "");
    const row = db.select().from(candles).get()!;
    expect(row.visitor).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain("203.0.113.99");
    expect(JSON.stringify(row)).not.toContain(id.slice(0, 16));
  });

  it("counts the same visitor again the next day, by the site's calendar", () => {
    const source = { clientIp: "192.0.2.1", visitorId: "a".repeat(32) };
    expect(lightCandle({}, source, NOON).counted).toBe(true);
    expect(lightCandle({}, source, NOON + 60_000).counted).toBe(false);
    expect(lightCandle({}, source, NOON + DAY)).toEqual({ counted: true, count: 2, status: "APPROVED" });
    expect(
      db
        .select({ day: candles.day })
        .from(candles)
        .all()
        .map((row) => row.day),
    ).toEqual(["2026-06-01", "2026-06-01", "2026-06-02"]);
  });

  it(`counts at most ${COUNTED_PER_NETWORK_PER_DAY} visitors from one network in a day; the rest are kept, not counted`, () => {
    for (let i = 0; i < COUNTED_PER_NETWORK_PER_DAY; i++) {
      expect(lightCandle({}, { clientIp: "192.0.2.50", visitorId: `visitor-${i}` }, NOON).counted).toBe(true);
    }
    // A script dropping its cookie is a new visitor every time: the network's share is full.
    expect(lightCandle({}, { clientIp: "192.0.2.50", visitorId: "one-more" }, NOON)).toMatchObject({ counted: false, count: 20 });
    // An IPv6 neighbour in the same /64 is the same network.
    expect(lightCandle({}, { clientIp: "2001:db8:1:2::1", visitorId: "v6-a" }, NOON).counted).toBe(true);
    // Another network still counts.
    expect(lightCandle({}, { clientIp: "192.0.2.51", visitorId: "elsewhere" }, NOON)).toMatchObject({ counted: true, count: 22 });
    expect(db.select().from(candles).all()).toHaveLength(23);
  });

  it("counts a candle with words only once the family publishes it, and never once rejected", async () => {
    const lit = await apiPost({ name: "Cousin Ellen", message: "Thinking of you all." });
    expect(await lit.json()).toEqual({ counted: true, count: 0, status: "PENDING" });
    const other = await apiPost({ message: "Rest well." }, { clientIp: "203.0.113.8" });
    expect((await other.json()) as unknown).toMatchObject({ status: "PENDING", count: 0 });
    expect(await apiGet()).toEqual({ count: 0, recent: [] });

    const [ellen, rest] = db.select().from(candles).orderBy(candles.id).all();
    setCandleStatus(ellen!.id, "APPROVED", admin);
    setCandleStatus(rest!.id, "REJECTED", admin);
    const shown = await apiGet();
    expect(shown).toEqual({
      count: 1,
      recent: [{ name: "Cousin Ellen", message: "Thinking of you all.", createdAt: ellen!.createdAt.toISOString() }],
    });
    expect(publishedCandles()).toEqual({ count: 1, named: [{ name: "Cousin Ellen", message: "Thinking of you all." }] });
  });

  it("lists the newest published words first, at most 20", () => {
    for (let i = 0; i < 25; i++) {
      lightCandle({ name: `Friend ${i}` }, { clientIp: `192.0.2.${i}`, visitorId: `friend-${i}` }, NOON + i * 1000);
    }
    for (const row of db.select().from(candles).all()) setCandleStatus(row.id, "APPROVED", admin);
    const names = publishedCandles().named.map((candle) => candle.name);
    expect(names).toHaveLength(25);
    return apiGet().then((summary) => {
      expect(summary.count).toBe(25);
      expect(summary.recent).toHaveLength(20);
      expect(summary.recent[0]).toMatchObject({ name: "Friend 24" });
    });
  });

  it("keeps a visitor who has lit a candle in the render cache: no page reads their cookie", async () => {
    const variant = (cookie: string) => renderCacheVariant({ headers: { cookie } }, { locals: {} });
    expect(await variant("candle_visitor=0123456789abcdef0123456789abcdef")).toBe(await variant(""));
    expect(await variant("candle_visitor=0123456789abcdef0123456789abcdef; __session=x")).toBeNull();
  });

  it("moves the content version, so cached pages show the new count", async () => {
    const before = contentVersion();
    await apiPost({});
    expect(contentVersion()).not.toBe(before);
  });
});

describe("POST /api/candles", () => {
  it.each([
    [{ name: "x".repeat(101) }, "name", "Your name must be at most 100 characters"],
    [{ message: "x".repeat(141) }, "message", "Your words must be at most 140 characters"],
    [{ message: "Two\nlines" }, "message", "Your words must be one line of plain text, without line breaks or hidden characters"],
    [{ name: "Ann\u0000" }, "name", "Your name must be one line of plain text, without line breaks or hidden characters"],
    [{ name: 42 }, "name", "Your name must be text"],
  ])("refuses %j with 400 and the field's message", async (body, field, message) => {
    const refused = await apiPost(body);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ errors: { [field]: [message] } });
    expect(db.select().from(candles).all()).toHaveLength(0);
  });

  it("takes a name of 100 and a line of 140 characters, trimmed, and empty ones as none", async () => {
    expect((await apiPost({ name: `  ${"n".repeat(100)}  `, message: "m".repeat(140) })).status).toBe(201);
    expect((await apiPost({ name: "", message: "   " }, { clientIp: "203.0.113.9" })).status).toBe(201);
    const [long, empty] = db.select().from(candles).orderBy(candles.id).all();
    expect(long).toMatchObject({ name: "n".repeat(100), message: "m".repeat(140), status: "PENDING" });
    expect(empty).toMatchObject({ name: null, message: null, status: "APPROVED" });
  });

  it("refuses a body that is not JSON (415), too large (413) or not an object (400), and other methods (405)", async () => {
    const notJson = await answer(() =>
      api.action({ request: new Request(`${ORIGIN}/api/candles`, { method: "POST", body: "name=x" }), params: {}, context: {} }),
    );
    expect(notJson.status).toBe(415);
    expect((await apiPost(JSON.stringify({ message: "x".repeat(9000) }), { raw: true })).status).toBe(413);
    expect((await apiPost("[]", { raw: true })).status).toBe(400);
    const put = await answer(() =>
      api.action({ request: new Request(`${ORIGIN}/api/candles`, { method: "PUT" }), params: {}, context: {} }),
    );
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, POST");
  });

  it("answers 429 past the network's allowance of submissions, as the guest book does", async () => {
    for (let i = 0; i < config.SUBMISSIONS_PER_10_MINUTES; i++)
      expect((await apiPost({}, { clientIp: "198.51.100.200" })).status).toBe(201);
    const refused = await apiPost({ message: "One more" }, { clientIp: "198.51.100.200" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual({ errors: { body: [TOO_MANY_SUBMISSIONS] } });
    expect((await apiPost({}, { clientIp: "198.51.100.201" })).status).toBe(201);
  });

  it("is never kept by a cache", async () => {
    expect((await answer(() => api.loader())).headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("the form at /candles", () => {
  it("lights a candle and goes back (303) to the page it came from, with the words a visitor reads", async () => {
    const lit = await formPost({ name: "", message: "", redirectTo: "/#candles" });
    expect(lit.status).toBe(303);
    expect(lit.headers.get("Location")).toBe("/#candles");
    expect(toastOf(lit)).toEqual({
      id: expect.any(String),
      type: "default",
      title: "Your candle is lit.",
      description: expect.stringMatching(/^Thank you for remembering /),
    });
    const cookie = visitorCookie(lit);
    expect(cookie).toMatch(/^candle_visitor=/);

    const again = await formPost({ name: "Ann", message: "Always with us.", redirectTo: "/guestbook#candles" }, { cookie });
    expect(again.headers.get("Location")).toBe("/guestbook#candles");
    expect(toastOf(again)?.description).toBe(
      "Candles are counted once a day for each visitor, so this one is not counted again. Thank you for coming back. Your name and words will be shown once the family has seen them.",
    );
    const words = await formPost({ name: "Joe", redirectTo: "/guestbook#candles" }, { clientIp: "198.51.100.8" });
    expect(toastOf(words)?.description).toBe("Your name and words will be shown once the family has seen them.");
  });

  it("never sends a visitor to another site", async () => {
    for (const redirectTo of ["//evil.example", "https://evil.example/", "/\\evil.example", ""]) {
      const lit = await formPost({ redirectTo }, { clientIp: `198.51.100.${redirectTo.length}` });
      expect(lit.headers.get("Location")).toBe("/candles");
    }
  });

  it("answers a refused line with the /candles page: the message beside the field and what was typed", async () => {
    const refused = await formPost({ name: "Ann", message: "x".repeat(141), redirectTo: "/" });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as {
      result: { error: Record<string, string[]>; initialValue: Record<string, string> };
      returnTo: string;
    };
    expect(body.result.error).toEqual({ message: ["Your words must be at most 140 characters"] });
    expect(body.result.initialValue).toMatchObject({ name: "Ann", redirectTo: "/" });
    expect(body.returnTo).toBe("/");
    expect(db.select().from(candles).all()).toHaveLength(0);
  });

  it("thanks a bot that fills in the spam trap and keeps nothing", async () => {
    const trapped = await formPost({ name: "Buy now", webpage: "http://spam.example", redirectTo: "/" });
    expect(trapped.status).toBe(303);
    expect(db.select().from(candles).all()).toHaveLength(0);
  });
});

describe("the pages", () => {
  const pageRequest = (path: string) => ({ request: new Request(`${ORIGIN}${path}`), params: {}, context: {} });

  it("show the count and only the words the family published, on the home page and the guest book", async () => {
    await apiPost({});
    await apiPost({ name: "Shown Name", message: "Shown words" }, { clientIp: "203.0.113.20" });
    await apiPost({ name: "Waiting Name", message: "Waiting words" }, { clientIp: "203.0.113.21" });
    const shown = db.select().from(candles).where(eq(candles.name, "Shown Name")).get()!;
    setCandleStatus(shown.id, "APPROVED", admin);

    const homeData = (await answer(() => home.loader(pageRequest("/")))) as unknown as { candles: string };
    const guestbook = {
      candles: ((await (await answer(() => guestbookPage.loader(pageRequest("/guestbook")))).json()) as { afterForm: string }).afterForm,
    };
    for (const html of [homeData.candles, guestbook.candles]) {
      expect(html).toContain("2 candles lit");
      expect(html).toContain("Shown Name");
      expect(html).toContain("Shown words");
      expect(html).not.toContain("Waiting");
      expect(html).toContain('action="/candles"');
      expect(html).toContain('maxLength="140"');
    }
    expect(homeData.candles).toContain('value="/#candles"');
    expect(guestbook.candles).toContain('value="/guestbook#candles"');
  });

  it("invite the first candle when none is lit", async () => {
    const homeData = (await answer(() => home.loader(pageRequest("/")))) as unknown as { candles: string };
    expect(homeData.candles).toContain("Be the first to light a candle.");
  });
});

describe("the family's moderation", () => {
  const adminApi = (path: string, method = "GET", body?: unknown, cookie = adminCookie) =>
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { ...(cookie ? { Cookie: cookie } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("lists the candles waiting and publishes or rejects them through the API", async () => {
    await apiPost({ name: "Ann", message: "With love." });
    await apiPost({}, { clientIp: "203.0.113.30" });
    const pending = await answer(() => adminPending.loader({ request: adminApi("/api/admin/pending-candles"), params: {}, context: {} }));
    expect(pending.status).toBe(200);
    const list = (await pending.json()) as { candles: { id: number; name: string; message: string; status: string }[]; total: number };
    expect(list).toMatchObject({ total: 1, candles: [{ name: "Ann", message: "With love.", status: "PENDING", counted: true }] });
    const id = list.candles[0]!.id;

    const patch = (candleId: string, body: unknown, cookie?: string) =>
      answer(() =>
        adminCandle.action({
          request: adminApi(`/api/admin/candles/${candleId}`, "PATCH", body, cookie),
          params: { id: candleId },
          context: {},
        }),
      );
    expect((await patch(String(id), { status: "APPROVED" }, "")).status).toBe(401);
    const bad = await patch(String(id), { status: "MAYBE" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ errors: { status: ["status must be APPROVED or REJECTED"] } });
    expect((await patch("424242", { status: "APPROVED" })).status).toBe(404);
    const approved = await patch(String(id), { status: "APPROVED" });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ id, status: "APPROVED", moderatedBy: "keeper" });
    expect(await apiGet()).toMatchObject({ count: 2, recent: [{ name: "Ann", message: "With love." }] });

    const unauthorised = await answer(() =>
      adminPending.loader({ request: adminApi("/api/admin/pending-candles", "GET", undefined, ""), params: {}, context: {} }),
    );
    expect(unauthorised.status).toBe(401);
  });

  it("publishes with the Pending tab's plain form, and asks before rejecting", async () => {
    await apiPost({ name: "Joe", message: "Miss you." });
    await apiPost({ name: "Spam", message: "Cheap pills" }, { clientIp: "203.0.113.31" });
    const [joe, spam] = db.select().from(candles).orderBy(candles.id).all();
    const post = (fields: Record<string, string>) =>
      answer(() =>
        adminTab.action({
          request: new Request(`${ORIGIN}/admin?index&moderate=candle`, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: adminCookie },
            body: new URLSearchParams(fields),
          }),
          params: {},
          context: {},
        }),
      );
    const published = await post({ id: String(joe!.id), intent: "approve" });
    expect(published.status).toBe(302);
    expect(toastOf(published)?.description).toBe("The candle from Joe is now shown with its words.");

    const question = await post({ id: String(spam!.id), intent: "reject" });
    expect(await question.json()).toMatchObject({
      confirm: { id: spam!.id, title: "Reject this candle?" },
      action: "/admin?index&moderate=candle",
    });
    expect(db.select().from(candles).where(eq(candles.id, spam!.id)).get()?.status).toBe("PENDING");
    const rejected = await post({ id: String(spam!.id), intent: "reject", confirmed: "yes" });
    expect(toastOf(rejected)?.description).toBe("The candle from Spam was rejected: no visitor will see it.");
    expect(db.select().from(candles).where(eq(candles.id, spam!.id)).get()?.status).toBe("REJECTED");

    const tab = await answer(() =>
      adminTab.loader({ request: new Request(`${ORIGIN}/admin`, { headers: { Cookie: adminCookie } }), params: {}, context: {} }),
    );
    expect(((await tab.json()) as { candles: { total: number } }).candles.total).toBe(0);
  });
});
