// "Remember with us" as a visitor lives it, on a phone, with JavaScript on
// and off: they follow from the home page, confirm from the e-mail that
// arrives at a real SMTP server, and then receive what they chose (the
// service's change, the weekly digest, the anniversary and the yahrzeit on
// the right Hebrew date for a death after sunset), and stop it all with the
// link at the foot of one. The e2e server sends no e-mail, so this file
// starts a site of its own with a mail server (scripts/site-process.mjs).
import path from "node:path";
import { HDate, HebrewCalendar } from "@hebcal/core";
import { type APIRequestContext } from "@playwright/test";
import Database from "better-sqlite3";
import { type SiteProcess } from "../../scripts/site-process.mjs";
import { expectNoAxeViolations } from "./support/axe";
import { type ReceivedMail, type TestSmtpServer } from "../support/smtp-server";
import { startMailSite, type MailSite } from "./support/mail-site";
import { expect, test } from "./support/fixtures";

let mail: MailSite;
let smtp: TestSmtpServer;
let site: SiteProcess;
let dir: string;

// eslint-disable-next-line no-empty-pattern -- Playwright reads what a hook needs from this pattern: nothing.
test.beforeAll(async ({}, workerInfo) => {
  mail = await startMailSite("remember", 1100, workerInfo.parallelIndex, {
    // The service's news goes at once here (saves gather for 15 minutes by default).
    SERVICE_NEWS_WAIT_MINUTES: "0",
  });
  ({ smtp, site, dir } = mail);
});

test.afterAll(() => mail?.stop());

const asFamily = (request: APIRequestContext) => mail.asFamily(request);

async function settings(request: APIRequestContext, data: Record<string, unknown>) {
  const answer = await request.patch(`${site.origin}/api/admin/settings`, { data });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** The next e-mail to `email` whose subject matches, once it has arrived (the sender looks every minute at most). */
async function mailTo(email: string, subject: RegExp): Promise<ReceivedMail> {
  const find = () => smtp.received.find((mail) => mail.to.includes(email) && subject.test(mail.subject));
  await expect.poll(find, { timeout: 100_000, intervals: [250, 500, 1000] }).toBeDefined();
  return find()!;
}

const linkIn = (mail: ReceivedMail, prefix: string) => mail.links.find((href) => new URL(href).pathname.startsWith(prefix))!;

function followerRows(email: string): number {
  const file = new Database(path.join(dir, "memorial.db"), { readonly: true, fileMustExist: true });
  try {
    return (file.prepare("select count(*) as n from followers where email = ?").get(email) as { n: number }).n;
  } finally {
    file.close();
  }
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/**
 * A date of death, about a year ago, whose first yahrzeit is today only for
 * a death after sunset: the Hebrew day after it comes back today.
 */
function deathAfterSunsetRemembered(today: Date): string {
  const hebrewToday = new HDate(new Date(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 12));
  for (let back = 330; back < 420; back++) {
    const day = new Date(today.getTime() - back * 86_400_000);
    const local = new Date(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 12);
    const after = HebrewCalendar.getYahrzeit(hebrewToday.getFullYear(), new HDate(local).next());
    const before = HebrewCalendar.getYahrzeit(hebrewToday.getFullYear(), new HDate(local));
    if (after?.isSameDate(hebrewToday) && !before?.isSameDate(hebrewToday)) return iso(day);
  }
  throw new Error("no such day in the last year");
}

test(
  "a visitor follows on a phone, confirms from the e-mail, hears what they chose and stops it with one click",
  { tag: "@no-js" },
  async ({ page, request }, info) => {
    test.setTimeout(420_000);
    const width = info.project.name === "no-js" ? 320 : 390;
    await page.setViewportSize({ width, height: 800 });
    const email = `cousin.ellen.${info.project.name}@example.com`;
    await asFamily(request);
    const nextYear = new Date().getUTCFullYear() + 1;
    await settings(request, {
      personName: "Josephine Marsh",
      timeZone: "UTC",
      birthDate: "1942-03-14",
      deathDate: "",
      serviceStartsAt: `${nextYear}-06-12T14:00`,
      serviceEndsAt: `${nextYear}-06-12T16:00`,
      venueName: "St Mary's Hall",
      // The reminders are on (so the form offers them), with no date of death yet.
      remembrance: {
        birthday: false,
        anniversary: true,
        yahrzeit: false,
        afterSunset: false,
        daysBefore: 0,
        onTheDay: true,
        sendAt: "00:00",
      },
    });

    // 1. The form on the home page.
    await page.goto(`${site.origin}/`);
    const form = page.getByRole("region", { name: "Remember with us" });
    await form.getByLabel("Name *").fill("Cousin Ellen");
    await form.getByLabel("Email *").fill(email);
    await expect(form.getByLabel("Changes to the service, and a note after it")).toBeChecked();
    await expect(form.getByLabel("New memories, photos and videos (a weekly e-mail at most)")).toBeChecked();
    await expect(form.getByLabel("A reminder on the days we remember each year")).toBeChecked();
    await form.getByRole("button", { name: "Keep me posted" }).click();
    await expect(page).toHaveURL(/\/follow\?sent/);
    await expect(page.getByRole("status").filter({ hasText: "Check your e-mail" })).toBeVisible();
    await expectNoAxeViolations(page);

    // 2. The confirmation, opened from the e-mail.
    const confirmation = await mailTo(email, /^Please confirm/);
    await page.goto(linkIn(confirmation, "/follow/"));
    await expect(page.getByRole("heading", { level: 1, name: "Thank you, Cousin Ellen" })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "New memories, photos and videos" })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(followerRows(email)).toBe(1);

    // 3. The family moves the service.
    await settings(request, { venueName: "The Old Mill" });
    const moved = await mailTo(email, /the Celebration of Life has changed$/);
    expect(moved.text).toContain("Where: The Old Mill");

    // 4. The family publishes a memory: the week's digest.
    const signed = await request.post(`${site.origin}/api/guestbook`, {
      data: { name: "Dev Patel", email: "dev@example.com", message: "I remember the lake with Jo, every summer." },
    });
    const { id } = (await signed.json()) as { id: number };
    expect((await request.patch(`${site.origin}/api/admin/memories/${id}`, { data: { status: "APPROVED" } })).status()).toBe(200);
    const digest = await mailTo(email, /: 1 new memory$/);
    expect(digest.text).toContain("Dev Patel wrote:");

    // 5. The anniversary of the death, today.
    const today = new Date();
    const yearAgo = `${today.getUTCFullYear() - 1}-${iso(today).slice(5)}`;
    await settings(request, { deathDate: yearAgo, remembrance: { anniversary: true, words: "Light a candle with us tonight." } });
    const anniversary = await mailTo(email, /^Remembering Josephine Marsh today, on the anniversary$/);
    expect(anniversary.text).toContain("is the 1st anniversary of the death of Josephine Marsh");
    expect(anniversary.text).toContain("> Light a candle with us tonight.");

    // 6. The yahrzeit of a death after sunset, on today's Hebrew date.
    await settings(request, {
      deathDate: deathAfterSunsetRemembered(today),
      remembrance: { anniversary: false, yahrzeit: true, afterSunset: true },
    });
    const yahrzeit = await mailTo(email, /^Remembering Josephine Marsh today, on the yahrzeit$/);
    const hebrewToday = new HDate(new Date(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 12)).render("en");
    expect(yahrzeit.text).toContain(`(${hebrewToday})`);

    // 7. One click from the browser, on the link at the foot of the last one.
    await page.goto(linkIn(yahrzeit, "/unsubscribe/"));
    await page.getByRole("button", { name: "Stop these e-mails" }).click();
    await expect(page.getByRole("status").filter({ hasText: "No more e-mail" })).toBeVisible();
    expect(followerRows(email)).toBe(0);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  },
);

test("a refused request comes back with what was typed and each message, and nothing is sent", { tag: "@no-js" }, async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const before = smtp.received.length;
  await page.goto(`${site.origin}/follow`);
  await page.getByLabel("Name *").fill("Ann Lee");
  await page.getByLabel("Email *").fill("not an address");
  for (const box of await page.getByRole("checkbox").all()) await box.uncheck();
  await page.getByRole("button", { name: "Keep me posted" }).click();
  await expect(page.getByText("Valid email is required")).toBeVisible();
  await expect(page.getByText(/Choose at least one thing to hear about/)).toBeVisible();
  await expect(page.getByLabel("Name *")).toHaveValue("Ann Lee");
  await expect(page.getByLabel("Email *")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  expect(smtp.received.length).toBe(before);
});

test("after signing the guest book, the visitor is asked whether to hear from the family", { tag: "@no-js" }, async ({ page }, info) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`${site.origin}/guestbook`);
  await expect(page.getByRole("region", { name: "Remember with us" })).toHaveCount(0);
  // The guest book's own form: "Leave a voice memory" beside it has a "Name *" too.
  await page.locator("form#guestbook").getByLabel("Name *").fill("Aunt May");
  await page.getByLabel("Email *").fill(`aunt.may.${info.project.name}@example.com`);
  await page.getByLabel("Your Memory *").fill("Jo taught me to swim in the lake, one summer long ago.");
  await page.getByRole("button", { name: "Submit Memory" }).click();
  await expect(page.getByTestId("toast")).toContainText("Memory Submitted");
  const form = page.getByRole("region", { name: "Remember with us" });
  await expect(form).toContainText("Thank you for your memory. Would you like to hear from the family?");
  await expectNoAxeViolations(page);
  await form.getByLabel("Name *").fill("Aunt May");
  await form.getByLabel("Email *").fill(`aunt.may.${info.project.name}@example.com`);
  await form.getByRole("button", { name: "Keep me posted" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Check your e-mail" })).toBeVisible();
  await mailTo(`aunt.may.${info.project.name}@example.com`, /^Please confirm/);
  // The next visit to the guest book does not ask again.
  await page.goto(`${site.origin}/guestbook`);
  await expect(page.getByRole("region", { name: "Remember with us" })).toHaveCount(0);
});
