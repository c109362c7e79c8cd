// The Remember tab and its JSON twins, called as Remix calls them: the
// family's yearly reminders (saved, or refused beside the field), the days
// they fall on next, and the followers: listed, downloaded as CSV and
// removed, only with an admin's session.
import type { SerializeFrom } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminUsers, followers, siteSettings, type FollowTopic } from "../../db/schema";
import { upsertAdmin } from "~/admins/admin.server";
import { startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { getRemembrance } from "~/remembrance/remembrance.server";
import * as removePage from "~/routes/admin.remember.$id.remove";
import * as rememberTab from "~/routes/admin.remember";
import * as apiFollowers from "~/routes/api.admin.followers";
import * as apiFollower from "~/routes/api.admin.followers.$id";
import * as followersCsv from "~/routes/api.admin.export.followers[.]csv";
import { answer } from "../support/route-calls";
import { changeSiteSettings } from "../e2e/support/data";

const ORIGIN = "http://memorial.test";
const context = { clientIp: "10.61.0.1" };
let cookie: string;

beforeAll(async () => {
  await upsertAdmin("keeper", "the-right-password");
  const id = db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!.id;
  cookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id, username: "keeper" })).split(";")[0]!;
});
beforeEach(() => {
  db.delete(followers).run();
  db.delete(siteSettings).run();
});

const request = (path: string, init: RequestInit & { signedIn?: boolean } = {}) => {
  const { signedIn = true, ...rest } = init;
  return new Request(`${ORIGIN}${path}`, { ...rest, headers: { ...(signedIn ? { Cookie: cookie } : {}), ...rest.headers } });
};
const form = (path: string, fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return request(path, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
};

/** A follower as a confirmed request leaves them. */
function addFollower(name: string, email: string, topics: FollowTopic[], confirmed = true) {
  return db
    .insert(followers)
    .values({
      name,
      email,
      topics,
      createdAt: new Date("2026-01-02T10:00:00Z"),
      confirmedAt: confirmed ? new Date("2026-01-02T10:05:00Z") : null,
    })
    .returning()
    .get();
}

describe("GET /api/admin/followers", () => {
  it("lists the confirmed followers and counts those waiting, for an admin only", async () => {
    const ann = addFollower("Ann Lee", "ann@family.test", ["service", "reminders"]);
    addFollower("Bob", "bob@family.test", ["new"], false);
    const listed = await answer(() => apiFollowers.loader({ request: request("/api/admin/followers"), params: {}, context } as never));
    expect(listed.status).toBe(200);
    expect(listed.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await listed.json()).toEqual({
      count: 1,
      waiting: 1,
      followers: [
        {
          id: ann.id,
          name: "Ann Lee",
          email: "ann@family.test",
          topics: ["service", "reminders"],
          confirmedAt: "2026-01-02T10:05:00.000Z",
          createdAt: "2026-01-02T10:00:00.000Z",
        },
      ],
    });
    const stranger = await answer(() =>
      apiFollowers.loader({ request: request("/api/admin/followers", { signedIn: false }), params: {}, context } as never),
    );
    expect(stranger.status).toBe(401);
    const posted = await answer(() =>
      apiFollowers.action({ request: request("/api/admin/followers", { method: "POST" }), params: {}, context } as never),
    );
    expect([posted.status, posted.headers.get("Allow")]).toEqual([405, "GET"]);
  });
});

describe("DELETE /api/admin/followers/{id}", () => {
  const remove = (id: string, signedIn = true, method = "DELETE") =>
    answer(() =>
      apiFollower.action({ request: request(`/api/admin/followers/${id}`, { method, signedIn }), params: { id }, context } as never),
    );

  it("removes a follower: 204, then 404; 401 without a session; 405 for another method", async () => {
    const ann = addFollower("Ann Lee", "ann@family.test", ["new"]);
    expect((await remove(String(ann.id), false)).status).toBe(401);
    expect((await remove(String(ann.id), true, "PATCH")).status).toBe(405);
    const removed = await remove(String(ann.id));
    expect([removed.status, await removed.text()]).toEqual([204, ""]);
    expect(db.select().from(followers).all()).toEqual([]);
    const again = await remove(String(ann.id));
    expect([again.status, await again.json()]).toEqual([404, { errors: { id: ["There is no follower with this id"] } }]);
    // An id that is not a number is no follower either, as for the other admin routes.
    expect((await remove("abc")).status).toBe(404);
  });
});

describe("GET /api/admin/export/followers.csv", () => {
  it("is a download of the followers, in words, with formulas neutralised", async () => {
    addFollower('=HYPERLINK("http://evil.test")', "eve@family.test", ["service", "new", "reminders"]);
    addFollower("Ann Lee", "ann@family.test", ["reminders"]);
    addFollower("Waiting", "wait@family.test", ["new"], false);
    const csv = await answer(() =>
      followersCsv.loader({ request: request("/api/admin/export/followers.csv"), params: {}, context } as never),
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Disposition")).toMatch(/^attachment; filename="followers-\d{4}-\d\d-\d\d\.csv"$/);
    expect(csv.headers.get("Cache-Control")).toBe("private, no-store");
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe("Name,Email,Topics,Since");
    expect(lines[1]).toMatch(
      /^"'=HYPERLINK\(""http:\/\/evil.test""\)",eve@family.test,"the service, new memories, photos and videos and yearly reminders",2026-01-0\d \d\d:\d\d \S+$/,
    );
    expect(lines[2]).toMatch(/^Ann Lee,ann@family.test,yearly reminders,2026-01-0/);
    expect(lines).toHaveLength(3);
    const stranger = await answer(() =>
      followersCsv.loader({ request: request("/api/admin/export/followers.csv", { signedIn: false }), params: {}, context } as never),
    );
    expect(stranger.status).toBe(401);
  });
});

describe("the Remember tab", () => {
  const load = async () => {
    const page = await answer(() => rememberTab.loader({ request: request("/admin/remember"), params: {}, context } as never));
    return (await page.json()) as SerializeFrom<typeof rememberTab.loader>;
  };
  const save = (fields: Record<string, string | string[]>) =>
    answer(() => rememberTab.action({ request: form("/admin/remember", { intent: "save", ...fields }), params: {}, context } as never));

  it("needs the admin's session", async () => {
    const page = await answer(() =>
      rememberTab.loader({ request: request("/admin/remember", { signedIn: false }), params: {}, context } as never),
    );
    expect(page.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fremember");
  });

  it("saves the reminders, and refuses a value beside its field", async () => {
    const refused = await save({ birthday: "on", daysBefore: "31", sendAt: "09:00", words: "" });
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as { result: { error: Record<string, string[]> } };
    expect(reply.result.error).toEqual({ daysBefore: ["Days before must be a whole number from 0 to 30"] });
    expect(getRemembrance().birthday).toBe(false);

    const saved = await save({
      anniversary: "on",
      yahrzeit: "on",
      afterSunset: "on",
      daysBefore: "3",
      sendAt: "18:30",
      words: "Light a candle.",
    });
    expect([saved.status, saved.headers.get("Location")]).toEqual([302, "/admin/remember"]);
    expect(getRemembrance()).toEqual({
      birthday: false,
      anniversary: true,
      yahrzeit: true,
      afterSunset: true,
      daysBefore: 3,
      onTheDay: false,
      sendAt: "18:30",
      words: "Light a candle.",
    });
  });

  it("says which days the dates allow and when the chosen ones fall next", async () => {
    await changeSiteSettings({ birthDate: "1942", deathDate: "2025-01-09" });
    await save({ birthday: "on", anniversary: "on", yahrzeit: "on", daysBefore: "0", onTheDay: "on", sendAt: "09:00" });
    const data = await load();
    expect(data.known).toEqual({ birthday: false, anniversary: true, yahrzeit: true });
    expect(data.upcoming.map((day) => day.kind).sort()).toEqual(["anniversary", "yahrzeit"]);
    expect(data.upcoming.find((day) => day.kind === "yahrzeit")?.what).toMatch(/yahrzeit, \d+\w\w of Tevet, 57\d\d/);
  });

  it("lists the followers and removes one after asking", async () => {
    const ann = addFollower("Ann Lee", "ann@family.test", ["reminders"]);
    addFollower("Bob", "bob@family.test", ["new"], false);
    const data = await load();
    expect([data.count, data.waiting, data.followers.map((f) => f.email)]).toEqual([1, 1, ["ann@family.test"]]);
    const asked = await answer(() =>
      removePage.loader({ request: request(`/admin/remember/${ann.id}/remove`), params: { id: String(ann.id) }, context } as never),
    );
    expect(asked.status).toBe(200);
    const removed = await answer(() =>
      removePage.action({
        request: form(`/admin/remember/${ann.id}/remove`, { intent: "delete" }),
        params: { id: String(ann.id) },
        context,
      } as never),
    );
    expect([removed.status, removed.headers.get("Location")]).toEqual([302, "/admin/remember"]);
    expect(db.select({ email: followers.email }).from(followers).all()).toEqual([{ email: "bob@family.test" }]);
    const gone = await answer(() =>
      removePage.loader({ request: request(`/admin/remember/${ann.id}/remove`), params: { id: String(ann.id) }, context } as never),
    );
    expect(gone.status).toBe(404);
  });
});
