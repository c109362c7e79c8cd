// E-mail to the family and to visitors who asked, sent to a real SMTP server
// (smtp-server on loopback) and parsed back with mailparser. The outbox
// commits a message with its event; a failing or absent server never costs
// the event; sending is retried with backoff; a restart never sends a
// message twice. Real SQLite and storage on temporary folders; the sender's
// clock is the test's own.
import { createReadStream } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // The site sends e-mail (the transport is made by each test, to its own server).
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "In Memory of Jo <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { adminUsers, mailOutbox, mailSuppressions, memories, rsvps, uploads } from "../../db/schema";
import { operator, type AdminActor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { networkKey } from "~/platform/rate-limit.server";
import { smtpTransport, type MailTransport, type OutgoingMail } from "~/mail/transport.server";
import { upsertAdmin } from "~/admins/admin.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { submitMemory, updateMemory } from "~/guestbook/memory.server";
import {
  getMailPreferences,
  queueDueSummaries,
  queueNewUploadMail,
  saveMailPreferences,
  UPLOAD_MAIL_GATHER_MS,
} from "~/mail/notifications.server";
import { CLAIM_MS, listOutbox, MAX_WAITING_MAIL, outboxStatus, pruneMail, queueMail, retryDelay, retryMail } from "~/mail/outbox.server";
import { findUnsubscribe, unsubscribe } from "~/mail/unsubscribe.server";
import { MailSender } from "~/mail/sender.server";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { createRsvp } from "~/attendance/rsvp.server";
import { updateSiteSettings } from "~/site/settings.server";
import { SettingsPatch } from "~/site/settings.schema";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../support/smtp-server";
import { makeVoiceFile } from "../support/voice-fixtures";

const keeper = operator("keeper");
let smtp: TestSmtpServer;
/** The sender's clock: the real time (messages are queued at it), moved on by the tests. */
let ahead = 0;
const now = () => Date.now() + ahead;

function sender(transport: MailTransport = smtpTransport(smtp.url)) {
  return new MailSender({ transport, now });
}
/** Sends everything due, round after round, as the loop would. */
async function sendAll(using = sender()) {
  let sent = 0;
  for (let round = 0; round < 20; round++) {
    const n = await using.runOnce();
    sent += n;
    if (n === 0) break;
  }
  return sent;
}

async function addAdmin(username: string, preferences: { email?: string; mailChoice: "each" | "daily" | "none"; digestTime?: string }) {
  await upsertAdmin(username, `${username}-password`);
  const { id } = db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, username)).get()!;
  db.update(adminUsers)
    .set({
      email: preferences.email ?? null,
      mailChoice: preferences.mailChoice,
      digestTime: preferences.digestTime ?? "08:00",
      digestSentFor: null,
    })
    .where(eq(adminUsers.id, id))
    .run();
  return id;
}

function memory(name: string, options: { message?: string; notifyWhenPublished?: boolean; email?: string; canDisplay?: boolean } = {}) {
  return submitMemory(
    MemoryApiSchema.parse({
      name,
      email: options.email ?? `${name.split(" ")[0]!.toLowerCase()}@example.com`,
      message: options.message ?? `I remember the summer at the lake with ${name}.\nSecond line.\nThird line.\nFourth line.`,
      canDisplay: options.canDisplay ?? true,
      notifyWhenPublished: options.notifyWhenPublished ?? false,
    }),
  ).id;
}

async function photo(name: string, sender = "Ann Lee (ann@example.com)", notifyWhenPublished = false, clientIp?: string) {
  const bytes = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#6a8caf" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: name }, clientIp);
  const view = await registerFormUpload(key, { submittedBy: sender, originalName: name, notifyWhenPublished });
  await processingIdle();
  return view.id;
}

const linkPath = (mail: ReceivedMail, pattern: RegExp) => {
  const link = mail.links.find((href) => pattern.test(new URL(href).pathname));
  return link ? new URL(link).pathname : undefined;
};
const unsubscribeToken = (mail: ReceivedMail) =>
  linkPath(mail, /^\/unsubscribe\//)!
    .split("/")
    .pop()!;

beforeAll(async () => {
  smtp = await startSmtpServer();
  const result = await updateSiteSettings(SettingsPatch.parse({ personName: "Josephine Marsh", timeZone: "America/Los_Angeles" }), keeper);
  expect(result.ok).toBe(true);
});
afterAll(async () => {
  await processingIdle();
  await smtp.close();
});
beforeEach(async () => {
  ahead = 0;
  db.delete(mailOutbox).run();
  db.delete(memories).run();
  db.delete(uploads).run();
  db.delete(rsvps).run();
  db.delete(adminUsers).run();
  smtp.received.length = 0;
  smtp.refused.clear();
  if (!(await smtpReachable())) await smtp.up();
});
afterEach(() => {
  vi.useRealTimers();
});

async function smtpReachable() {
  const net = await import("node:net");
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(smtp.port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("an e-mail for each new item", () => {
  it("is committed with the memory, one per admin who chose it, and arrives in plain text and HTML with the names in the subject", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    await addAdmin("ben", { email: "ben@family.test", mailChoice: "daily" });
    await addAdmin("cy", { email: "cy@family.test", mailChoice: "none" });
    await addAdmin("dee", { mailChoice: "each" });
    const id = memory("Cousin Ellen");
    expect(listOutbox().map((row) => [row.kind, row.recipient])).toEqual([["new-memory", "anna@family.test"]]);

    expect(await sendAll()).toBe(1);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual(["anna@family.test"]);
    expect(mail!.from).toBe("memorial@memorial.test");
    expect(mail!.subject).toBe("Josephine Marsh: a new memory from Cousin Ellen waits for you");
    expect(mail!.text).toContain("Cousin Ellen wrote in the guest book:");
    expect(mail!.text).toContain("> I remember the summer at the lake with Cousin Ellen.");
    expect(mail!.text).not.toContain("Fourth line");
    expect(linkPath(mail!, /^\/admin\/memories\/\d+$/)).toBe(`/admin/memories/${id}`);
    expect(linkPath(mail!, /^\/admin\/email$/)).toBe("/admin/email");
    // Readable on a phone, and nothing fetched from elsewhere: no tracking pixel, no remote picture.
    expect(mail!.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(mail!.html).not.toMatch(/<img[^>]+src="https?:/);
    expect(mail!.header("list-unsubscribe")).toMatch(/^<http:\/\/memorial\.test\/unsubscribe\/[A-Za-z0-9_-]{32}>$/);
    expect(mail!.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    // Sent: the body (it held the unsubscribe link) is dropped, the record kept.
    expect(listOutbox()[0]).toMatchObject({ sentAt: expect.any(Date), text: null, html: null, unsubscribeUrl: null, attempts: 1 });
  });

  it("escapes what visitors wrote in the HTML part", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    memory("<b>Mallory</b>", {
      email: "mallory@example.com",
      message: 'Hello <img src="https://tracker.example/p.gif"> & goodbye, friends',
    });
    await sendAll();
    const [mail] = await smtp.waitFor(1);
    expect(mail!.html).toContain("&lt;b&gt;Mallory&lt;/b&gt;");
    expect(mail!.html).not.toContain('<img src="https://tracker');
  });

  it("keeps the memory's paragraph breaks in the HTML and the plain text, escaped", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    memory("Cousin Ellen", { message: "We sailed every summer.\n\n\nShe taught me <knots> & patience.\nAnd laughter." });
    await sendAll();
    const [mail] = await smtp.waitFor(1);
    const quote = /<blockquote[^>]*>([\s\S]*?)<\/blockquote>/.exec(mail!.html)?.[1] ?? "";
    const paragraphs = [...quote.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map((match) => match[1]);
    expect(paragraphs).toEqual(["We sailed every summer.", "She taught me &lt;knots&gt; &amp; patience.<br/>And laughter."]);
    expect(mail!.text).toContain("> We sailed every summer.\n>\n> She taught me <knots> & patience.\n> And laughter.");
  });

  it("one e-mail per sender for photos shared together, none for a sender's next photos within ten minutes", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    await photo("one.jpg");
    await photo("two.jpg");
    await photo("three.jpg", "Bo Smith (bo@example.com)");
    expect(listOutbox().map((row) => row.subject)).toEqual([
      "Josephine Marsh: Ann Lee shared 2 photos",
      "Josephine Marsh: Bo Smith shared a photo",
    ]);
    // It waits a moment for the rest of what the sender is sending.
    expect(await sendAll()).toBe(0);
    ahead += UPLOAD_MAIL_GATHER_MS;
    await sendAll();
    const mails = await smtp.waitFor(2);
    expect(linkPath(mails[0]!, /^\/admin\/uploads$/)).toBe("/admin/uploads");
    await photo("four.jpg");
    expect(listOutbox()).toHaveLength(2);
  });

  it("names every file sent together, in the HTML and the plain text", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    for (const name of ["lake.jpg", "boat <1>.jpg", "picnic.jpg"]) await photo(name);
    ahead += UPLOAD_MAIL_GATHER_MS;
    await sendAll();
    const [mail] = await smtp.waitFor(1);
    expect(mail!.subject).toBe("Josephine Marsh: Ann Lee shared 3 photos");
    expect(mail!.text).toContain("- lake.jpg\n- boat <1>.jpg\n- picnic.jpg");
    expect(mail!.html).toContain("<li>lake.jpg</li><li>boat &lt;1&gt;.jpg</li><li>picnic.jpg</li>");
  });

  it("groups by the sender's address and network, not the name typed: twenty names from one place are one e-mail", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    for (let i = 0; i < 20; i++) await photo(`p${i}.jpg`, `Visitor ${i} (same@example.com)`, false, "198.51.100.7");
    await photo("elsewhere.jpg", "Visitor (same@example.com)", false, "203.0.113.9");
    expect(listOutbox().map((row) => row.kind)).toEqual(["new-upload", "new-upload"]);
    // Each names what the address has sent since that e-mail's first file, under the name typed last.
    expect(listOutbox().map((row) => row.subject)).toEqual([
      "Josephine Marsh: Visitor 19 shared 20 photos",
      "Josephine Marsh: Visitor shared a photo",
    ]);
  });

  it("counts the ten minutes from the sender's first file, not from the clock's hour", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    const first = db
      .select()
      .from(uploads)
      .where(eq(uploads.id, await photo("one.jpg", undefined, false, "198.51.100.7")))
      .get()!;
    const second = db
      .select()
      .from(uploads)
      .where(eq(uploads.id, await photo("two.jpg", undefined, false, "198.51.100.7")))
      .get()!;
    const started = first.createdAt.getTime();
    // The second file, told of again at the last moment of the ten minutes, and once they are over.
    const tell = (minutes: number) =>
      db.transaction((tx) => queueNewUploadMail(tx, second, networkKey("198.51.100.7"), started + minutes * 60_000));
    tell(9.99);
    expect(listOutbox().map((row) => row.subject)).toEqual(["Josephine Marsh: Ann Lee shared 2 photos"]);
    tell(10);
    expect(listOutbox().map((row) => row.subject)).toEqual([
      "Josephine Marsh: Ann Lee shared 2 photos",
      "Josephine Marsh: Ann Lee shared a photo",
    ]);
  });
});

describe("a failing or absent SMTP server", () => {
  it("never fails or slows a guest book entry; the mail waits with backoff and arrives once the server is back", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    await smtp.down();
    const started = performance.now();
    const id = memory("Cousin Ellen");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(db.select().from(memories).where(eq(memories.id, id)).get()?.status).toBe("PENDING");

    const loop = sender();
    const tried = now();
    expect(await loop.runOnce()).toBe(0);
    const [row] = listOutbox();
    expect(row).toMatchObject({ attempts: 1, sentAt: null, failedAt: null, claimedUntil: null });
    expect(row!.lastError).toMatch(/ECONNRESET|ECONNECTION|closed/i);
    expect(row!.nextAttemptAt.getTime() - tried).toBeGreaterThanOrEqual(30_000);
    expect(row!.nextAttemptAt.getTime() - tried).toBeLessThan(32_000);
    expect(outboxStatus()).toMatchObject({ waiting: 1, problems: [{ id: row!.id, attempts: 1 }] });

    // Paused: nothing is tried again before the wait is over.
    await smtp.up();
    ahead += 28_000;
    expect(await loop.runOnce()).toBe(0);
    expect(listOutbox()[0]!.attempts).toBe(1);
    ahead += 4_000;
    expect(await loop.runOnce()).toBe(1);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.subject).toContain("Cousin Ellen");
    expect(outboxStatus()).toEqual({ waiting: 0, problems: [] });
  });

  it("gives up at once on an address the server refuses (550), shows it in the panel, and tries again when asked", async () => {
    await addAdmin("anna", { email: "nobody@family.test", mailChoice: "each" });
    smtp.refused.add("nobody@family.test");
    memory("Cousin Ellen");
    await sendAll();
    const [row] = listOutbox();
    expect(row).toMatchObject({ attempts: 1, sentAt: null, failedAt: expect.any(Date) });
    expect(row!.lastError).toMatch(/550/);
    expect(outboxStatus().problems).toEqual([expect.objectContaining({ recipient: "nobody@family.test", failedAt: expect.any(String) })]);
    // A refused address is about the message, not the server: the next message goes at once.
    memory("Uncle Joe", { email: "joe@example.com" });
    await addAdmin("ben", { email: "ben@family.test", mailChoice: "each" });
    memory("Aunt May");
    expect(await sendAll()).toBe(1);

    smtp.refused.clear();
    expect(retryMail(row!.id, keeper, now())).toBe(true);
    expect(await sendAll()).toBe(1);
    expect(smtp.received.map((mail) => mail.to[0])).toEqual(["ben@family.test", "nobody@family.test"]);
  });

  it("waits 30 s after the first failure, doubling to an hour, however many messages wait, on the loop's own timers", async () => {
    vi.useFakeTimers({ now: Date.now() });
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    // Three messages wait: a server that is down costs one attempt per pause, not one per message.
    for (const name of ["Cousin Ellen", "Uncle Joe", "Aunt May"]) memory(name);
    const attempts: number[] = [];
    let working = false;
    const transport: MailTransport = {
      send: async (_mail: OutgoingMail) => {
        attempts.push(Date.now());
        if (!working) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ESOCKET" });
      },
      close: () => {},
    };
    const loop = new MailSender({ transport });
    loop.start();
    await vi.advanceTimersByTimeAsync(10 * 60 * 60_000);
    const gaps = attempts.slice(1).map((at, i) => (at - attempts[i]!) / 1000);
    expect(gaps.slice(0, 9)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
    expect([retryDelay(1), retryDelay(8), retryDelay(30)]).toEqual([30_000, 3_600_000, 3_600_000]);
    working = true;
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(listOutbox().map((row) => row.sentAt !== null)).toEqual([true, true, true]);
    const tried = attempts.length;
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(attempts.length).toBe(tried);
    await loop.stop();
  });
});

describe("a restart while mail is queued", () => {
  it("sends every message exactly once: the message on its way is finished before stopping, the rest by the next process", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    for (let i = 1; i <= 7; i++) memory(`Friend ${i}`);
    smtp.hold();
    const first = sender();
    const round = first.runOnce();
    await vi.waitFor(() => expect(listOutbox().filter((row) => row.claimedUntil !== null)).toHaveLength(1));
    // The process is told to stop while its first message waits for the server's answer.
    const stopping = first.stop();
    smtp.release();
    await stopping;
    await round;
    expect(listOutbox().filter((row) => row.sentAt)).toHaveLength(1);

    // The next process sends the rest.
    expect(await sendAll()).toBe(6);
    const subjects = (await smtp.waitFor(7)).map((mail) => mail.subject).sort();
    expect(subjects).toEqual(
      Array.from({ length: 7 }, (_, i) => `Josephine Marsh: a new memory from Friend ${i + 1} waits for you`).sort(),
    );
    expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(7);
  });

  it("leaves a message another process claimed (it may be sending it) until its claim runs out", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    memory("Cousin Ellen");
    const [row] = listOutbox();
    db.update(mailOutbox)
      .set({ claimedUntil: new Date(now() + CLAIM_MS), attempts: 1 })
      .where(eq(mailOutbox.id, row!.id))
      .run();
    expect(await sendAll()).toBe(0);
    ahead += CLAIM_MS;
    expect(await sendAll()).toBe(1);
    expect(smtp.received).toHaveLength(1);
  });
});

describe("the daily summary", () => {
  const at = (iso: string) => Date.parse(iso);

  it("comes once a day at the admin's time in the site's time zone, lists what waits and links to each tab", async () => {
    const anna = await addAdmin("anna", { email: "anna@family.test", mailChoice: "daily", digestTime: "08:00" });
    memory("Cousin Ellen", { message: "We sang by the lake every summer.\nShe knew all the words." });
    const photoId = await photo("picnic.jpg");
    createRsvp(RsvpSchema.parse({ name: "Aunt Rose", email: "rose@example.com", guestCount: 3, notes: "With the kids" }));
    expect(listOutbox()).toEqual([]);

    // 07:59 in California is not yet; 08:00 is; a second look the same day sends nothing more.
    expect(queueDueSummaries(at("2025-09-02T14:59:00Z"))).toBe(0);
    expect(queueDueSummaries(at("2025-09-02T15:00:00Z"))).toBe(1);
    expect(queueDueSummaries(at("2025-09-02T22:00:00Z"))).toBe(0);
    expect(db.select().from(adminUsers).where(eq(adminUsers.id, anna)).get()?.digestSentFor).toBe("2025-09-02");

    await sendAll();
    const [mail] = await smtp.waitFor(1);
    expect(mail!.subject).toBe("Josephine Marsh: 1 memory and 1 photo or video wait for you, and 1 new RSVP");
    expect(mail!.text).toContain("> We sang by the lake every summer.");
    expect(mail!.text).toContain("Aunt Rose: 3 guests. “With the kids”");
    expect(linkPath(mail!, /^\/admin\/uploads\/\d+$/)).toBe(`/admin/uploads/${photoId}`);
    for (const tab of [/^\/admin$/, /^\/admin\/uploads$/, /^\/admin\/attendance$/]) expect(linkPath(mail!, tab)).toBeDefined();
    // The photo's thumbnail travels with the message (cid:), never fetched from the site.
    const thumbnail = mail!.attachments.find((attachment) => attachment.contentType === "image/jpeg");
    expect(thumbnail?.cid).toBe(`thumbnail-${photoId}@memorial`);
    expect(mail!.html).toContain(`src="cid:thumbnail-${photoId}@memorial"`);
    expect((await sharp(thumbnail!.content).metadata()).format).toBe("jpeg");

    // The next day, at the same time, what still waits comes again.
    expect(queueDueSummaries(at("2025-09-03T15:00:00Z"))).toBe(1);
  });

  it("keeps its local time across a change of the clocks, and says nothing on a day when nothing waits", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "daily", digestTime: "07:30" });
    // Nothing waits: no e-mail, and the day counts as done.
    expect(queueDueSummaries(at("2025-03-08T15:30:00Z"))).toBe(0);
    memory("Cousin Ellen");
    expect(queueDueSummaries(at("2025-03-08T23:00:00Z"))).toBe(0);
    // Clocks went forward on March 9th: 07:30 in California is now 14:30 UTC.
    expect(queueDueSummaries(at("2025-03-09T14:29:00Z"))).toBe(0);
    expect(queueDueSummaries(at("2025-03-09T14:30:00Z"))).toBe(1);
  });

  it("saving the choice after today's time starts tomorrow, never at once", async () => {
    const id = await addAdmin("anna", { mailChoice: "none" });
    memory("Cousin Ellen");
    // Anna herself, at the server (her session's check at the commit is admin-recheck.test.ts's part).
    const actor: AdminActor = { ...operator("anna"), id, username: "anna", sessionId: "anna's session" };
    const saved = saveMailPreferences(
      { email: "anna@family.test", mailChoice: "daily", digestTime: "08:00" },
      actor,
      at("2025-09-02T20:00:00Z"),
    );
    expect(saved).toEqual({ email: "anna@family.test", mailChoice: "daily", digestTime: "08:00", unsubscribed: false });
    expect(queueDueSummaries(at("2025-09-02T20:01:00Z"))).toBe(0);
    expect(queueDueSummaries(at("2025-09-03T15:00:00Z"))).toBe(1);
  });
});

describe("a visitor who asked to be told", () => {
  it("gets one e-mail once the family publishes the memory, never before and never twice", async () => {
    const asked = memory("Cousin Ellen", { notifyWhenPublished: true, email: "ellen@example.com" });
    const silent = memory("Uncle Joe", { email: "joe@example.com" });
    expect(listOutbox()).toEqual([]);
    updateMemory(silent, { status: "APPROVED" }, keeper);
    updateMemory(asked, { status: "APPROVED" }, keeper);
    updateMemory(asked, { status: "HIDDEN" }, keeper);
    updateMemory(asked, { status: "APPROVED" }, keeper);
    expect(listOutbox().map((row) => [row.kind, row.recipient])).toEqual([["memory-published", "ellen@example.com"]]);
    await sendAll();
    const [mail] = await smtp.waitFor(1);
    expect(mail!.subject).toBe("Your memory of Josephine Marsh is now on the memorial");
    expect(mail!.text).toContain("Dear Cousin Ellen,");
    expect(linkPath(mail!, /^\/guestbook$/)).toBe("/guestbook");
    expect(linkPath(mail!, /^\/admin/)).toBeUndefined();
    expect(unsubscribeToken(mail!)).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it("a memory rejected or left waiting writes to nobody", async () => {
    const id = memory("Mallory", { notifyWhenPublished: true, email: "victim@example.com" });
    updateMemory(id, { status: "REJECTED" }, keeper);
    expect(listOutbox()).toEqual([]);
  });

  it("gets one e-mail a day for the photos published, whatever their number", async () => {
    const ids = [await photo("a.jpg", "Bo Smith (bo@example.com)", true), await photo("b.jpg", "Bo Smith (bo@example.com)", true)];
    for (const id of ids) await setUploadStatus(id, "APPROVED", keeper);
    expect(listOutbox().map((row) => [row.kind, row.recipient])).toEqual([["uploads-published", "bo@example.com"]]);
    await sendAll();
    const [mail] = await smtp.waitFor(1);
    expect(mail!.subject).toBe("Your photos and videos of Josephine Marsh are now in the gallery");
  });

  it("gets an e-mail for each voice memory published, with where it plays, or that the family kept it", async () => {
    const voice = async (canDisplay: boolean) => {
      const file = makeVoiceFile(path.join(tmpdir(), "memorial-mail-voices"), "m4a", { seconds: 2 });
      const key = await storeFormUpload({ stream: createReadStream(file), filename: "memo.m4a" });
      const view = await registerFormUpload(key, {
        submittedBy: "Bo Smith (bo@example.com)",
        originalName: "memo.m4a",
        notifyWhenPublished: true,
        declaredType: "AUDIO",
        canDisplay,
      });
      await processingIdle();
      return view.id;
    };
    const shared = await voice(true);
    const kept = await voice(false);
    for (const id of [shared, kept]) await setUploadStatus(id, "APPROVED", keeper);
    await sendAll();
    const mails = await smtp.waitFor(2);
    const subjects = mails.map((mail) => mail.subject).sort();
    expect(subjects).toEqual([
      "The family has kept your voice memory of Josephine Marsh",
      "Your voice memory of Josephine Marsh is now on the guest book",
    ]);
    const onTheGuestBook = mails.find((mail) => mail.subject.startsWith("Your voice"))!;
    expect(linkPath(onTheGuestBook, /^\/voices\//)).toBe(`/voices/${shared}`);
    const keptMail = mails.find((mail) => mail.subject.startsWith("The family"))!;
    expect(keptMail.text).toContain("it is for the family only");
    expect(linkPath(keptMail, /^\/voices\//)).toBeUndefined();
  });
});

describe("a list of addresses", () => {
  it("is never written to, even from an upload that reached the database with one, and an outbox row holding one is never sent", async () => {
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "none" });
    // bo@example.com stopped all e-mail earlier.
    db.insert(mailSuppressions).values({ email: "bo@example.com", createdAt: new Date() }).run();
    const id = await photo("a.jpg", "Mallory (ann@example.com,bo@example.com,cy@example.com)", true);
    await setUploadStatus(id, "APPROVED", keeper);
    expect(listOutbox()).toEqual([]);

    db.insert(mailOutbox)
      .values({
        kind: "uploads-published",
        recipient: "ann@example.com, bo@example.com",
        subject: "Your photos",
        text: "Hello",
        html: "<p>Hello</p>",
        messageId: "<listed@memorial.test>",
        createdAt: new Date(),
        nextAttemptAt: new Date(),
      })
      .run();
    await sendAll();
    expect(smtp.received).toEqual([]);
    expect(listOutbox()[0]).toMatchObject({ sentAt: null, lastError: "the recipient is not one e-mail address" });
    expect(listOutbox()[0]!.failedAt).not.toBeNull();
  });
});

describe("while the mail server is away for long", () => {
  it("keeps the newest messages up to the cap, and shows the oldest as set aside in the panel", async () => {
    await smtp.down();
    await addAdmin("anna", { email: "anna@family.test", mailChoice: "each" });
    const queued = MAX_WAITING_MAIL + 3;
    db.transaction((tx) => {
      for (let i = 0; i < queued; i++) {
        queueMail(
          tx,
          {
            kind: "new-memory",
            recipient: "anna@family.test",
            compose: () => ({ subject: `Memory ${i}`, text: `Text ${i}`, html: `<p>${i}</p>` }),
          },
          now() + i,
        );
      }
    });
    const rows = listOutbox();
    expect(rows).toHaveLength(queued);
    const waiting = rows.filter((row) => !row.failedAt);
    expect(waiting).toHaveLength(MAX_WAITING_MAIL);
    expect(waiting.at(-1)!.subject).toBe(`Memory ${queued - 1}`);
    const setAside = rows.filter((row) => row.failedAt);
    expect(setAside.map((row) => row.subject)).toEqual(["Memory 0", "Memory 1", "Memory 2"]);
    for (const row of setAside) {
      expect(row).toMatchObject({ text: null, html: null, unsubscribeUrl: null });
      expect(row.lastError).toMatch(/^Not sent: more e-mails waited than the site keeps/);
    }
    expect(outboxStatus()).toMatchObject({ waiting: MAX_WAITING_MAIL });
    expect(outboxStatus().problems.map((entry) => entry.subject)).toEqual(expect.arrayContaining(["Memory 0", "Memory 1", "Memory 2"]));
    // Nothing is left of it to send again.
    expect(retryMail(setAside[0]!.id, keeper, now())).toBe(false);
  });
});

describe("messages given up on", () => {
  it("are kept 30 days, like sent ones, then go with their text and unsubscribe link", async () => {
    await addAdmin("anna", { email: "nobody@family.test", mailChoice: "each" });
    smtp.refused.add("nobody@family.test");
    memory("Cousin Ellen");
    await sendAll();
    const [row] = listOutbox();
    expect(row).toMatchObject({ failedAt: expect.any(Date), text: expect.stringContaining("Cousin Ellen") });
    expect(row!.unsubscribeUrl).toMatch(/\/unsubscribe\//);
    const failedAt = row!.failedAt!.getTime();
    pruneMail(failedAt + 29 * 24 * 60 * 60_000);
    expect(listOutbox()).toHaveLength(1);
    pruneMail(failedAt + 31 * 24 * 60 * 60_000);
    expect(listOutbox()).toEqual([]);
  });
});

describe("unsubscribing", () => {
  it("stops all e-mail to the address, an admin's choice becomes none, and choosing again in the panel brings it back", async () => {
    const id = await addAdmin("anna", { email: "Anna@Family.test", mailChoice: "each" });
    memory("Cousin Ellen");
    memory("Uncle Joe");
    await sender().runOnce();
    const [mail] = await smtp.waitFor(1);
    const token = unsubscribeToken(mail!);
    expect(findUnsubscribe(token)).toEqual({ email: "anna@family.test", done: false });
    expect(findUnsubscribe("x".repeat(32))).toBeUndefined();
    expect(unsubscribe(token)).toBe("anna@family.test");
    expect(findUnsubscribe(token)?.done).toBe(true);
    expect(getMailPreferences(id)).toMatchObject({ mailChoice: "none", unsubscribed: true });
    // What was waiting for the address is not sent, and nothing new is queued.
    memory("Aunt May");
    expect(listOutbox().filter((row) => !row.sentAt)).toEqual([]);
    expect(await sendAll()).toBe(0);
  });
});
