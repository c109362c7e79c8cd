import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Page } from "@playwright/test";
import sharp from "sharp";
import { content, memorialTitle } from "~/content";
import { latestMemory, latestUpload, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

/** Every page a visitor or the administrator lands on, with its main heading. */
const PAGES = [
  ["/", memorialTitle(content)],
  ["/guestbook", "Guest Book"],
  ["/share", "Share Photos & Videos"],
  ["/gallery", "Memory Gallery"],
  ["/poems", "Poems & Writings"],
  ["/rsvp", "Memorial Service Attendance"],
  ["/admin", "Admin Login"],
] as const;

/** Signs the guest book through the page's form and finds the memory stored, waiting for review. */
async function signGuestBook(page: Page, name: string, message: string) {
  await page.goto("/guestbook");
  // The guest book's own form: "Leave a voice memory" beside it has a "Name *" too.
  await page.locator("form#guestbook").getByLabel("Name *").fill(name);
  await page.getByLabel("Email *").fill(`${name.toLowerCase().replace(/\W+/g, ".")}@example.com`);
  await page.getByLabel("Your Memory *").fill(message);
  await page.getByRole("button", { name: "Submit Memory" }).click();
  await expect(page.getByText("Thank you for sharing your memory. It will be reviewed before being published.")).toBeVisible();
  expect(latestMemory()).toMatchObject({ name, message, status: "PENDING" });
}

// A browser that runs JavaScript but cannot load ours (a blocked CDN, a
// corporate proxy, an old browser that fails to parse it): every page must
// still work as plain HTML. The inline scripts Remix writes still run here.
test.describe("when the site's scripts cannot load", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "scripts must be able to run for their loading to be blocked");

  test.beforeEach(async ({ page }) => {
    await page.route(/\.(m?js)(\?.*)?$/, (route) => route.abort());
  });

  test("every public page shows its content", async ({ page }) => {
    for (const [url, heading] of PAGES) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: heading }), url).toBeVisible();
      await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");
    }
    await page.goto("/");
    await expect(page.getByText(content.venueName).first()).toBeVisible();
  });

  test("a visitor signs the guest book, shares a photo and turns on Karen Mode", async ({ page }) => {
    await signGuestBook(page, "Blocked Scripts", `Signed with scripts blocked ${Date.now()}`);

    removeAllUploads();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "memorial-blocked-"));
    const photo = path.join(dir, "blocked.jpg");
    await sharp({ create: { width: 300, height: 200, channels: 3, background: "#335577" } })
      .jpeg()
      .toFile(photo);
    await page.goto("/share");
    await page.getByLabel("Name*").fill("Blocked Scripts");
    await page.getByLabel("Email*").fill("blocked@example.com");
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload Files" }).click();
    await expect(page.getByText("Your file has been uploaded successfully and is pending review.")).toBeVisible();
    expect(latestUpload()).toMatchObject({ originalName: "blocked.jpg", status: "PENDING" });
    await fs.rm(dir, { recursive: true, force: true });

    await page.getByRole("contentinfo").getByRole("button", { name: "Karen Mode" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    await page.getByRole("contentinfo").getByRole("button", { name: "Karen Mode" }).click();
    await expect(page.locator("html")).not.toHaveAttribute("data-karen", "on");
  });

  test("the admin logs in and out", async ({ page }) => {
    await page.goto("/admin");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("e2e-admin-password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
    await page.getByRole("link", { name: /^Pending Uploads/ }).click();
    await expect(page).toHaveURL(/\/admin\/uploads$/);
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
  });
});

// An older browser (before Safari 15.4) parses the lowered bundles but lacks
// runtime features they call: it keeps the server-rendered page, without a
// script error and without hydrating halfway.
test.describe("in a browser too old for the client app", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the scripts must run to find what the browser lacks");

  test("every page stays the working server-rendered page, with no script error", async ({ page }) => {
    await page.addInitScript(() => {
      delete (Array.prototype as { at?: unknown }).at;
      delete (Object as { hasOwn?: unknown }).hasOwn;
    });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));

    for (const [url, heading] of PAGES) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1, name: heading }), url).toBeVisible();
      await page.waitForLoadState("networkidle");
      await expect(page.locator("html"), url).not.toHaveAttribute("data-hydrated", "true");
    }
    // The plain upload form, not the upload dialog, on the share page.
    await page.goto("/share");
    await expect(page.getByRole("button", { name: "Upload Files" })).toBeVisible();

    await signGuestBook(page, "Older Browser", `Signed from an older browser ${Date.now()}`);
    expect(errors).toEqual([]);
  });
});
