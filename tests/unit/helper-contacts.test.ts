// A helper reads what visitors send and who sent it, never how to reach
// them: every admin API answer and page loader that names a visitor gives
// her no e-mail address and no phone number (nor keys for them), the
// Published photos' search cannot match an address for her, and the e-mail
// alerts she chose name senders without one. The family's answers are as
// before. Routes are called in process, as Remix calls them, with each
// admin's own session; the database and the outbox are real.
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // The site sends e-mail, so the alerts are queued in the outbox (nothing is sent here).
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "In Memory of Jo <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { adminUsers, mailOutbox, type Role } from "../../db/schema";
import { createAdmin } from "~/admins/admin.server";
import { startAdminSession } from "~/admins/session.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { submitMemory, updateMemory } from "~/guestbook/memory.server";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { createRsvp } from "~/attendance/rsvp.server";
import { lightCandle } from "~/candles/candles.server";
import { queueDueSummaries } from "~/mail/notifications.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import * as apiPendingMemories from "~/routes/api.admin.pending-memories";
import * as apiPublishedMemories from "~/routes/api.admin.published-memories";
import * as apiMemory from "~/routes/api.admin.memories.$id";
import * as apiPendingUploads from "~/routes/api.admin.pending-uploads";
import * as apiPublishedUploads from "~/routes/api.admin.published-uploads";
import * as apiUpload from "~/routes/api.admin.uploads.$id";
import * as apiRotate from "~/routes/api.admin.uploads.$id.rotate";
import * as apiRsvpStats from "~/routes/api.admin.rsvps.stats";
import * as apiPendingCandles from "~/routes/api.admin.pending-candles";
import * as apiCandle from "~/routes/api.admin.candles.$id";
import * as pendingMemoriesPage from "~/routes/admin._index";
import * as memoryPage from "~/routes/admin.memories.$id";
import * as pendingUploadsPage from "~/routes/admin.uploads";
import * as uploadPage from "~/routes/admin.uploads.$id";
import * as publishedMemoriesPage from "~/routes/admin.published.memories";
import * as publishedUploadsPage from "~/routes/admin.published.uploads";
import * as editMemoryPage from "~/routes/admin.published.memories.$id.edit";
import * as attendancePage from "~/routes/admin.attendance";
import { answer } from "../support/route-calls";

const ORIGIN = "http://memorial.test";
const context = { clientIp: "10.44.0.1" };
/** How to reach Ellen, the visitor: what a helper must never read. */
const EMAIL = "ellen.private@example.com";
const PHONE = "+44 7700 900123";
const SENDER = `Ellen Moss (${EMAIL})`;
/** A visitor who typed her address where the share form asks for her name. */
const ROSA = "rosa.private@example.com";

const cookies = {} as Record<Role, string>;
const ids = { pendingMemory: 0, publishedMemory: 0, pendingUpload: 0, publishedUpload: 0, candle: 0 };

async function addAdmin(username: string, role: Role, mail: { mailChoice: "each" | "daily"; digestTime?: string }) {
  const { id } = await createAdmin({ username, password: `${username}-password`, role }, operator());
  db.update(adminUsers)
    .set({ email: `${username}@family.test`, mailChoice: mail.mailChoice, digestTime: mail.digestTime ?? "08:00", digestSentFor: null })
    .where(eq(adminUsers.id, id))
    .run();
  return id;
}

function memory(name: string) {
  return submitMemory(
    MemoryApiSchema.parse({ name, email: EMAIL, phone: PHONE, message: `I remember the summer at the lake with ${name}.` }),
  ).id;
}

async function photo(name: string, submittedBy: string) {
  const bytes = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#6a8caf" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: name });
  const view = await registerFormUpload(key, { submittedBy, originalName: name });
  await processingIdle();
  return view.id;
}

beforeAll(async () => {
  const family = await addAdmin("anna", "family", { mailChoice: "each" });
  const helper = await addAdmin("helen", "helper", { mailChoice: "each" });
  // The day's summary is due as soon as the day has begun.
  await addAdmin("hugo", "helper", { mailChoice: "daily", digestTime: "00:00" });
  for (const [role, id] of [
    ["family", family],
    ["helper", helper],
  ] as const) {
    cookies[role] = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id })).split(";")[0]!;
  }
  ids.pendingMemory = memory("Ellen Moss");
  ids.publishedMemory = memory("Ellen M.");
  updateMemory(ids.publishedMemory, { status: "APPROVED" }, operator());
  ids.pendingUpload = await photo("lake.jpg", SENDER);
  ids.publishedUpload = await photo("boat.jpg", SENDER);
  await setUploadStatus(ids.publishedUpload, "APPROVED", operator());
  createRsvp(RsvpSchema.parse({ name: "Ellen Moss", email: EMAIL, guestCount: 2, notes: "We will bring flowers." }));
  lightCandle({ name: "Ellen", message: "Always in our hearts" }, { clientIp: "192.0.2.44", visitorId: "e".repeat(32) });
  ids.candle = (await (await call(apiPendingCandles.loader, "family", "/api/admin/pending-candles")).json()).candles[0].id;
});
afterAll(() => processingIdle());

type RouteFunction = (args: never) => unknown;

/** Calls a loader or action as the admin of `role`. */
function call(route: RouteFunction, role: Role, path: string, init: RequestInit = {}, params: Record<string, string> = {}) {
  const headers = { Cookie: cookies[role], ...(init.body ? { "Content-Type": "application/json" } : {}) };
  const request = new Request(`${ORIGIN}${path}`, { ...init, headers });
  return answer(() => route({ request, params, context } as never));
}

/** The answer's JSON, as an API client or a page's loader data (Remix serialises it into the page) has it. */
async function dataOf(route: RouteFunction, role: Role, path: string, init: RequestInit = {}, params: Record<string, string> = {}) {
  const response = await call(route, role, path, init, params);
  expect(response.status, `${init.method ?? "GET"} ${path} as ${role}`).toBe(200);
  return response.json() as Promise<unknown>;
}

const patch = (body: object): RequestInit => ({ method: "PATCH", body: JSON.stringify(body) });

/** Every API answer and page loader naming a visitor: [what, route, address, request, params, whether it holds a phone number]. */
const answers = (): [string, RouteFunction, string, RequestInit, Record<string, string>, boolean][] => {
  const memory = { id: String(ids.publishedMemory) };
  const upload = { id: String(ids.publishedUpload) };
  return [
    ["GET /api/admin/pending-memories", apiPendingMemories.loader, "/api/admin/pending-memories", {}, {}, true],
    ["GET /api/admin/published-memories", apiPublishedMemories.loader, "/api/admin/published-memories", {}, {}, true],
    ["GET /api/admin/memories/{id}", apiMemory.loader, `/api/admin/memories/${memory.id}`, {}, memory, true],
    ["PATCH /api/admin/memories/{id}", apiMemory.action, `/api/admin/memories/${memory.id}`, patch({ status: "APPROVED" }), memory, true],
    ["GET /api/admin/pending-uploads", apiPendingUploads.loader, "/api/admin/pending-uploads", {}, {}, false],
    ["GET /api/admin/published-uploads", apiPublishedUploads.loader, "/api/admin/published-uploads", {}, {}, false],
    ["GET /api/admin/uploads/{id}", apiUpload.loader, `/api/admin/uploads/${upload.id}`, {}, upload, false],
    ["PATCH /api/admin/uploads/{id}", apiUpload.action, `/api/admin/uploads/${upload.id}`, patch({ status: "APPROVED" }), upload, false],
    [
      "POST /api/admin/uploads/{id}/rotate",
      apiRotate.action,
      `/api/admin/uploads/${ids.pendingUpload}/rotate`,
      { method: "POST", body: JSON.stringify({ direction: "left" }) },
      { id: String(ids.pendingUpload) },
      false,
    ],
    ["GET /api/admin/rsvps/stats", apiRsvpStats.loader, "/api/admin/rsvps/stats", {}, {}, false],
    ["Pending Memories", pendingMemoriesPage.loader, "/admin", {}, {}, true],
    ["a memory's review page", memoryPage.loader, `/admin/memories/${ids.pendingMemory}`, {}, { id: String(ids.pendingMemory) }, true],
    ["Pending Uploads", pendingUploadsPage.loader, "/admin/uploads", {}, {}, false],
    ["an upload's preview", uploadPage.loader, `/admin/uploads/${ids.pendingUpload}`, {}, { id: String(ids.pendingUpload) }, false],
    ["Published memories", publishedMemoriesPage.loader, "/admin/published/memories", {}, {}, true],
    ["Published photos and videos", publishedUploadsPage.loader, "/admin/published/uploads", {}, {}, false],
    ["the edit page", editMemoryPage.loader, `/admin/published/memories/${memory.id}/edit`, {}, memory, true],
    ["Attendance", attendancePage.loader, "/admin/attendance", {}, {}, false],
  ];
};

describe("what a helper reads of a visitor", () => {
  it("is never her e-mail address or phone number, in any API answer or page loader", async () => {
    for (const [what, route, path, init, params] of answers()) {
      const text = JSON.stringify(await dataOf(route, "helper", path, init, params));
      expect(text, what).not.toContain(EMAIL);
      expect(text, what).not.toContain(PHONE);
      // Left out, not emptied: no key says there was one.
      expect(text, what).not.toMatch(/"(email|phone)":/);
    }
  });

  it("is, for the family, everything as before", async () => {
    for (const [what, route, path, init, params, holdsPhone] of answers()) {
      const text = JSON.stringify(await dataOf(route, "family", path, init, params));
      expect(text, what).toContain(EMAIL);
      if (holdsPhone) expect(text, what).toContain(PHONE);
    }
  });

  it("keeps the shapes otherwise: the same memory less its two keys, and a sender by name", async () => {
    const path = `/api/admin/memories/${ids.publishedMemory}`;
    const params = { id: String(ids.publishedMemory) };
    const family = (await dataOf(apiMemory.loader, "family", path, {}, params)) as Record<string, unknown>;
    const helper = await dataOf(apiMemory.loader, "helper", path, {}, params);
    expect(family).toMatchObject({ email: EMAIL, phone: PHONE });
    const { email: _email, phone: _phone, ...rest } = family;
    expect(helper).toEqual(rest);

    const [familyUpload] = (await dataOf(apiPendingUploads.loader, "family", "/api/admin/pending-uploads")) as Record<string, unknown>[];
    const [helperUpload] = (await dataOf(apiPendingUploads.loader, "helper", "/api/admin/pending-uploads")) as Record<string, unknown>[];
    expect(familyUpload!.submittedBy).toBe(SENDER);
    expect(helperUpload).toEqual({ ...familyUpload, submittedBy: "Ellen Moss" });
  });

  it("gives the attendance counts and the names, guests and dates", async () => {
    const stats = await dataOf(apiRsvpStats.loader, "helper", "/api/admin/rsvps/stats");
    expect(stats).toEqual({
      totalRsvps: 1,
      totalGuests: 2,
      rsvps: [
        { id: expect.any(Number), name: "Ellen Moss", guestCount: 2, createdAt: expect.any(String), notes: "We will bring flowers." },
      ],
    });
  });

  it("holds nothing of a candle's visitor but the name and words she gave", async () => {
    for (const role of ["helper", "family"] as const) {
      const { candles } = (await dataOf(apiPendingCandles.loader, role, "/api/admin/pending-candles")) as { candles: object[] };
      const one = (await dataOf(apiCandle.loader, role, `/api/admin/candles/${ids.candle}`, {}, { id: String(ids.candle) })) as object;
      for (const candle of [...candles, one]) {
        expect(Object.keys(candle).sort()).toEqual([
          "counted",
          "createdAt",
          "id",
          "message",
          "moderatedAt",
          "moderatedBy",
          "name",
          "setAside",
          "status",
        ]);
      }
    }
  });
});

describe("searching the published photos", () => {
  const search = async (role: Role, q: string, page = false) => {
    const path = `${page ? "/admin/published/uploads" : "/api/admin/published-uploads"}?q=${encodeURIComponent(q)}`;
    const data = await dataOf(page ? publishedUploadsPage.loader : apiPublishedUploads.loader, role, path);
    const items = page ? (data as { page: { items: { id: number }[] } }).page.items : (data as { id: number }[]);
    return items.map((item) => item.id);
  };

  it("finds a sender by her address for the family only; a helper finds her by the name she reads", async () => {
    for (const page of [false, true]) {
      expect(await search("family", "ellen.private", page)).toEqual([ids.publishedUpload]);
      expect(await search("helper", "ellen.private", page)).toEqual([]);
      expect(await search("helper", "example.com", page)).toEqual([]);
      expect(await search("helper", "moss", page)).toEqual([ids.publishedUpload]);
      expect(await search("helper", "boat", page)).toEqual([ids.publishedUpload]);
    }
  });
});

describe("the e-mail alerts a helper chose", () => {
  const queuedTo = (recipient: string) => db.select().from(mailOutbox).where(eq(mailOutbox.recipient, recipient)).all();
  const contents = (recipient: string) => queuedTo(recipient).map((row) => [row.subject, row.text, row.html].join("\n"));

  it("name the visitors without their addresses or phone numbers, however they wrote their names", async () => {
    // Rosa typed her address where her name goes: the family's alert names her by it, a helper's does not.
    await photo("rosa.jpg", `${ROSA} (${ROSA})`);
    expect(queueDueSummaries()).toBeGreaterThanOrEqual(1);

    const helen = contents("helen@family.test");
    expect(queuedTo("helen@family.test").map((row) => row.kind)).toEqual(
      expect.arrayContaining(["new-memory", "new-memory", "new-upload", "new-upload"]),
    );
    expect(helen.join("\n")).toContain("Ellen Moss");
    const hugo = contents("hugo@family.test");
    expect(queuedTo("hugo@family.test").map((row) => row.kind)).toEqual(["summary"]);
    expect(hugo.join("\n")).toContain("Photo from Ellen Moss");
    for (const message of [...helen, ...hugo]) {
      expect(message).not.toContain(EMAIL);
      expect(message).not.toContain(PHONE);
      expect(message).not.toContain(ROSA);
    }
    expect(helen.join("\n")).toContain("Someone shared a photo");

    // The family's are as before.
    expect(contents("anna@family.test").join("\n")).toContain(`${ROSA} shared a photo`);
  });
});
