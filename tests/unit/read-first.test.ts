// "Let helpers read first": a choice of the family's in the Site tab and
// PATCH /api/admin/settings. With it on and a helper to read, new memories,
// photos and candles are the helpers' (the family's Pending tabs and the
// pending APIs do not list them unless asked), and so are the e-mails about
// them; with no helper it changes nothing. In process, on a real database.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // The site sends e-mail, so alerts are queued in the outbox (never sent here: no sender runs).
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "In Memory of Jo <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { adminUsers, candles, mailOutbox, memories, rsvps, siteSettings, uploads } from "../../db/schema";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { createRsvp } from "~/attendance/rsvp.server";
import { queueDueSummaries } from "~/mail/notifications.server";
import { lightCandle } from "~/candles/candles.server";
import { submitMemory, updateMemory } from "~/guestbook/memory.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { processingIdle } from "~/uploads/upload-processing.server";
import * as layout from "~/routes/admin";
import * as pendingTab from "~/routes/admin._index";
import * as uploadsTab from "~/routes/admin.uploads";
import * as apiPendingMemories from "~/routes/api.admin.pending-memories";
import * as apiPendingUploads from "~/routes/api.admin.pending-uploads";
import * as apiPendingCandles from "~/routes/api.admin.pending-candles";
import { setAdminRole } from "~/admins/admin.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { helpersReadFirst, readFirstInEffect } from "~/site/read-first.server";
import * as siteTab from "~/routes/admin.site";
import * as apiSettings from "~/routes/api.admin.settings";
import { answer, toastOf } from "../support/route-calls";
import { pendingPhoto } from "../support/moderation-fixtures";
import { familyAndHelper, requestsAs, type Who } from "../support/role-sessions";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.61.0.1" };
const family = operator("keeper");
const cookies = { family: "", helper: "" };
const ids = { keeper: 0, anna: 0 };

beforeAll(async () => {
  const both = await familyAndHelper(ORIGIN);
  Object.assign(cookies, both.cookies);
  Object.assign(ids, both.ids);
});
afterAll(() => processingIdle());
beforeEach(() => {
  db.delete(siteSettings).where(eq(siteSettings.key, "helpersReadFirst")).run();
  if (db.select().from(adminUsers).where(eq(adminUsers.id, ids.anna)).get()?.role !== "helper") setAdminRole(ids.anna, "helper", family);
});

const photo = (name: string) => pendingPhoto(name, "Ann Lee (ann@example.com)");
const { get, post } = requestsAs(ORIGIN, cookies);
const patchSettings = (body: unknown, who: Who = "family") =>
  answer(() =>
    apiSettings.action({
      request: new Request(`${ORIGIN}/api/admin/settings`, {
        method: "PATCH",
        headers: { Cookie: cookies[who], "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      params: {},
      context,
    } as never),
  );
const getSettings = async (who: Who = "family") =>
  answer(() => apiSettings.loader({ request: get("/api/admin/settings", who), params: {}, context } as never));

describe("the setting over the API", () => {
  it("is off by default, turned on and off with a boolean, and shown with every setting", async () => {
    expect(await (await getSettings()).json()).toMatchObject({ helpersReadFirst: false, personName: expect.any(String) });
    const on = await patchSettings({ helpersReadFirst: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ helpersReadFirst: true });
    expect(helpersReadFirst()).toBe(true);
    expect(await (await getSettings()).json()).toMatchObject({ helpersReadFirst: true });
    expect(await (await patchSettings({ helpersReadFirst: false })).json()).toMatchObject({ helpersReadFirst: false });
    expect(helpersReadFirst()).toBe(false);
  });

  it("refuses anything but true or false with a 400 naming it, and saves nothing else of that change", async () => {
    for (const value of ["yes", 1, null, "true"]) {
      const response = await patchSettings({ helpersReadFirst: value, siteTitle: "Never saved" });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ errors: { helpersReadFirst: ["Let helpers read first must be true or false"] } });
    }
    expect(helpersReadFirst()).toBe(false);
    expect(((await (await getSettings()).json()) as { siteTitle: string }).siteTitle).not.toBe("Never saved");
  });

  it("is the family's: a helper gets a 403 and changes nothing", async () => {
    const response = await patchSettings({ helpersReadFirst: true }, "helper");
    expect(response.status).toBe(403);
    expect(helpersReadFirst()).toBe(false);
  });
});

describe("the setting in the Site tab", () => {
  it("is a checkbox saved by its own form, which says when there is no helper yet", async () => {
    const saved = await answer(() =>
      siteTab.action({
        request: post("/admin/site", { section: "helpers", helpersReadFirst: "on" }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/admin/site?saved=helpers#helpers");
    expect(toastOf(saved)).toMatchObject({
      title: "Settings Saved",
      description: "New memories, photos and videos now go to your helpers first.",
    });
    expect(helpersReadFirst()).toBe(true);
    expect(readFirstInEffect()).toBe(true);
    const page = await (
      await answer(() => siteTab.loader({ request: get("/admin/site?saved=helpers", "family"), params: {}, context } as never))
    ).json();
    expect(page.readFirst).toEqual({ on: true, helpers: 1, saved: true });

    // Unticked, the box sends nothing: the setting is off.
    await answer(() => siteTab.action({ request: post("/admin/site", { section: "helpers" }, "family"), params: {}, context } as never));
    expect(helpersReadFirst()).toBe(false);

    // With no helper, on changes nothing, and the tab says so.
    setAdminRole(ids.anna, "family", family);
    await answer(() =>
      siteTab.action({
        request: post("/admin/site", { section: "helpers", helpersReadFirst: "on" }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(helpersReadFirst()).toBe(true);
    expect(readFirstInEffect()).toBe(false);
    const alone = await (
      await answer(() => siteTab.loader({ request: get("/admin/site", "family"), params: {}, context } as never))
    ).json();
    expect(alone.readFirst).toMatchObject({ on: true, helpers: 0 });
  });
});

const turnOn = () => patchSettings({ helpersReadFirst: true });
const loadJson = async (route: { loader: (args: never) => unknown }, url: string, who: Who) =>
  (await answer(() => route.loader({ request: get(url, who), params: {}, context } as never))).json();

describe("while helpers read first", () => {
  beforeEach(() => {
    db.delete(memories).run();
    db.delete(candles).run();
    db.delete(uploads).run();
  });

  it("the family's Pending Memories tab shows a notice, not the memories or candles, and shows them when asked", async () => {
    submitMemory(MemoryApiSchema.parse({ name: "Ann Lee", email: "ann@example.com", message: "A hard memory to read today." }));
    lightCandle({ name: "Ray", message: "Thinking of you" }, { clientIp: "203.0.113.20", visitorId: "ray" });
    await turnOn();

    const held = await loadJson(pendingTab, "/admin", "family");
    expect(held).toMatchObject({ readFirst: "held", memories: [], total: 1, candles: { candles: [], total: 1 } });
    expect(JSON.stringify(held)).not.toContain("A hard memory");
    const shown = await loadJson(pendingTab, "/admin?show=all", "family");
    expect(shown).toMatchObject({ readFirst: "shown", total: 1, memories: [expect.objectContaining({ name: "Ann Lee" })] });
    expect(shown.candles.candles).toHaveLength(1);
    const helpers = await loadJson(pendingTab, "/admin", "helper");
    expect(helpers).toMatchObject({ readFirst: null, memories: [expect.objectContaining({ message: "A hard memory to read today." })] });

    // The family's tab counts are plain, never marked as work waiting; the helper's as ever.
    expect(await loadJson(layout, "/admin", "family")).toMatchObject({ readFirst: true, counts: { memories: 1 } });
    expect(await loadJson(layout, "/admin", "helper")).toMatchObject({ readFirst: false });
  });

  it("a family admin who asked to see what waits comes back to it after each decision", async () => {
    const { id } = submitMemory(MemoryApiSchema.parse({ name: "Ann Lee", email: "ann@example.com", message: "Approved by the family." }));
    await turnOn();
    const approved = await answer(() =>
      pendingTab.action({
        request: post("/admin?index&show=all", { intent: "approve", id: String(id) }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(approved.headers.get("Location")).toBe("/admin?show=all");
    const uploadId = await photo("decided.jpg");
    const published = await answer(() =>
      uploadsTab.action({
        request: post("/admin/uploads?show=all", { intent: "approve", id: String(uploadId) }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(published.headers.get("Location")).toBe("/admin/uploads?show=all");
  });

  it("the family's Pending Uploads tab shows a notice, not the photos", async () => {
    const id = await photo("held.jpg");
    await turnOn();
    expect(await loadJson(uploadsTab, "/admin/uploads", "family")).toMatchObject({ readFirst: "held", uploads: [], waiting: 1 });
    expect(await loadJson(uploadsTab, "/admin/uploads?show=all", "family")).toMatchObject({
      readFirst: "shown",
      uploads: [expect.objectContaining({ id })],
    });
    expect(await loadJson(uploadsTab, "/admin/uploads", "helper")).toMatchObject({
      readFirst: null,
      uploads: [expect.objectContaining({ id })],
    });
  });

  it("the pending APIs answer the family empty lists unless asked (?show=all), and helpers everything", async () => {
    submitMemory(MemoryApiSchema.parse({ name: "Ann Lee", email: "ann@example.com", message: "A memory over the API." }));
    lightCandle({ name: "Ray", message: "Thinking of you" }, { clientIp: "203.0.113.21", visitorId: "ray-api" });
    const uploadId = await photo("api.jpg");
    await turnOn();

    expect(await loadJson(apiPendingMemories, "/api/admin/pending-memories", "family")).toEqual([]);
    expect(await loadJson(apiPendingUploads, "/api/admin/pending-uploads", "family")).toEqual([]);
    expect(await loadJson(apiPendingCandles, "/api/admin/pending-candles", "family")).toEqual({ candles: [], total: 1 });
    expect(await loadJson(apiPendingMemories, "/api/admin/pending-memories?show=all", "family")).toHaveLength(1);
    expect(await loadJson(apiPendingUploads, "/api/admin/pending-uploads?show=all", "family")).toEqual([
      expect.objectContaining({ id: uploadId }),
    ]);
    expect((await loadJson(apiPendingCandles, "/api/admin/pending-candles?show=all", "family")).candles).toHaveLength(1);
    expect(await loadJson(apiPendingMemories, "/api/admin/pending-memories", "helper")).toHaveLength(1);
    expect(await loadJson(apiPendingUploads, "/api/admin/pending-uploads", "helper")).toHaveLength(1);
    expect((await loadJson(apiPendingCandles, "/api/admin/pending-candles", "helper")).candles).toHaveLength(1);
  });

  it("with no helper, the family sees everything as before", async () => {
    submitMemory(MemoryApiSchema.parse({ name: "Ann Lee", email: "ann@example.com", message: "A memory for the family." }));
    await turnOn();
    setAdminRole(ids.anna, "family", family);
    expect(await loadJson(pendingTab, "/admin", "family")).toMatchObject({
      readFirst: null,
      memories: [expect.objectContaining({ name: "Ann Lee" })],
    });
    expect(await loadJson(apiPendingMemories, "/api/admin/pending-memories", "family")).toHaveLength(1);
    expect(await loadJson(layout, "/admin", "family")).toMatchObject({ readFirst: false });
  });
});

describe("e-mail alerts while helpers read first", () => {
  const outbox = () =>
    db
      .select({ kind: mailOutbox.kind, recipient: mailOutbox.recipient, text: mailOutbox.text })
      .from(mailOutbox)
      .all()
      .sort((a, b) => `${a.kind}${a.recipient}`.localeCompare(`${b.kind}${b.recipient}`));
  const choose = (id: number, email: string, mailChoice: "each" | "daily") =>
    db.update(adminUsers).set({ email, mailChoice, digestTime: "00:00", digestSentFor: null }).where(eq(adminUsers.id, id)).run();

  beforeEach(() => {
    db.delete(mailOutbox).run();
    db.delete(memories).run();
    db.delete(uploads).run();
    db.delete(rsvps).run();
  });

  it("each new memory and photo is told to the helpers alone; without read first, to the family too", async () => {
    choose(ids.keeper, "keeper@family.test", "each");
    choose(ids.anna, "anna@helper.test", "each");
    submitMemory(MemoryApiSchema.parse({ name: "Before", email: "before@example.com", message: "Sent before reading first." }));
    expect(outbox().map((row) => row.recipient)).toEqual(["anna@helper.test", "keeper@family.test"]);

    db.delete(mailOutbox).run();
    await turnOn();
    submitMemory(MemoryApiSchema.parse({ name: "After", email: "after@example.com", message: "Sent while helpers read first." }));
    await photo("alert.jpg");
    expect(outbox().map((row) => [row.kind, row.recipient])).toEqual([
      ["new-memory", "anna@helper.test"],
      ["new-upload", "anna@helper.test"],
    ]);
  });

  it("the daily summary of what waits goes to the helpers; the family's keeps to the RSVPs", async () => {
    choose(ids.keeper, "keeper@family.test", "daily");
    choose(ids.anna, "anna@helper.test", "daily");
    await turnOn();
    submitMemory(MemoryApiSchema.parse({ name: "Waiting", email: "waiting@example.com", message: "A memory that waits for the helpers." }));
    expect(queueDueSummaries()).toBe(1);
    expect(outbox()).toEqual([{ kind: "summary", recipient: "anna@helper.test", text: expect.stringContaining("A memory that waits") }]);

    db.delete(mailOutbox).run();
    choose(ids.keeper, "keeper@family.test", "daily");
    choose(ids.anna, "anna@helper.test", "daily");
    createRsvp(RsvpSchema.parse({ name: "Uncle Joe", email: "joe@example.com", guestCount: 2 }));
    expect(queueDueSummaries()).toBe(2);
    const family = outbox().find((row) => row.recipient === "keeper@family.test")!;
    expect(family.text).toContain("Uncle Joe");
    expect(family.text).not.toContain("A memory that waits");
    expect(family.text).not.toContain("Memories waiting");
  });

  it("the visitor's own notice, once the family publishes, is unchanged", async () => {
    await turnOn();
    const { id } = submitMemory(
      MemoryApiSchema.parse({
        name: "Asked",
        email: "asked@example.com",
        message: "Please tell me when it is up.",
        notifyWhenPublished: true,
      }),
    );
    updateMemory(id, { status: "APPROVED" }, family);
    expect(outbox()).toEqual([expect.objectContaining({ kind: "memory-published", recipient: "asked@example.com" })]);
  });
});
