// "Stop these e-mails" as a person uses it: a real e-mail arrives at a real
// SMTP server, its link is opened on a phone, and the button is pressed,
// with JavaScript on and off. The browser sends what browsers send (the
// page's Referrer-Policy decides its Origin), never a hand-made request.
// The e2e server sends no e-mail, so this file starts a site of its own with
// a mail server (scripts/site-process.mjs).
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import Database from "better-sqlite3";
import { type SiteProcess } from "../../scripts/site-process.mjs";
import { type TestSmtpServer } from "../support/smtp-server";
import { startMailSite, type MailSite } from "./support/mail-site";
import { expect, test } from "./support/fixtures";

let mail: MailSite;
let smtp: TestSmtpServer;
let site: SiteProcess;
let dir: string;

// eslint-disable-next-line no-empty-pattern -- Playwright reads what a hook needs from this pattern: nothing.
test.beforeAll(async ({}, workerInfo) => {
  mail = await startMailSite("unsubscribe", 1000, workerInfo.parallelIndex);
  ({ smtp, site, dir } = mail);
});

test.afterAll(() => mail?.stop());

const adminApi = (request: APIRequestContext) => mail.asFamily(request);

/** Signs the guest book as `name`, asking to be told; the family publishes it; resolves with the e-mail that tells them. */
async function mailToVisitor(request: APIRequestContext, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`;
  const signed = await request.post(`${site.origin}/api/guestbook`, {
    data: { name, email, message: `I remember the lake with ${name}.`, notifyWhenPublished: true },
  });
  expect(signed.status()).toBe(201);
  const { id } = (await signed.json()) as { id: number };
  await adminApi(request);
  expect((await request.patch(`${site.origin}/api/admin/memories/${id}`, { data: { status: "APPROVED" } })).status()).toBe(200);
  await expect.poll(() => smtp.received.find((mail) => mail.to.includes(email)), { timeout: 30_000 }).toBeDefined();
  return { email, mail: smtp.received.find((mail) => mail.to.includes(email))! };
}

function isSuppressed(email: string): boolean {
  const file = new Database(path.join(dir, "memorial.db"), { readonly: true, fileMustExist: true });
  try {
    return file.prepare("select 1 from mail_suppressions where email = ?").get(email) !== undefined;
  } finally {
    file.close();
  }
}

for (const width of [320, 414]) {
  test(`a visitor stops the e-mails from the link in one, on a ${width} px phone`, { tag: "@no-js" }, async ({ page, request }, info) => {
    await page.setViewportSize({ width, height: 800 });
    const { email, mail } = await mailToVisitor(request, `Cousin Ellen ${info.project.name} ${width}`);
    const link = mail.links.find((href) => new URL(href).pathname.startsWith("/unsubscribe/"));
    expect(link).toBeDefined();

    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1, name: "E-mail from the memorial" })).toBeVisible();
    await expect(page.getByText(/Stop all e-mail from .* to c•••@example\.com\?/)).toBeVisible();
    expect(isSuppressed(email)).toBe(false);

    await page.getByRole("button", { name: "Stop these e-mails" }).click();
    await expect(page.getByRole("status")).toContainText("No more e-mail");
    await expect(page.getByText("This form must be sent from this website")).toHaveCount(0);
    expect(isSuppressed(email)).toBe(true);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  });
}

test(
  "an old or unknown unsubscribe link says it has expired and gives the family's address",
  { tag: "@no-js" },
  async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await adminApi(request);
    expect((await request.patch(`${site.origin}/api/admin/settings`, { data: { contactEmail: "family@ellen.test" } })).status()).toBe(200);

    const answer = await page.goto(`${site.origin}/unsubscribe/${"x".repeat(32)}`);
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "This link has expired" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "family@ellen.test" })).toHaveAttribute(
      "href",
      "mailto:family@ellen.test",
    );
    await expect(page.getByRole("button", { name: "Stop these e-mails" })).toHaveCount(0);
  },
);
