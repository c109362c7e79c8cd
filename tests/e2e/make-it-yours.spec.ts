import { type Page } from "@playwright/test";
import { content } from "~/content";
import { hydrated } from "./support/admin";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

// A fresh install: visitors are never shown the example contact address, and
// the admin home lists what still shows the example site, each line a link
// to where it is changed, gone once it is.

test.use({ viewport: { width: 390, height: 844 } });
test.beforeEach(() => resetSiteSettings());
test.afterEach(() => resetSiteSettings());

const checklist = (page: Page) => page.getByRole("region", { name: "Make it yours" });

test(
  "a visitor to a fresh site is not shown the example contact address; the family's own shows once given",
  { tag: "@no-js" },
  async ({ browser }) => {
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await visitor.newPage();
      await page.goto("/");
      await expect(page.getByRole("contentinfo")).toBeVisible();
      expect(await page.content()).not.toContain(content.contactEmail);
      await expect(page.getByRole("contentinfo")).not.toContainText("Questions? Write to the family");
      await page.goto("/guestbook");
      expect(await page.content()).not.toContain(content.contactEmail);

      await changeSiteSettings({ contactEmail: "hughes.family@example.org" });
      await page.goto("/");
      await expect(page.getByRole("contentinfo").getByRole("link", { name: "hughes.family@example.org" })).toBeVisible();
    } finally {
      await visitor.close();
    }
  },
);

test("the admin home's checklist leads to each example detail, and each line goes once it is changed", async ({ page, login }) => {
  await login(page);
  const list = checklist(page);
  await expect(list.getByRole("listitem")).toHaveCount(6);
  await list.getByRole("link", { name: "Write their name" }).click();
  await expect(page).toHaveURL(/\/admin\/site#memorial$/);
  await hydrated(page);
  const memorial = page.getByRole("region", { name: "The memorial", exact: true });
  await memorial.getByLabel("Name", { exact: true }).fill("Margaret Ellen Hughes");
  await memorial.getByRole("button", { name: "Save the memorial" }).click();
  await expect(memorial.getByRole("status")).toContainText("Settings Saved");

  await page.goto("/admin");
  await expect(list.getByRole("listitem")).toHaveCount(5);
  await expect(list.getByRole("link", { name: "Write their name" })).toHaveCount(0);
  for (const [name, to] of [
    ["Set the day, time and place of the service", "/admin/site#service"],
    ["Give an e-mail address where people can reach the family", "/admin/site#contact"],
    ["Choose the photo at the top of the home page", "/admin/site#hero-photo"],
    ["Set the site's public address, for the printed cards and links", "/admin/site#address"],
    ["Add a donation card with the giving page's link, or save it empty to show none", "/admin/site#donation"],
  ] as const) {
    await expect(list.getByRole("link", { name })).toHaveAttribute("href", to);
  }

  await changeSiteSettings({
    serviceStartsAt: "2099-06-06T11:00",
    serviceEndsAt: "2099-06-06T13:00",
    contactEmail: "hughes.family@example.org",
    publicUrl: "https://memorial.example.org",
    donationUrl: "https://give.example.org/hughes",
  });
  await page.goto("/admin");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("link", { name: "Choose the photo at the top of the home page" })).toBeVisible();
});

test(
  "a new memorial shows visitors no donation card; the family adds it from the checklist and it shows in the spec's words",
  { tag: "@no-js" },
  async ({ page, browser, login }) => {
    const visitor = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const home = await visitor.newPage();
      await home.goto("/");
      await expect(home.getByRole("region", { name: "Memorial Service" })).toBeVisible();
      await expect(home.getByRole("region", { name: "Make a Donation" })).toHaveCount(0);
      await expect(home.getByRole("link", { name: /Donate/ })).toHaveCount(0);
      expect(await home.content()).not.toContain("giving.ucsf.edu");

      // The family follows the line on the admin home to the Site tab's donation card.
      await login(page);
      await checklist(page)
        .getByRole("link", { name: /Add a donation card/ })
        .click();
      await expect(page).toHaveURL(/\/admin\/site#donation$/);
      await hydrated(page);
      const donation = page.getByRole("region", { name: "Donation card" });
      await expect(donation.getByLabel("Donation link")).toHaveValue("");
      await donation.getByLabel("Donation link").fill("give.example.org/hughes");
      await donation.getByRole("button", { name: "Save donation card" }).click();
      await expect(donation.getByRole("status")).toContainText("Settings Saved");
      await page.goto("/admin");
      await expect(checklist(page).getByRole("link", { name: /Add a donation card/ })).toHaveCount(0);

      await home.goto("/");
      const card = home.getByRole("region", { name: "Make a Donation" });
      const button = card.getByRole("link", { name: /Donate to UCSF/ });
      await expect(button).toHaveAttribute("href", "https://give.example.org/hughes");
      await expect(button).toHaveAttribute("target", "_blank");
    } finally {
      await visitor.close();
    }
  },
);

test("a family that wants no donation card saves it empty, and the line goes while visitors still see none", async ({ page, login }) => {
  await login(page);
  await page.goto("/admin/site#donation");
  const donation = page.getByRole("region", { name: "Donation card" });
  await donation.getByRole("button", { name: "Save donation card" }).click();
  await expect(page.getByTestId("toast")).toContainText("Settings Saved");
  await page.goto("/admin");
  await expect(checklist(page).getByRole("listitem")).toHaveCount(5);
  await expect(checklist(page).getByRole("link", { name: /Add a donation card/ })).toHaveCount(0);
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Make a Donation" })).toHaveCount(0);
});
