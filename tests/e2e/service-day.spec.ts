import { readFile } from "node:fs/promises";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

// The service day: guests add the service to their calendars from the home
// page until it is over; the family prints cards with QR codes from the
// admin panel's Print tab. Both projects run each test (JavaScript on and off).

test.afterEach(() => resetSiteSettings());

const PERSON = "Margaret Ellen Hughes";

test(
  "the service card offers “Add to calendar” until the service is over, and the file names the service",
  { tag: "@no-js" },
  async ({ page }) => {
    await changeSiteSettings({
      personName: PERSON,
      serviceTitle: "Memorial Service",
      serviceStartsAt: "2099-06-06T11:00",
      serviceEndsAt: "2099-06-06T13:30",
      timeZone: "Europe/London",
    });
    await page.goto("/#service");
    const card = page.locator("#service");
    await expect(card).toContainText("Join us on Saturday, June 6th, 2099");
    const add = card.getByRole("link", { name: "Add to calendar" });
    await expect(add).toHaveAttribute("href", "/service.ics");
    await hydrated(page);
    const [download] = await Promise.all([page.waitForEvent("download"), add.click()]);
    expect(download.suggestedFilename()).toBe("memorial-service-for-margaret-ellen-hughes.ics");
    const ics = await readFile((await download.path())!, "utf8");
    expect(ics).toContain("SUMMARY:Memorial Service for Margaret Ellen Hughes\r\n");
    // 11:00 in London in June is British Summer Time: 10:00 UTC.
    expect(ics).toContain("DTSTART:20990606T100000Z\r\n");

    await changeSiteSettings({ serviceStartsAt: "2025-08-31T16:00", serviceEndsAt: "2025-08-31T20:00" });
    await page.reload();
    await expect(card).toContainText("The service was held on Sunday, August 31st, 2025");
    await expect(card.getByRole("link", { name: "View on Map" })).toBeVisible();
    await expect(card.getByRole("link", { name: "Add to calendar" })).toHaveCount(0);
  },
);

test(
  "the Print tab lays out four cards with the name, the date and working QR codes, ready to print",
  { tag: "@no-js" },
  async ({ page, login }) => {
    const javaScript = test.info().project.use.javaScriptEnabled !== false;
    await changeSiteSettings({ personName: PERSON, serviceStartsAt: "2099-06-06T11:00", serviceEndsAt: "2099-06-06T13:30" });
    await login(page);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Print" }).click();
    await expect(page).toHaveURL(/\/admin\/print$/);
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Printed cards" })).toBeVisible();

    const sheet = page.getByRole("group", { name: "Cards to print" });
    const cards = sheet.getByRole("article");
    await expect(cards).toHaveCount(4);
    await expect(cards).toHaveText([
      /Scan to sign the guest book/,
      /Scan to share photos & videos/,
      /Scan to sign the guest book/,
      /Scan to share photos & videos/,
    ]);
    for (const card of await cards.all()) {
      await expect(card).toContainText(PERSON);
      await expect(card).toContainText("Saturday, June 6th, 2099");
    }
    const origin = new URL(page.url()).host;
    const guestbookCode = cards
      .first()
      .getByRole("img", { name: `QR code for ${new URL(page.url()).protocol === "https:" ? "" : "http://"}${origin}/guestbook` });
    // Named after the address it holds, so a browser never shows a code kept for an older one.
    await expect(guestbookCode).toHaveAttribute("src", `/qr/guestbook.svg?for=${encodeURIComponent(origin)}`);
    await expect(cards.nth(1).getByRole("img")).toHaveAttribute("src", `/qr/share.svg?for=${encodeURIComponent(origin)}`);
    // The tab was reached by a link: its images may still be arriving.
    const loaded = () => sheet.getByRole("img").evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth));
    await expect.poll(loaded).toEqual([480, 480, 480, 480]);

    // Printing: a button with JavaScript, a sentence saying how without it.
    const print = page.getByRole("button", { name: "Print", exact: true });
    const hint = page.getByText("use your browser's Print command");
    if (javaScript) {
      await expect(hint).toBeHidden();
      await page.evaluate(() => {
        window.print = () => document.documentElement.setAttribute("data-printed", "yes");
      });
      await print.click();
      await expect(page.locator("html")).toHaveAttribute("data-printed", "yes");
    } else {
      await expect(print).toBeHidden();
      await expect(hint).toBeVisible();
    }
    await expectNoAxeViolations(page);

    // On paper, the sheet alone: 188 × 256 mm, which fits A4 and Letter.
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("navigation", { name: "Admin sections" })).toBeHidden();
    await expect(page.getByRole("heading", { name: "Printed cards" })).toBeHidden();
    await expect(page.locator("header").first()).toBeHidden();
    await expect(cards.first()).toBeVisible();
    const box = (await sheet.boundingBox())!;
    const MM = 96 / 25.4;
    expect([Math.round(box.width / MM), Math.round(box.height / MM)]).toEqual([188, 256]);
    await page.emulateMedia({ media: "screen" });

    // Another choice of cards, through a plain GET form.
    await page.getByRole("radio", { name: "Four “Scan to share photos & videos”" }).check();
    await page.getByRole("button", { name: "Show these cards" }).click();
    await expect(page).toHaveURL(/\/admin\/print\?cards=share$/);
    await expect(cards).toHaveText(Array(4).fill(/Scan to share photos & videos/));
    await expect(page.getByRole("radio", { name: "Four “Scan to share photos & videos”" })).toBeChecked();
  },
);
