import { type Page } from "@playwright/test";
import { hydrated } from "./support/admin";
import { resetSiteSettings } from "./support/data";
import { expect, test, type LogIn } from "./support/fixtures";

// A family member on a phone, JavaScript on and off (both projects run every
// test), saves a part of the long Site tab: the answer shows where the eye
// is, inside the section that was saved, and a refused save opens at its
// section with a summary that leads to the field.

test.beforeEach(() => resetSiteSettings());
test.afterEach(() => resetSiteSettings());

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

async function openSiteTab(page: Page, login: LogIn) {
  await login(page);
  await page.goto("/admin/site");
  await hydrated(page);
}

for (const width of [320, 360, 390]) {
  test.describe(`at ${width} px`, { tag: width === 320 ? "@no-js" : [] }, () => {
    test.use({ viewport: { width, height: 740 } });

    test("a saved section says so inside itself, in view", async ({ page, login }) => {
      await openSiteTab(page, login);
      const service = section(page, "The service");
      await service.getByLabel("Venue").fill("St Mary's Church");
      await service.getByRole("button", { name: "Save the service" }).click();
      await expect(page).toHaveURL(/\/admin\/site\?saved=service#service$/);
      const saved = service.getByRole("status");
      await expect(saved).toContainText("Settings Saved");
      await expect(saved).toBeInViewport();
      await expect(service.getByLabel("Venue")).toHaveValue("St Mary's Church");
    });

    test("a refused save opens at its section, with a summary that links to the field, and no stale confirmation", async ({
      page,
      login,
    }) => {
      await openSiteTab(page, login);
      // A first save that worked …
      const contact = section(page, "Contact and privacy note");
      await contact.getByLabel("Privacy note").fill("Only the family sees your e-mail.");
      await contact.getByRole("button", { name: "Save contact and privacy note" }).click();
      await expect(contact.getByRole("status")).toContainText("Settings Saved");
      // … then one that is refused.
      const service = section(page, "The service");
      await service.getByLabel("End").fill("2025-08-31T09:00");
      await service.getByRole("button", { name: "Save the service" }).click();
      const summary = service.getByRole("alert").filter({ hasText: "Not Saved" });
      await expect(summary).toBeInViewport();
      await expect(page.getByText("Settings Saved")).toHaveCount(0);
      const link = summary.getByRole("link", { name: "End must be after the start" });
      await link.click();
      await expect(service.getByLabel("End")).toBeFocused();
      await expect(service.getByLabel("End")).toBeInViewport();
    });

    test("the service form fits the phone, its hints match the picker, and a bare donation address is taken", async ({ page, login }) => {
      await openSiteTab(page, login);
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      const service = section(page, "The service");
      await expect(service).not.toContainText("2025-08-31T16:00");
      await expect(service).not.toContainText("2025-08-31T20:00");

      const donation = section(page, "Donation card");
      await donation.getByLabel("Donation link").fill("giving.example.org/memorial");
      await donation.getByRole("button", { name: "Save donation card" }).click();
      await expect(donation.getByRole("status")).toContainText("Settings Saved");
      await expect(donation.getByLabel("Donation link")).toHaveValue("https://giving.example.org/memorial");
    });

    test("a short index at the top leads to each part of the tab", async ({ page, login }) => {
      await openSiteTab(page, login);
      const index = page.getByRole("navigation", { name: "Settings on this page" });
      await expect(index).toBeInViewport();
      await index.getByRole("link", { name: "Karen Mode", exact: true }).click();
      await expect(page).toHaveURL(/#karenMode$/);
      await expect(section(page, "Karen Mode").getByRole("heading", { name: "Karen Mode" })).toBeInViewport();
    });
  });
}
