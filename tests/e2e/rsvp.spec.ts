import { type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { rsvps } from "../../db/schema";
import { db } from "~/platform/db.server";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

const rsvpsBy = (email: string) => db.select().from(rsvps).where(eq(rsvps.email, email)).all();
const uniqueEmail = () => `guest-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function open(page: Page) {
  await page.goto("/rsvp");
  if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

test.describe("attendance form", { tag: "@no-js" }, () => {
  test("a guest says they came and sees the thanks; the answer is stored", async ({ page }) => {
    const email = uniqueEmail();
    await open(page);
    await page.getByLabel("Name *").fill("Uncle Tom");
    await page.getByLabel("Email *").fill(email);
    await page.getByLabel("Number of guests, including you *").fill("2");
    await page.getByRole("button", { name: "Send" }).click();
    // The title thanks; the sentence under it says something new rather than thanking again.
    const toast = page.getByTestId("toast");
    await expect(toast.locator("p")).toHaveText(["Thank You", "The family will be glad to know you were there."]);
    expect(rsvpsBy(email)).toMatchObject([{ name: "Uncle Tom", email, guestCount: 2 }]);
    await expectNoAxeViolations(page);
  });

  test("a refused answer shows each message beside its field and keeps what was typed", async ({ page }) => {
    await open(page);
    await page.getByLabel("Name *").fill("   ");
    await page.getByLabel("Email *").fill("someone@nowhere");
    await page.getByLabel("Number of guests, including you *").fill("11");
    await page.getByLabel("Notes (Optional)").fill("Coming with family");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByText("Valid email is required")).toBeVisible();
    await expect(page.getByText("Number of guests must be at most 10")).toBeVisible();
    await expect(page.getByLabel("Number of guests, including you *")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email *")).toHaveValue("someone@nowhere");
    await expect(page.getByLabel("Notes (Optional)")).toHaveValue("Coming with family");
    expect(rsvpsBy("someone@nowhere")).toEqual([]);
    await expectNoAxeViolations(page);
  });
});

test.describe("attendance form with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "answers in place need JavaScript");

  test("a refused answer comes back in place, without a reload, with focus on the first refused field", async ({ page }) => {
    await open(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    await page.getByLabel("Name *").fill("Cousin Ann");
    await page.getByLabel("Email *").fill("someone@nowhere");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Valid email is required")).toBeVisible();
    await expect(page.getByLabel("Email *")).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  });

  test("the button says Sending... while the answer is on its way", async ({ page }) => {
    await open(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/rsvp\?.*_data=/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.getByLabel("Name *").fill("Neighbour Sam");
    await page.getByLabel("Email *").fill("sam@example.com");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("button", { name: "Sending..." })).toBeDisabled();
    release();
    await expect(page.getByTestId("toast")).toContainText("Thank You");
  });
});

test.describe("the attendance page's tense follows the service", { tag: "@no-js" }, () => {
  test.afterEach(() => resetSiteSettings());

  /** `YYYY-MM-DDTHH:mm` in UTC, `hours` from now. */
  const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 16);

  test("before the service: “Will you join us?”, and the home page's link and the thanks look ahead", async ({ page }) => {
    // The server's clock decides (the page works without JavaScript); the browser's
    // clock, set to the same moment, changes nothing once the page is running.
    await page.clock.setFixedTime(new Date());
    await changeSiteSettings({ timeZone: "UTC", serviceStartsAt: hoursFromNow(2), serviceEndsAt: hoursFromNow(4) });
    await page.goto("/");
    await page.locator("#service").getByRole("link", { name: "Let the family know you're coming" }).click();
    await expect(page).toHaveURL(/\/rsvp$/);
    await expect(page.getByText("Will you join us at the")).toBeVisible();
    await expect(page.getByText("Let the family know you're coming.")).toBeVisible();
    await expect(page.getByText(/Were you at/)).toHaveCount(0);
    if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.getByLabel("Name *").fill("Cousin May");
    await page.getByLabel("Email *").fill(uniqueEmail());
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("toast").locator("p")).toHaveText(["Thank You", "The family will be glad to know you're coming."]);
    await expect(page.getByText(/you were there/)).toHaveCount(0);
  });

  test("after the service: “Were you at…?” and “you were there”", async ({ page }) => {
    await page.clock.setFixedTime(new Date());
    await changeSiteSettings({ timeZone: "UTC", serviceStartsAt: hoursFromNow(-4), serviceEndsAt: hoursFromNow(-2) });
    await page.goto("/");
    await page.locator("#service").getByRole("link", { name: "Let the family know you attended" }).click();
    await expect(page.getByText("Were you at the")).toBeVisible();
    await expect(page.getByText(/Will you join us/)).toHaveCount(0);
    if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.getByLabel("Name *").fill("Cousin May");
    await page.getByLabel("Email *").fill(uniqueEmail());
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("toast").locator("p")).toHaveText(["Thank You", "The family will be glad to know you were there."]);
  });
});
