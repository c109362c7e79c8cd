// Issue 46 as a visitor lives it: the family has chosen English, Spanish and
// Arabic. On a 320 px phone, with JavaScript off and on, she switches to
// Spanish from the header, signs the guest book with a mistake and reads the
// error in Spanish, follows the site and receives the confirmation in
// Spanish; the Arabic pages read right to left without overflow. Its own
// site with a real SMTP server (the e2e server sends no e-mail).
import { type APIRequestContext, type Page } from "@playwright/test";
import { type SiteProcess } from "../../scripts/site-process.mjs";
import { translate } from "~/i18n/i18n.server";
import { expectNoAxeViolations } from "./support/axe";
import { type TestSmtpServer } from "../support/smtp-server";
import { startMailSite, type MailSite } from "./support/mail-site";
import { expect, test } from "./support/fixtures";

const es = translate("es");
const ar = translate("ar");

let mail: MailSite;
let smtp: TestSmtpServer;
let site: SiteProcess;

// eslint-disable-next-line no-empty-pattern -- Playwright reads what a hook needs from this pattern: nothing.
test.beforeAll(async ({}, workerInfo) => {
  mail = await startMailSite("languages", 1200, workerInfo.parallelIndex);
  ({ smtp, site } = mail);
});

test.afterAll(() => mail?.stop());

const asFamily = (request: APIRequestContext) => mail.asFamily(request);

async function noSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, "the page is no wider than the screen").toBeLessThanOrEqual(widths.client);
}

test(
  "on a phone, a visitor switches to Spanish, signs with a mistake, reads why in Spanish and follows in Spanish",
  { tag: "@no-js" },
  async ({ page, request }, info) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 320, height: 740 });
    await asFamily(request);
    const patched = await request.patch(`${site.origin}/api/admin/settings`, {
      data: { languages: ["en", "es", "ar"], mainLanguage: "en", personName: "Josephine Marsh" },
    });
    expect(patched.status(), await patched.text()).toBe(200);

    // The home page in English (the browser asks for English), then Spanish from the header's list.
    await page.goto(`${site.origin}/`);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.getByRole("banner").getByRole("link", { name: "Español" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await noSidewaysScroll(page);

    // The choice stays for the next page, reached by a plain link.
    await page
      .getByRole("contentinfo")
      .getByRole("link", { name: es("common.nav.guestBook") })
      .click();
    await expect(page).toHaveURL(/\/guestbook$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(es("guestbook.title"));

    // A mistake: no name. The reason is in Spanish, beside the field; what she typed is kept.
    const write = page.getByRole("region", { name: es("guestbook.writeTitle") });
    const message = "Recuerdo las tardes en el lago con Josephine, y su risa al atardecer.";
    await write.getByLabel(es("guestbook.form.email")).fill(`lucia.${info.project.name}@example.com`);
    await write.getByLabel(es("guestbook.form.message")).fill(message);
    await write.getByRole("button", { name: es("guestbook.form.submit"), exact: true }).click();
    await expect(write.getByText(es("guestbook.errors.nameRequired")).first()).toBeVisible();
    await expect(write.getByLabel(es("guestbook.form.message"))).toHaveValue(message);
    await write.getByLabel(es("guestbook.form.name")).fill("Lucía Fernández");
    await write.getByRole("button", { name: es("guestbook.form.submit"), exact: true }).click();
    await expect(page.getByText(es("guestbook.submitted.title")).first()).toBeVisible();
    await expectNoAxeViolations(page);

    // She follows the site from the home page, in Spanish, and the confirmation comes in Spanish.
    const email = `lucia.follow.${info.project.name}@example.com`;
    await page.goto(`${site.origin}/`);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    const form = page.getByRole("region", { name: es("follow.title") });
    await form.getByLabel(es("follow.form.name")).fill("Lucía Fernández");
    await form.getByLabel(es("follow.form.email")).fill(email);
    await form.getByRole("button", { name: es("follow.form.button") }).click();
    await expect(page.getByText(es("follow.sent.title")).first()).toBeVisible();
    const subject = es("mail.confirm.subject", { person: "Josephine Marsh" });
    await expect.poll(() => smtp.received.find((mail) => mail.to.includes(email))?.subject, { timeout: 100_000 }).toBe(subject);
    const mail = smtp.received.find((received) => received.to.includes(email))!;
    expect(mail.header("Content-Language")).toBe("es");
    expect(mail.text).toContain(es("mail.confirm.start"));
    expect(mail.html).toMatch(/<html[^>]* lang="es"/);

    // The Arabic pages read right to left, with nothing wider than the phone.
    for (const urlPath of ["/", "/guestbook", "/share", "/gallery", "/poems", "/rsvp", "/voices"]) {
      await page.goto(`${site.origin}${urlPath}?lang=ar`);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.locator("html")).toHaveAttribute("lang", "ar");
      await noSidewaysScroll(page);
    }
    await expect(
      page
        .getByRole("banner")
        .getByRole("link", { name: ar("common.nav.home") })
        .first(),
    ).toBeAttached();
  },
);
