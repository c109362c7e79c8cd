import { type Page } from "@playwright/test";
import { adminInvitations } from "../../db/schema";
import { db } from "~/platform/db.server";
import { hydrated } from "./support/admin";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

// The test server answers at http://localhost:<port>: an address only this
// computer can open. Until the family sets the site's public address, the
// Print tab, the slideshow's QR corner (for an admin) and an invitation link
// say so, with a link to where the address is set; once set, they use it.

test.use({ viewport: { width: 390, height: 844 } });
test.beforeEach(() => resetSiteSettings());
test.afterEach(() => {
  resetSiteSettings();
  db.delete(adminInvitations).run();
});

const warning = (page: Page) => page.getByRole("note", { name: "Check the site's address" });

test("the Print tab warns that localhost will not open on guests' phones, and the address set in the Site tab goes on the cards", async ({
  page,
  login,
}) => {
  await login(page);
  await page.goto("/admin/print");
  await hydrated(page);
  await expect(warning(page)).toContainText("Guests may not be able to open localhost");
  await warning(page).getByRole("link", { name: "Set the site's public address" }).click();
  await expect(page).toHaveURL(/\/admin\/site#address$/);
  const address = page.getByRole("region", { name: "The site's address", exact: true });
  await address.getByLabel("Public address").fill("memorial.example.org/some/page");
  await address.getByRole("button", { name: "Save the site's address" }).click();
  await expect(address.getByRole("status")).toContainText("Settings Saved");
  await expect(address.getByLabel("Public address")).toHaveValue("https://memorial.example.org");

  await page.goto("/admin/print");
  await expect(warning(page)).toHaveCount(0);
  const cards = page.getByRole("group", { name: "Cards to print" });
  await expect(cards.getByText("memorial.example.org/guestbook").first()).toBeVisible();
  const svg = await page.request.get("/qr/guestbook.svg");
  expect(svg.ok()).toBe(true);
  expect(svg.headers()["cache-control"]).toMatch(/^private/);
});

test("the slideshow's QR corner warns an admin, never a visitor", async ({ page, browser, login }) => {
  await login(page);
  await page.goto("/slideshow?qr=1");
  await expect(warning(page)).toBeVisible();
  await expect(warning(page)).toContainText("localhost");
  await page.goto("/slideshow");
  await expect(warning(page)).toHaveCount(0);

  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const slideshow = await visitor.newPage();
    await slideshow.goto("/slideshow?qr=1");
    await expect(slideshow.getByText("/share", { exact: false }).first()).toBeVisible();
    await expect(warning(slideshow)).toHaveCount(0);
  } finally {
    await visitor.close();
  }

  await changeSiteSettings({ publicUrl: "https://memorial.example.org" });
  await page.goto("/slideshow?qr=1");
  await expect(page.getByText("memorial.example.org/share")).toBeVisible();
  await expect(warning(page)).toHaveCount(0);
});

test("an invitation link on localhost comes with the warning; with a public address set, the link uses it", async ({ page, login }) => {
  await login(page);
  await page.goto("/admin/site#family-admins");
  await hydrated(page);
  const family = page.getByRole("region", { name: "Family admins" });
  await family.getByRole("button", { name: "Create Invitation Link" }).click();
  await expect(family.locator("#invitation-link")).toHaveText(/^http:\/\/localhost:\d+\/admin\/invite\//);
  await expect(warning(page)).toContainText("this computer's own address");

  await changeSiteSettings({ publicUrl: "https://memorial.example.org" });
  await page.goto("/admin/site#family-admins");
  await hydrated(page);
  await family.getByRole("button", { name: "Create Invitation Link" }).click();
  await expect(family.locator("#invitation-link")).toHaveText(/^https:\/\/memorial\.example\.org\/admin\/invite\//);
  await expect(warning(page)).toHaveCount(0);
});

test("the calendar file links to the address the family set", async ({ request }) => {
  const before = await (await request.get("/service.ics")).text();
  expect(before).toMatch(/URL:http:\/\/localhost:\d+\//);
  await changeSiteSettings({ publicUrl: "https://memorial.example.org" });
  const after = await (await request.get("/service.ics")).text();
  expect(after).toContain("URL:https://memorial.example.org/");
});
