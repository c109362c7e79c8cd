// The family's privacy setting as visitors meet it, with JavaScript on and
// off: an unlisted memorial kept out of search engines, and a private one
// that asks for the family's passcode first.
import { type Page } from "@playwright/test";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

const PASSCODE = "Blue Heron";
const PERSON = "Margaret Hale";

test.afterEach(() => {
  resetSiteSettings();
});

const passcodeField = (page: Page) => page.getByLabel("Passcode");
const openButton = (page: Page) => page.getByRole("button", { name: "Open the memorial" });

async function expectPasscodePage(page: Page) {
  await expect(page.getByRole("heading", { level: 1, name: `In Loving Memory of ${PERSON}` })).toBeVisible();
  await expect(passcodeField(page)).toBeVisible();
  await expect(openButton(page)).toBeVisible();
}

test.describe("an unlisted memorial", { tag: "@no-js" }, () => {
  test("asks search engines to stay away on every page, while a shared link still has its preview", async ({ page, request }) => {
    await changeSiteSettings({ visibility: "unlisted" });
    for (const path of ["/", "/guestbook", "/gallery"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      expect(response?.headers()["x-robots-tag"], path).toBe("noindex, nofollow");
      await expect(page.locator('meta[name="robots"]'), path).toHaveAttribute("content", "noindex, nofollow");
    }
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /Memory Gallery/);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/images\/hero\.jpg$/);
    expect(await (await request.get("/robots.txt")).text()).toBe("User-agent: *\nDisallow: /\n");
  });

  test("a public memorial has no robots tag", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.headers()["x-robots-tag"]).toBeUndefined();
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  });
});

test.describe("a private memorial", { tag: "@no-js" }, () => {
  test.beforeEach(async () => {
    await changeSiteSettings({ visibility: "private", visitorPasscode: PASSCODE, personName: PERSON });
  });

  test("asks for the passcode, says when it is wrong, then opens the page asked for and every other", async ({ page }) => {
    const response = await page.goto("/gallery");
    expect(response?.status()).toBe(401);
    await expect(page).toHaveURL(/\/gallery$/);
    await expectPasscodePage(page);
    // Nothing of the site behind it: no menu, no Karen Mode.
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Karen Mode/ })).toHaveCount(0);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
    await expectNoAxeViolations(page);

    await passcodeField(page).fill("grey heron");
    await openButton(page).click();
    await expect(page.getByText("That passcode is not right. Please check it with the family and try again.")).toBeVisible();
    await expect(passcodeField(page)).toHaveValue("");
    await expect(passcodeField(page)).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page);

    await passcodeField(page).fill("blue heron");
    await openButton(page).click();
    await expect(page).toHaveURL(/\/gallery$/);
    await expect(page.getByRole("heading", { level: 1, name: "Memory Gallery" })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");

    // The browser remembers it: the menu leads everywhere.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Poems" }).click();
    await expect(page).toHaveURL(/\/poems$/);
    await expect(page.getByRole("heading", { level: 1, name: "Poems & Writings" })).toBeVisible();
    const home = await page.goto("/");
    expect(home?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Memorial Service" })).toBeVisible();
  });

  test("a new passcode asks everyone again", async ({ page }) => {
    await page.goto("/poems");
    await passcodeField(page).fill(PASSCODE);
    await openButton(page).click();
    await expect(page.getByRole("heading", { level: 1, name: "Poems & Writings" })).toBeVisible();
    await changeSiteSettings({ visitorPasscode: "Grey Heron" });
    expect((await page.goto("/poems"))?.status()).toBe(401);
    await expectPasscodePage(page);
    await passcodeField(page).fill("Grey Heron");
    await openButton(page).click();
    await expect(page.getByRole("heading", { level: 1, name: "Poems & Writings" })).toBeVisible();
  });

  test("the family's administrator, logged in, sees the memorial without the passcode", async ({ page, login }) => {
    // The login card shows the memorial's name only, like the passcode page.
    await page.goto("/admin/login");
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await login(page);
    expect((await page.goto("/guestbook"))?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "Guest Book" })).toBeVisible();
  });
});

test("a page open when the memorial turns private asks for the passcode at the next step", { tag: "@no-js" }, async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await changeSiteSettings({ visibility: "private", visitorPasscode: PASSCODE, personName: PERSON });
  await page.getByRole("link", { name: "Write Message" }).click();
  await expect(page).toHaveURL(/\/guestbook$/);
  await expectPasscodePage(page);
  await passcodeField(page).fill(PASSCODE);
  await openButton(page).click();
  await expect(page.getByRole("heading", { level: 1, name: "Guest Book" })).toBeVisible();
});

test(
  "the family makes the memorial private in the Site tab, and a visitor's next page asks for the passcode",
  { tag: "@no-js" },
  async ({ page, browser, login }) => {
    await login(page);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Site" }).click();
    await hydrated(page);
    const privacy = page.getByRole("region", { name: "Privacy", exact: true });
    await privacy.getByRole("radio", { name: "Private" }).check();
    await privacy.getByLabel("Visitors' passcode").fill(PASSCODE);
    await privacy.getByRole("button", { name: "Save privacy" }).click();
    await expect(page.getByTestId("toast")).toContainText("Settings Saved");

    const visitor = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled !== false });
    try {
      const guest = await visitor.newPage();
      expect((await guest.goto("/"))?.status()).toBe(401);
      await expect(passcodeField(guest)).toBeVisible();
      await passcodeField(guest).fill(PASSCODE);
      await openButton(guest).click();
      await expect(guest.getByRole("heading", { name: "Memorial Service" })).toBeVisible();

      // Public again: the next page opens for everyone.
      await privacy.getByRole("radio", { name: "Public" }).check();
      const saved = page.waitForResponse((response) => response.request().method() === "POST" && response.url().includes("/admin/site"));
      await privacy.getByRole("button", { name: "Save privacy" }).click();
      await saved;
      const stranger = await (await browser.newContext()).newPage();
      expect((await stranger.goto("/poems"))?.status()).toBe(200);
      await stranger.context().close();
    } finally {
      await visitor.close();
    }
  },
);
