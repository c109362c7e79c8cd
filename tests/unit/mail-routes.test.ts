// The pages and calls around e-mail, called as Remix calls them: the E-mail
// tab and its JSON twin, the visitors' "E-mail me…" checkboxes, the
// unsubscribe page (and a mail program's one-click POST), and a summary's
// links, each answering 200 for an admin. Messages go to a real SMTP server
// (smtp-server on loopback) and are parsed back with mailparser.
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "Memorial <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { adminUsers, mailOutbox, mailSuppressions, memories, rsvps, uploads } from "../../db/schema";
import { startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { smtpTransport } from "~/mail/transport.server";
import { upsertAdmin } from "~/admins/admin.server";
import { queueDueSummaries } from "~/mail/notifications.server";
import { listOutbox } from "~/mail/outbox.server";
import { MailSender } from "~/mail/sender.server";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { createRsvp } from "~/attendance/rsvp.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { resetUploadLimits } from "~/uploads/upload-intake.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { resetSubmissionLimits } from "~/platform/submission-limit.server";
import * as layout from "~/routes/admin";
import * as pendingMemories from "~/routes/admin._index";
import * as attendance from "~/routes/admin.attendance";
import * as emailTab from "~/routes/admin.email";
import * as memoryDetails from "~/routes/admin.memories.$id";
import * as pendingUploads from "~/routes/admin.uploads";
import * as uploadPreview from "~/routes/admin.uploads.$id";
import * as apiEmail from "~/routes/api.admin.email";
import * as apiRetry from "~/routes/api.admin.outbox.$id.retry";
import * as apiGuestbook from "~/routes/api.guestbook";
import * as guestbook from "~/routes/guestbook";
import * as share from "~/routes/share";
import * as unsubscribePage from "~/routes/unsubscribe.$token";
import { answer } from "../support/route-calls";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";

const ORIGIN = "http://memorial.test";
const context = { clientIp: "10.60.0.1" };
let smtp: TestSmtpServer;
let cookie: string;
let keeperId: number;

beforeAll(async () => {
  smtp = await startSmtpServer();
  await upsertAdmin("keeper", "the-right-password");
  keeperId = db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!.id;
  cookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id: keeperId, username: "keeper" })).split(";")[0]!;
});
afterAll(async () => {
  await processingIdle();
  await smtp.close();
});
beforeEach(() => {
  db.delete(mailOutbox).run();
  db.delete(mailSuppressions).run();
  db.delete(memories).run();
  db.delete(uploads).run();
  db.delete(rsvps).run();
  db.update(adminUsers).set({ email: null, mailChoice: "none", digestSentFor: null }).run();
  smtp.received.length = 0;
  resetSubmissionLimits();
  resetUploadLimits();
});

const get = (path: string, withCookie = true) => new Request(`${ORIGIN}${path}`, { headers: withCookie ? { Cookie: cookie } : {} });
const post = (path: string, fields: Record<string, string>, withCookie = true) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(withCookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });
const json = (path: string, method: string, body: unknown) =>
  new Request(`${ORIGIN}${path}`, { method, headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(body) });
const sendAll = async () => {
  const loop = new MailSender({ transport: smtpTransport(smtp.url) });
  let sent = 0;
  for (let n = await loop.runOnce(); n > 0; n = await loop.runOnce()) sent += n;
  return sent;
};

describe("the E-mail tab", () => {
  it("saves the admin's own address and choice, with the same rules as PATCH /api/admin/email", async () => {
    const page = await answer(() => emailTab.loader({ request: get("/admin/email"), params: {}, context } as never));
    expect(await page.json()).toMatchObject({
      enabled: true,
      preferences: { email: null, mailChoice: "none", digestTime: "08:00", unsubscribed: false },
      outbox: { waiting: 0, problems: [] },
    });
    const refused = await answer(() =>
      emailTab.action({
        request: post("/admin/email", { intent: "save", email: "not an address", mailChoice: "each" }),
        params: {},
        context,
      } as never),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { result: { error: Record<string, string[]> } }).result.error.email).toEqual([
      "Enter a valid e-mail address",
    ]);
    const noAddress = await answer(() =>
      emailTab.action({
        request: post("/admin/email", { intent: "save", mailChoice: "daily", digestTime: "07:30" }),
        params: {},
        context,
      } as never),
    );
    expect(((await noAddress.json()) as { result: { error: Record<string, string[]> } }).result.error.email).toEqual([
      "Enter the address to send e-mail to",
    ]);
    const saved = await answer(() =>
      emailTab.action({
        request: post("/admin/email", { intent: "save", email: "keeper@family.test", mailChoice: "daily", digestTime: "07:30" }),
        params: {},
        context,
      } as never),
    );
    expect([saved.status, saved.headers.get("Location")]).toEqual([302, "/admin/email"]);
    expect(db.select().from(adminUsers).where(eq(adminUsers.id, keeperId)).get()).toMatchObject({
      email: "keeper@family.test",
      mailChoice: "daily",
      digestTime: "07:30",
    });

    const patched = await answer(() =>
      apiEmail.action({
        request: json("/api/admin/email", "PATCH", { email: "k@family.test", mailChoice: "each" }),
        params: {},
        context,
      } as never),
    );
    expect(await patched.json()).toEqual({ email: "k@family.test", mailChoice: "each", digestTime: "08:00", unsubscribed: false });
    const wrong = await answer(() =>
      apiEmail.action({
        request: json("/api/admin/email", "PATCH", { mailChoice: "hourly", digestTime: "25:00" }),
        params: {},
        context,
      } as never),
    );
    expect([wrong.status, Object.keys(((await wrong.json()) as { errors: object }).errors).sort()]).toEqual([
      400,
      ["digestTime", "mailChoice"],
    ]);
    const stranger = await answer(() => apiEmail.loader({ request: get("/api/admin/email", false), params: {}, context } as never));
    expect(stranger.status).toBe(401);
  });

  it("lists what could not be sent, and Try again now sends it (form and API)", async () => {
    db.update(adminUsers).set({ email: "nobody@family.test", mailChoice: "each" }).where(eq(adminUsers.id, keeperId)).run();
    smtp.refused.add("nobody@family.test");
    const id = await answer(() =>
      apiGuestbook.action({
        request: json("/api/guestbook", "POST", { name: "Ann", email: "ann@example.com", message: "A memory of the lake." }),
        params: {},
        context,
      } as never),
    );
    expect(id.status).toBe(201);
    await sendAll();
    const page = await answer(() => emailTab.loader({ request: get("/admin/email"), params: {}, context } as never));
    const { outbox } = (await page.json()) as { outbox: { problems: { id: number; recipient: string; lastError: string }[] } };
    expect(outbox.problems).toEqual([
      expect.objectContaining({ recipient: "nobody@family.test", lastError: expect.stringContaining("550") }),
    ]);
    smtp.refused.clear();
    const retried = await answer(() =>
      emailTab.action({
        request: post("/admin/email", { intent: "retry", id: String(outbox.problems[0]!.id) }),
        params: {},
        context,
      } as never),
    );
    expect(retried.headers.get("Location")).toBe("/admin/email");
    expect(await sendAll()).toBe(1);
    expect(smtp.received.map((mail) => mail.to[0])).toEqual(["nobody@family.test"]);
    const again = await answer(() =>
      apiRetry.action({
        request: json(`/api/admin/outbox/${outbox.problems[0]!.id}/retry`, "POST", {}),
        params: { id: String(outbox.problems[0]!.id) },
        context,
      } as never),
    );
    expect(again.status).toBe(404);
  });
});

describe("a summary's links", () => {
  it("each answer 200 for an admin: the three tabs, each memory and each photo", async () => {
    db.update(adminUsers)
      .set({ email: "keeper@family.test", mailChoice: "daily", digestTime: "00:00" })
      .where(eq(adminUsers.id, keeperId))
      .run();
    await answer(() =>
      apiGuestbook.action({
        request: json("/api/guestbook", "POST", { name: "Ann", email: "ann@example.com", message: "A memory of the lake." }),
        params: {},
        context,
      } as never),
    );
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#446688" } })
      .jpeg()
      .toBuffer();
    const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: "lake.jpg" });
    await registerFormUpload(key, { submittedBy: "Bo (bo@example.com)", originalName: "lake.jpg" });
    await processingIdle();
    createRsvp(RsvpSchema.parse({ name: "Cy", email: "cy@example.com", guestCount: 2 }));
    expect(queueDueSummaries()).toBe(1);
    await sendAll();
    const [mail] = await smtp.waitFor(1);
    const paths = [...new Set(mail!.links.map((href) => new URL(href).pathname))].filter((path) => path.startsWith("/admin"));
    const routes: [RegExp, (args: never) => unknown][] = [
      [/^\/admin$/, pendingMemories.loader],
      [/^\/admin\/uploads$/, pendingUploads.loader],
      [/^\/admin\/attendance$/, attendance.loader],
      [/^\/admin\/memories\/(\d+)$/, memoryDetails.loader],
      [/^\/admin\/uploads\/(\d+)$/, uploadPreview.loader],
      [/^\/admin\/email$/, emailTab.loader],
    ];
    expect(paths.length).toBeGreaterThanOrEqual(6);
    for (const path of paths) {
      const route = routes.find(([pattern]) => pattern.test(path));
      expect(route, path).toBeDefined();
      const id = route![0].exec(path)![1];
      for (const loader of [layout.loader, route![1]]) {
        const response = await answer(() => loader({ request: get(path), params: id ? { id } : {}, context } as never));
        expect(response.status, path).toBe(200);
      }
    }
  });
});

describe("the visitors' checkboxes", () => {
  it("the guest book offers 'E-mail me when the family has added my memory' and keeps the wish, from the form and the API", async () => {
    const page = await answer(() => guestbook.loader({ request: get("/guestbook", false), params: {}, context } as never));
    expect(((await page.json()) as { notifyOffered: boolean }).notifyOffered).toBe(true);
    const fields = { name: "Ann", email: "ann@example.com", message: "A memory of the lake.", canDisplay: "on" };
    await answer(() =>
      guestbook.action({ request: post("/guestbook", { ...fields, notifyWhenPublished: "on" }, false), params: {}, context } as never),
    );
    await answer(() =>
      guestbook.action({
        request: post("/guestbook", { ...fields, name: "Bo", message: "Another memory here." }, false),
        params: {},
        context,
      } as never),
    );
    await answer(() =>
      apiGuestbook.action({
        request: json("/api/guestbook", "POST", {
          name: "Cy",
          email: "cy@example.com",
          message: "A third memory here.",
          notifyWhenPublished: true,
        }),
        params: {},
        context,
      } as never),
    );
    expect(db.select({ name: memories.name, notify: memories.notifyWhenPublished }).from(memories).all()).toEqual([
      { name: "Ann", notify: true },
      { name: "Bo", notify: false },
      { name: "Cy", notify: true },
    ]);
  });

  it("the share form keeps 'E-mail me when the family has added my photos and videos'", async () => {
    const page = await answer(() => share.loader({ request: get("/share", false), params: {}, context } as never));
    expect(((await page.json()) as { notifyOffered: boolean }).notifyOffered).toBe(true);
    const form = new FormData();
    form.append("name", "Bo Smith");
    form.append("email", "bo@example.com");
    form.append("notify", "on");
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#664422" } })
      .jpeg()
      .toBuffer();
    form.append("files", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "garden.jpg");
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const request = new Request(`${ORIGIN}/share`, {
      method: "POST",
      headers: { "Content-Type": encoded.headers.get("Content-Type")!, "Content-Length": String(body.length) },
      body,
    });
    const response = await answer(() => share.action({ request, params: {}, context } as never));
    expect(response.status).toBe(302);
    await processingIdle();
    expect(db.select({ submittedBy: uploads.submittedBy, notify: uploads.notifyWhenPublished }).from(uploads).all()).toEqual([
      { submittedBy: "Bo Smith (bo@example.com)", notify: true },
    ]);
  });
});

describe("the unsubscribe page, /unsubscribe/{token}", () => {
  async function tokenFromMail() {
    db.update(adminUsers).set({ email: "keeper@family.test", mailChoice: "each" }).where(eq(adminUsers.id, keeperId)).run();
    await answer(() =>
      apiGuestbook.action({
        request: json("/api/guestbook", "POST", { name: "Ann", email: "ann@example.com", message: "A memory of the lake." }),
        params: {},
        context,
      } as never),
    );
    await sendAll();
    const [mail] = await smtp.waitFor(1);
    return new URL(mail!.links.find((href) => href.includes("/unsubscribe/"))!).pathname.split("/").pop()!;
  }

  it("asks first without logging in (opening it changes nothing), then stops the e-mail", async () => {
    const token = await tokenFromMail();
    const params = { token };
    const question = await answer(() => unsubscribePage.loader({ request: get(`/unsubscribe/${token}`, false), params, context } as never));
    expect(question.status).toBe(200);
    expect(await question.json()).toMatchObject({ expired: false, email: "k•••@family.test", done: false });
    expect(db.select().from(adminUsers).where(eq(adminUsers.id, keeperId)).get()?.mailChoice).toBe("each");

    const done = await answer(() =>
      unsubscribePage.action({ request: post(`/unsubscribe/${token}`, {}, false), params, context } as never),
    );
    expect([done.status, done.headers.get("Location")]).toEqual([302, `/unsubscribe/${token}`]);
    expect(db.select().from(adminUsers).where(eq(adminUsers.id, keeperId)).get()?.mailChoice).toBe("none");
    const after = await answer(() => unsubscribePage.loader({ request: get(`/unsubscribe/${token}`, false), params, context } as never));
    expect(await after.json()).toMatchObject({ expired: false, email: "k•••@family.test", done: true });
    await answer(() =>
      apiGuestbook.action({
        request: json("/api/guestbook", "POST", { name: "Bo", email: "bo@example.com", message: "Another memory." }),
        params: {},
        context,
      } as never),
    );
    expect(listOutbox().filter((row) => !row.sentAt)).toEqual([]);
  });

  it("answers a mail program's one-click POST (RFC 8058) with a plain 200, and an unknown link with 404", async () => {
    const token = await tokenFromMail();
    const oneClick = await answer(() =>
      unsubscribePage.action({
        request: post(`/unsubscribe/${token}`, { "List-Unsubscribe": "One-Click" }, false),
        params: { token },
        context,
      } as never),
    );
    expect([oneClick.status, await oneClick.text()]).toEqual([200, "Unsubscribed."]);
    for (const wrong of ["A".repeat(32), "short", "../../admin"]) {
      const page = await answer(() =>
        unsubscribePage.loader({ request: get(`/unsubscribe/${wrong}`, false), params: { token: wrong }, context } as never),
      );
      expect(page.status, wrong).toBe(404);
      const press = await answer(() =>
        unsubscribePage.action({ request: post(`/unsubscribe/${wrong}`, {}, false), params: { token: wrong }, context } as never),
      );
      expect(press.status, wrong).toBe(404);
    }
  });
});
