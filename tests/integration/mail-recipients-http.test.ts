// Nobody can make the site write to a list of people: a visitor's e-mail
// address, on the share form and in POST /api/uploads/complete, is one
// mailbox by the guest book's rule, or the upload is refused with the guest
// book's words. Tried against the production server with a real SMTP server:
// once the family publishes everything, no listed address has been written to.
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCookieFor, manageSites, postJson, request, scratchDir, startSite, type Site } from "../support/site-process";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";

manageSites();

const ADMIN = { username: "keeper", password: "recipients-test-password" };
const LIST = "ann@example.com,bo@example.com,cy@example.com";
let smtp: TestSmtpServer;
let photo: Buffer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#6a8caf" } })
    .jpeg()
    .toBuffer();
});
afterAll(() => smtp.close());

const startMailingSite = () =>
  startSite(scratchDir(), {
    SMTP_URL: smtp.url,
    MAIL_FROM: "Memorial <memorial@memorial.test>",
    PUBLIC_URL: "http://memorial.test",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  });

/** The family publishes every pending upload (each once its processing is done); resolves with how many there were. */
async function publishEverything(site: Site, cookie: string) {
  const pending = JSON.parse((await request(site.port, "GET", "/api/admin/pending-uploads", { headers: { Cookie: cookie } })).body) as {
    id: number;
  }[];
  for (const { id } of pending) {
    for (let attempt = 0; ; attempt++) {
      const published = await request(site.port, "PATCH", `/api/admin/uploads/${id}`, {
        body: JSON.stringify({ status: "APPROVED" }),
        headers: { "Content-Type": "application/json", Cookie: cookie },
      });
      if (published.status === 200) break;
      if (attempt > 300) throw new Error(`publishing ${id}: ${published.status} ${published.body}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return pending.length;
}

/** Signs, stores and completes one photo through the API, as the share page's uploader does. */
async function shareOne(site: Site, submittedBy: string, originalName: string) {
  const signed = await postJson(site.port, "/api/uploads/sign", { filename: originalName, size: photo.length });
  expect(signed.status, signed.body).toBe(200);
  const { uploadURL } = JSON.parse(signed.body) as { uploadURL: string };
  const target = new URL(uploadURL);
  const stored = await request(site.port, "PUT", target.pathname + target.search, {
    body: photo,
    headers: { "Content-Type": "image/jpeg" },
  });
  expect(stored.status, stored.body).toBeLessThan(300);
  const completed = await postJson(site.port, "/api/uploads/complete", { uploadURL, submittedBy, originalName });
  expect(completed.status, completed.body).toBe(201);
}

/** Everyone the SMTP server has been asked to deliver to. */
const everyRecipient = () => smtp.received.flatMap((mail) => mail.to);

describe("a visitor's e-mail address is one mailbox", () => {
  it("the share form refuses a list of addresses in Email with the guest book's words, and keeps nothing", async () => {
    smtp.received.length = 0;
    const site = await startMailingSite();
    const cookie = await adminCookieFor(site, ADMIN);
    const form = new FormData();
    form.set("name", "Mallory");
    form.set("email", LIST);
    form.set("notify", "on");
    form.set("files", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "lake.jpg");
    const answer = await fetch(`${site.origin}/share`, { method: "POST", body: form, redirect: "manual" });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("Valid email is required");

    expect(await publishEverything(site, cookie)).toBe(0);
    expect(everyRecipient().filter((to) => LIST.includes(to))).toEqual([]);
  });

  it("POST /api/uploads/complete refuses a submittedBy whose address is a list: 400 with errors.email", async () => {
    smtp.received.length = 0;
    const site = await startMailingSite();
    const cookie = await adminCookieFor(site, ADMIN);
    const signed = await postJson(site.port, "/api/uploads/sign", { filename: "lake.jpg", size: photo.length });
    expect(signed.status, signed.body).toBe(200);
    const { uploadURL } = JSON.parse(signed.body) as { uploadURL: string };
    const target = new URL(uploadURL);
    const stored = await request(site.port, "PUT", target.pathname + target.search, {
      body: photo,
      headers: { "Content-Type": "image/jpeg" },
    });
    expect(stored.status, stored.body).toBeLessThan(300);

    for (const submittedBy of [`Mallory (${LIST})`, "Mallory (ann@example.com bo@example.com)", "Mallory (<ann@example.com>)"]) {
      const refused = await postJson(site.port, "/api/uploads/complete", { uploadURL, submittedBy, notifyWhenPublished: true });
      expect([refused.status, JSON.parse(refused.body)], submittedBy).toEqual([400, { errors: { email: ["Valid email is required"] } }]);
    }

    expect(await publishEverything(site, cookie)).toBe(0);
    // The same upload with one address is accepted, and the e-mail goes to that address alone.
    const accepted = await postJson(site.port, "/api/uploads/complete", {
      uploadURL,
      submittedBy: "Ann Lee (ann@example.com)",
      notifyWhenPublished: true,
    });
    expect(accepted.status, accepted.body).toBe(201);
    expect(await publishEverything(site, cookie)).toBe(1);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual(["ann@example.com"]);
    expect(everyRecipient().filter((to) => to !== "ann@example.com")).toEqual([]);
  });

  it("twenty names typed with one address from one network make one alert for the family, naming every file", async () => {
    const site = await startMailingSite();
    const cookie = await adminCookieFor(site, ADMIN);
    const chosen = await request(site.port, "PATCH", "/api/admin/email", {
      body: JSON.stringify({ email: "keeper@family.test", mailChoice: "each" }),
      headers: { "Content-Type": "application/json", Cookie: cookie },
    });
    expect(chosen.status, chosen.body).toBe(200);
    for (let i = 0; i < 20; i++) await shareOne(site, `Name ${i} (same@example.com)`, `photo-${i}.jpg`);
    const file = new Database(path.join(site.dir, "memorial.db"), { readonly: true, fileMustExist: true });
    try {
      const alerts = file.prepare("select subject, text from mail_outbox where kind = 'new-upload'").all() as {
        subject: string;
        text: string;
      }[];
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.subject).toContain("shared 20 photos");
      for (let i = 0; i < 20; i++) expect(alerts[0]!.text).toContain(`- photo-${i}.jpg`);
    } finally {
      file.close();
    }
  });
});
