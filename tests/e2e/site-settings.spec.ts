import { type Page } from "@playwright/test";
import { content } from "~/content";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import sharp from "sharp";
import { changeSiteSettings, removeSiteMedia, resetSiteSettings } from "./support/data";
import { expect, test, type LogIn } from "./support/fixtures";

// The family changes the site from the admin panel's Site tab, on a phone,
// with JavaScript on and off (both projects run every test), and the next
// page a visitor opens shows it.

test.use({ viewport: { width: 390, height: 844 } });

test.beforeEach(() => resetSiteSettings());
test.afterEach(async () => {
  await removeSiteMedia();
  resetSiteSettings();
});

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const toast = (page: Page) => page.getByTestId("toast");

async function openSiteTab(page: Page, login: LogIn) {
  await login(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Site" }).click();
  await expect(page).toHaveURL(/\/admin\/site$/);
  await hydrated(page);
}

test("the Site tab shows every setting with its current value, and has no accessibility violations", async ({ page, login }) => {
  await openSiteTab(page, login);
  for (const name of [
    "The memorial",
    "Welcome messages",
    "The service",
    "Contact and privacy note",
    "Donation card",
    "Privacy",
    "Karen Mode",
  ]) {
    await expect(section(page, name).getByRole("heading", { name, exact: true })).toBeVisible();
  }
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(content.personName);
  await expect(page.getByLabel("Start")).toHaveValue(content.serviceStartsAt);
  await expect(page.getByLabel("Time zone")).toHaveValue(content.timeZone);
  await expect(page.getByRole("radio", { name: "Public" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Classic" })).toBeChecked();
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  await expectNoAxeViolations(page);
});

test(
  "a family member changes the name and the service, and the home page shows them on its next load",
  { tag: "@no-js" },
  async ({ page, login }) => {
    await openSiteTab(page, login);
    const memorial = section(page, "The memorial");
    await memorial.getByLabel("Name", { exact: true }).fill("Margaret Ellen Hughes");
    await memorial.getByRole("button", { name: "Save the memorial" }).click();
    await expect(memorial.getByRole("status")).toContainText("Settings Saved");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Margaret Ellen Hughes");

    const service = section(page, "The service");
    await service.getByLabel("Start").fill("2099-06-06T11:00");
    await service.getByLabel("End").fill("2099-06-06T13:30");
    await service.getByLabel("Time zone").selectOption("Europe/London");
    await service.getByLabel("Venue").fill("St Mary's Church");
    await service.getByLabel("Note").fill("Reception to follow");
    await service.getByRole("button", { name: "Save the service" }).click();
    await expect(service.getByRole("status")).toContainText("Settings Saved");

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("In Loving Memory of Margaret Ellen Hughes");
    await expect(page).toHaveTitle("In Loving Memory of Margaret Ellen Hughes");
    const card = page.locator("#service");
    await expect(card).toContainText("Saturday, June 6th, 2099 · 11:00 am to 1:30 pm");
    await expect(card).toContainText("Join us on Saturday, June 6th, 2099 at St Mary's Church.");
    await expect(card).toContainText("Reception to follow");
    // Before the service, the welcome message for before it.
    await expect(section(page, "Thank You For Visiting")).toContainText("Please join us to celebrate a life");
  },
);

test("a refused value comes back beside its field with what was typed, and nothing changes", { tag: "@no-js" }, async ({ page, login }) => {
  await openSiteTab(page, login);
  const service = section(page, "The service");
  await service.getByLabel("Venue").fill("The Old Barn");
  await service.getByLabel("End").fill("2025-08-31T09:00");
  await service.getByRole("button", { name: "Save the service" }).click();
  await expect(service.getByRole("alert").getByRole("link", { name: "End must be after the start" })).toBeVisible();
  await expect(service.locator("#site-service-serviceEndsAt-error")).toHaveText("End must be after the start");
  await expect(service.getByLabel("Venue")).toHaveValue("The Old Barn");
  await expect(service.getByLabel("End")).toHaveAttribute("aria-invalid", "true");
  await page.goto("/");
  await expect(page.locator("#service")).toContainText(content.venueName);
});

test("the welcome message switches by itself once the service is over", async ({ page }) => {
  await changeSiteSettings({
    serviceStartsAt: "2099-01-01T10:00",
    serviceEndsAt: "2099-01-01T12:00",
    welcomeMessage: "We hope to see you there.",
  });
  await page.goto("/");
  await expect(section(page, "Thank You For Visiting")).toContainText("We hope to see you there.");
  await changeSiteSettings({
    serviceStartsAt: "2020-01-01T10:00",
    serviceEndsAt: "2020-01-01T12:00",
    welcomeMessageAfter: "Thank you all for coming.",
  });
  await page.goto("/");
  await expect(section(page, "Thank You For Visiting")).toContainText("Thank you all for coming.");
  await expect(page.locator("#service")).toContainText("The service was held on Wednesday, January 1st, 2020");
});

test("the donation card goes when its link is emptied, and the Karen Mode theme is a setting", async ({ page, login }) => {
  await changeSiteSettings({ donationUrl: "https://give.example.org/hughes" });
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Make a Donation" })).toBeVisible();
  await openSiteTab(page, login);
  const donation = section(page, "Donation card");
  await expect(donation.getByLabel("Donation link")).toHaveValue("https://give.example.org/hughes");
  await donation.getByLabel("Donation link").fill("");
  await donation.getByRole("button", { name: "Save donation card" }).click();
  await expect(donation.getByRole("status")).toContainText("Settings Saved");
  await section(page, "Karen Mode").getByRole("radio", { name: "Disco" }).check();
  await section(page, "Karen Mode").getByRole("button", { name: "Save Karen Mode", exact: true }).click();
  await expect(section(page, "Karen Mode").getByRole("status")).toContainText("Settings Saved");
  await expect(page.getByRole("radio", { name: "Disco" })).toBeChecked();
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Make a Donation" })).toHaveCount(0);
});

test("a private site needs a passcode, and the Site tab says so beside the field", async ({ page, login }) => {
  await openSiteTab(page, login);
  const privacy = section(page, "Privacy");
  await privacy.getByRole("radio", { name: "Private" }).check();
  await privacy.getByRole("button", { name: "Save privacy" }).click();
  await expect(privacy.locator("#site-privacy-visitorPasscode-error")).toHaveText(/Choose a passcode for visitors/);
  await expect(privacy.getByRole("alert").getByRole("link", { name: /Choose a passcode for visitors/ })).toBeVisible();
  await privacy.getByRole("radio", { name: "Private" }).check();
  await privacy.getByLabel("Visitors' passcode").fill("Bluebells");
  await privacy.getByRole("button", { name: "Save privacy" }).click();
  await expect(privacy.getByRole("status")).toContainText("Settings Saved");
  await expect(page.getByRole("radio", { name: "Private" })).toBeChecked();
  await expect(page.getByText("A passcode is set.")).toBeVisible();
  // The passcode is never sent back to the page.
  expect(await page.content()).not.toMatch(/bluebells/i);
});

test(
  "from a phone, a family member who has never seen the code changes the name, the service, the hero photo and the privacy level, and a visitor's next page shows each",
  { tag: "@no-js" },
  async ({ page, browser, login }) => {
    await openSiteTab(page, login);
    await section(page, "The memorial").getByLabel("Name", { exact: true }).fill("Walter James Brennan");
    await section(page, "The memorial").getByRole("button", { name: "Save the memorial" }).click();
    await expect(section(page, "The memorial").getByRole("status")).toContainText("Settings Saved");

    const service = section(page, "The service");
    await service.getByLabel("Start").fill("2099-09-12T14:00");
    await service.getByLabel("End").fill("2099-09-12T16:00");
    await service.getByRole("button", { name: "Save the service" }).click();
    await expect(service.getByRole("status")).toContainText("Settings Saved");

    const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: "#3a6ea5" } })
      .jpeg()
      .toBuffer();
    const hero = section(page, "Hero photo");
    await hero.getByLabel("New photo").setInputFiles({ name: "walter.jpg", mimeType: "image/jpeg", buffer: photo });
    await hero.getByLabel("Describe the photo").fill("Walter on his boat, smiling");
    await hero.getByRole("button", { name: "Save Photo" }).click();
    await expect(toast(page)).toContainText("Photo Saved");

    const privacy = section(page, "Privacy");
    await privacy.getByRole("radio", { name: "Unlisted" }).check();
    await privacy.getByRole("button", { name: "Save privacy" }).click();
    await expect(privacy.getByRole("status")).toContainText("Settings Saved");

    // A visitor (no admin session) opens the home page.
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    try {
      const home = await visitor.newPage();
      const response = await home.goto("/");
      expect(response?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
      await expect(home.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
      await expect(home.getByRole("heading", { level: 1 })).toHaveText("In Loving Memory of Walter James Brennan");
      await expect(home.locator("#service")).toContainText("Saturday, September 12th, 2099 · 2:00 pm to 4:00 pm");
      await expect(home.getByRole("img", { name: "Walter on his boat, smiling" })).toHaveAttribute("src", /^\/media\/site\/hero-1280w-/);
    } finally {
      await visitor.close();
    }
  },
);
