import { type Page } from "@playwright/test";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

// The person's dates and places: given in the Site tab on a phone, with
// JavaScript on and off; shown under the name on the home page; told to
// search engines on a public site only.

test.use({ viewport: { width: 360, height: 740 } });
test.beforeEach(() => resetSiteSettings());
test.afterEach(() => resetSiteSettings());

const structuredData = (page: Page) => page.locator('script[type="application/ld+json"]');

test("a family member gives the dates and places; the home page shows them under the name", { tag: "@no-js" }, async ({ page, login }) => {
  await login(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Site" }).click();
  await expect(page).toHaveURL(/\/admin\/site$/);
  await hydrated(page);
  const dates = page.getByRole("region", { name: "Dates and places", exact: true });
  await dates.getByLabel("Date of birth").fill("1942-03-14");
  await dates.getByLabel("Place of birth").fill("Cork, Ireland");
  await dates.getByLabel("Date of death").fill("2026-02-30");
  await dates.getByRole("button", { name: "Save dates and places" }).click();
  const wrongDay = "Date of death must be a year, a month or a day, written 1942, 1942-03 or 1942-03-14";
  await expect(dates.locator("#site-person-deathDate-error")).toHaveText(wrongDay);
  await expect(dates.getByLabel("Place of birth")).toHaveValue("Cork, Ireland");

  await dates.getByLabel("Date of death").fill("2026-01-09");
  await dates.getByRole("radio", { name: "The dates as given" }).check();
  await dates.getByRole("button", { name: "Save dates and places" }).click();
  await expect(page.getByTestId("toast")).toContainText("Settings Saved");

  await page.goto("/");
  const line = page.getByTestId("life-dates");
  await expect(line).toHaveText("March 14, 1942 – January 9, 2026");
  await expect(line.locator("time").first()).toHaveAttribute("datetime", "1942-03-14");
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
  await expectNoAxeViolations(page);
});

test("the years alone by default, and one date when only one is known", { tag: "@no-js" }, async ({ page }) => {
  await changeSiteSettings({ birthDate: "1942-03-14", deathDate: "2026-01" });
  await page.goto("/");
  await expect(page.getByTestId("life-dates")).toHaveText("1942 – 2026");
  await changeSiteSettings({ birthDate: "" });
  await page.goto("/");
  await expect(page.getByTestId("life-dates")).toHaveText("Died 2026");
  await changeSiteSettings({ deathDate: "" });
  await page.goto("/");
  await expect(page.getByTestId("life-dates")).toHaveCount(0);
});

test("search engines are told who the person was on a public site, and nothing on an unlisted one", async ({ page }) => {
  await changeSiteSettings({ personName: "Margaret Ellen Hughes", birthDate: "1942", deathDate: "2026-01-09", deathPlace: "Oakland" });
  await page.goto("/");
  await expect(structuredData(page)).toHaveCount(1);
  expect(JSON.parse((await structuredData(page).textContent())!)).toEqual({
    "@context": "https://schema.org",
    "@type": "Person",
    name: "Margaret Ellen Hughes",
    birthDate: "1942",
    deathDate: "2026-01-09",
    deathPlace: { "@type": "Place", name: "Oakland" },
  });
  await changeSiteSettings({ visibility: "unlisted" });
  await page.goto("/");
  await expect(page.getByTestId("life-dates")).toHaveText("1942 – 2026");
  await expect(structuredData(page)).toHaveCount(0);
});
