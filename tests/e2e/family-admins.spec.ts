import { type Browser, type Page } from "@playwright/test";
import { eq, ne } from "drizzle-orm";
import { adminInvitations, adminUsers, memories, uploads } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { createAdmin, upsertAdmin, verifyAdminLogin } from "~/admins/admin.server";
import { ADMIN, logInThroughForm } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { addMemory, addUpload, removeAllMemories, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

// The Family admins section (shown at /admin/admins before it joins the Site
// tab), invitation links, the first run's setup page and who moderated what.
// The e2e server's admin is ADMIN (support/e2e-site.ts):
// after each test the list of admins and that password are as they were, so
// the other specs still log in.

const SECTION = "/admin/admins";

const javaScript = () => test.info().project.use.javaScriptEnabled !== false;
/** A name of this test's own, so the js and no-js runs never meet. */
const named = (name: string) => `${name}-${javaScript() ? "js" : "nojs"}`;

const hydrated = async (page: Page) => {
  if (javaScript()) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
};

/** Another person's browser, with JavaScript as this project has it, on this worker's site. */
async function otherBrowser(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ javaScriptEnabled: javaScript(), baseURL });
  return { context, page: await context.newPage() };
}

const toast = (page: Page) => page.getByTestId("toast");
const section = (page: Page) => page.getByRole("region", { name: "Family admins" });
const adminRow = (page: Page, username: string) => section(page).getByRole("row").filter({ hasText: username });

test.afterEach(async () => {
  db.delete(adminInvitations).run();
  db.delete(adminUsers).where(ne(adminUsers.username, ADMIN.username)).run();
  if (!(await verifyAdminLogin(ADMIN.username, ADMIN.password))) await upsertAdmin(ADMIN.username, ADMIN.password);
});

test.describe("family admins", () => {
  test(
    "an admin adds another, who can then log in; a taken username is refused",
    { tag: "@no-js" },
    async ({ page, browser, baseURL, login }) => {
      const cousin = named("cousin");
      await login(page, SECTION);
      await expect(page).toHaveURL(new RegExp(`${SECTION}$`));
      await expect(section(page).getByRole("heading", { name: "Family admins" })).toBeVisible();
      await expect(adminRow(page, "admin (you)")).toBeVisible();
      await expect(section(page).getByRole("button", { name: "Remove yourself" })).toHaveCount(0);
      await expectNoAxeViolations(page);

      const form = page.getByRole("form", { name: "Add an admin" });
      await form.getByLabel("Username").fill(cousin);
      await form.getByLabel("Password").fill("cousins-password");
      await form.getByRole("button", { name: "Add Admin" }).click();
      await expect(toast(page)).toContainText("Admin Added");
      await expect(toast(page)).toContainText(`${cousin} can now log in to the admin panel.`);
      await expect(adminRow(page, cousin)).toContainText(/\w{3} \d{1,2}, \d{4}/);
      await expect(form.getByLabel("Username")).toHaveValue("");

      await form.getByLabel("Username").fill(cousin.toUpperCase());
      await form.getByLabel("Password").fill("another-password");
      await form.getByRole("button", { name: "Add Admin" }).click();
      await expect(page.getByText("That username is already taken. Please choose another.")).toBeVisible();
      expect(db.select().from(adminUsers).all()).toHaveLength(2);

      const other = await otherBrowser(browser, baseURL);
      await logInThroughForm(other.page, "/admin", { username: cousin, password: "cousins-password" });
      await other.context.close();
    },
  );

  test(
    "an invitation link, shown once, lets someone choose their own password and logs them in",
    { tag: "@no-js" },
    async ({ page, browser, baseURL, login }) => {
      const niece = named("niece");
      await login(page, SECTION);
      await page.getByRole("button", { name: "Create Invitation Link" }).click();
      await expect(toast(page)).toContainText("Invitation Created");
      const box = section(page).getByRole("group", { name: "Your invitation link" });
      await expect(box.getByText(/\/admin\/invite\/[A-Za-z0-9_-]{43}$/)).toBeVisible();
      const link = (await box.getByText(/\/admin\/invite\//).textContent())!;
      await expectNoAxeViolations(page);
      await page.goto(SECTION);
      await expect(section(page).getByRole("group", { name: "Your invitation link" })).toHaveCount(0);

      const other = await otherBrowser(browser, baseURL);
      await other.page.goto(link);
      await hydrated(other.page);
      await expect(other.page.getByRole("heading", { level: 1, name: "Become a family admin" })).toBeVisible();
      await expect(other.page.getByText("admin has invited you")).toBeVisible();
      await expectNoAxeViolations(other.page);
      await other.page.getByLabel("Username").fill(niece);
      await other.page.getByLabel("Password", { exact: true }).fill("nieces-password");
      await other.page.getByLabel("Password again").fill("nieces-password");
      await other.page.getByRole("button", { name: "Become an Admin" }).click();
      await expect(other.page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
      await expect(toast(other.page)).toContainText("You are now an admin of this memorial.");

      // The link worked once.
      const third = await otherBrowser(browser, baseURL);
      await third.page.goto(link);
      await expect(third.page.getByText("This invitation has already been used.")).toBeVisible();
      await expect(third.page.getByLabel("Username")).toHaveCount(0);
      await expectNoAxeViolations(third.page);
      await Promise.all([other.context.close(), third.context.close()]);

      await page.goto(SECTION);
      await expect(adminRow(page, niece)).toBeVisible();
    },
  );

  for (const width of [320, 360, 390]) {
    test(
      `on a ${width} px phone the invitation link wraps whole, with Copy and Share buttons when JavaScript runs`,
      { tag: width === 320 ? "@no-js" : [] },
      async ({ page, context, login }) => {
        await page.setViewportSize({ width, height: 800 });
        if (javaScript()) {
          await context.grantPermissions(["clipboard-read", "clipboard-write"]);
          // The phone's share sheet, as the page sees it: what it was asked to share.
          await page.addInitScript(() => {
            const shared: ShareData[] = [];
            Object.assign(window, { shared });
            Object.defineProperty(navigator, "share", { value: (data: ShareData) => (shared.push(data), Promise.resolve()) });
          });
        }
        await login(page, SECTION);
        await page.getByRole("button", { name: "Create Invitation Link" }).click();
        await expect(toast(page)).toContainText("Invitation Created");
        await expect(toast(page)).not.toContainText("below");
        const box = section(page).getByRole("group", { name: "Your invitation link" });
        const text = box.getByText(/\/admin\/invite\/[A-Za-z0-9_-]{43}$/);
        await expect(text).toBeVisible();
        const link = (await text.textContent())!;
        expect(link).toMatch(/^https?:\/\//);
        // The whole link is on the screen, wrapped, not cut off in a one-line field.
        const bounds = (await text.boundingBox())!;
        expect(bounds.x).toBeGreaterThanOrEqual(0);
        expect(bounds.x + bounds.width).toBeLessThanOrEqual(width);
        expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
        if (!javaScript()) {
          await expect(box.getByRole("button")).toHaveCount(0);
          return;
        }
        await box.getByRole("button", { name: "Copy Link" }).click();
        await expect(box.getByRole("status")).toHaveText("Copied. Paste it into a message or an e-mail to the person.");
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
        await box.getByRole("button", { name: "Share Link" }).click();
        await expect
          .poll(() => page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared.map((data) => data.url)))
          .toEqual([link]);
        await expectNoAxeViolations(page);
      },
    );
  }

  test(
    "removing an admin logs them out at once; removing yourself asks first",
    { tag: "@no-js" },
    async ({ page, browser, baseURL, login }) => {
      const helper = named("helper");
      await createAdmin({ username: helper, password: "helpers-password" }, operator());
      const other = await otherBrowser(browser, baseURL);
      await logInThroughForm(other.page, "/admin", { username: helper, password: "helpers-password" });

      await login(page, SECTION);
      await section(page)
        .getByRole("button", { name: `Remove ${helper}` })
        .click();
      await expect(toast(page)).toContainText("Admin Removed");
      await expect(toast(page)).toContainText(`${helper} can no longer log in.`);
      await expect(adminRow(page, helper)).toHaveCount(0);
      await other.page.goto("/admin/poems");
      await expect(other.page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
      await other.context.close();

      // With someone else still an admin, the admin removes themselves: a question first.
      await createAdmin({ username: named("keeper"), password: "keepers-password" }, operator());
      await page.goto(SECTION);
      await section(page).getByRole("button", { name: "Remove yourself" }).click();
      const question = page.getByRole("alertdialog", { name: "Remove yourself as an admin?" });
      await expect(question).toContainText("You will be logged out at once");
      await expectNoAxeViolations(page);
      await question.getByRole("link", { name: "Cancel" }).click();
      await expect(question).toHaveCount(0);
      await expect(adminRow(page, "admin (you)")).toBeVisible();

      await section(page).getByRole("button", { name: "Remove yourself" }).click();
      await page.getByRole("alertdialog", { name: "Remove yourself as an admin?" }).getByRole("button", { name: "Yes, remove me" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
      await expect(toast(page)).toContainText("You are no longer an admin of this memorial");
      expect(db.select().from(adminUsers).where(eq(adminUsers.username, ADMIN.username)).get()).toBeUndefined();
    },
  );

  test(
    "an admin changes their password: the current one is needed, and their other sessions end",
    { tag: "@no-js" },
    async ({ page, browser, baseURL, login }) => {
      const other = await otherBrowser(browser, baseURL);
      await login(other.page);
      await login(page, SECTION);
      const form = page.getByRole("form", { name: "Change your password" });

      await form.getByLabel("Current password").fill("not-the-password");
      await form.getByLabel("New password", { exact: true }).fill("a-new-e2e-password");
      await form.getByLabel("New password again").fill("a-new-e2e-password");
      await form.getByRole("button", { name: "Change Password" }).click();
      await expect(page.getByText("The current password is not right.")).toBeVisible();

      await form.getByLabel("Current password").fill(ADMIN.password);
      await form.getByLabel("New password", { exact: true }).fill("a-new-e2e-password");
      await form.getByLabel("New password again").fill("a-new-e2e-password");
      await form.getByRole("button", { name: "Change Password" }).click();
      await expect(toast(page)).toContainText("Password Changed");
      await page.goto(SECTION);
      await expect(section(page)).toBeVisible();
      await other.page.goto("/admin");
      await expect(other.page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
      await logInThroughForm(other.page, "/admin", { username: ADMIN.username, password: "a-new-e2e-password" });
      await other.context.close();
      expect(await verifyAdminLogin(ADMIN.username, "a-new-e2e-password")).not.toBeNull();
    },
  );
});

test.describe("who moderated what", () => {
  test.beforeEach(() => {
    removeAllMemories();
    removeAllUploads();
  });

  test("the details dialogs say who approved or rejected an item and when", async ({ page, login }) => {
    const memory = addMemory({ name: "Cousin Ellen" });
    const [kept, deleted] = [await addUpload({ name: "kept.jpg" }), await addUpload({ name: "deleted.jpg" })];
    await login(page);
    await page.goto(`/admin/memories/${memory}`);
    await expect(page.getByText(/Approved by|Rejected by/)).toHaveCount(0);
    await page.getByRole("button", { name: "Approve & Publish" }).click();
    await expect(toast(page)).toContainText("Memory Updated");
    await page.goto(`/admin/memories/${memory}`);
    await expect(page.getByText(/^Approved by admin on \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M$/)).toBeVisible();
    await expectNoAxeViolations(page);
    expect(db.select().from(memories).where(eq(memories.id, memory)).get()).toMatchObject({ moderatedBy: "admin" });

    await page.goto(`/admin/uploads/${kept}`);
    await page.getByRole("button", { name: "Publish to Gallery" }).click();
    await expect(toast(page)).toContainText("Upload Updated");
    await page.goto(`/admin/uploads/${kept}`);
    await expect(page.getByText(/^Approved by admin on /)).toBeVisible();

    await page.goto(`/admin/uploads/${deleted}`);
    await page.getByRole("button", { name: "Delete Permanently" }).click();
    await page
      .getByRole("alertdialog", { name: "Delete this upload permanently?" })
      .getByRole("button", { name: "Yes, delete it" })
      .click();
    await expect(toast(page)).toContainText("Upload Updated");
    await page.goto(`/admin/uploads/${deleted}`);
    await expect(page.getByText("This upload was deleted permanently.")).toBeVisible();
    await expect(page.getByText(/^Rejected by admin on /)).toBeVisible();
    await expect(page.getByRole("button", { name: "Publish to Gallery" })).toHaveCount(0);
    expect(db.select().from(uploads).where(eq(uploads.id, deleted)).get()).toMatchObject({ status: "REJECTED", moderatedBy: "admin" });
    await expectNoAxeViolations(page);
  });
});

test.describe("the first run", { tag: "@no-js" }, () => {
  test("without any admin, /admin offers to set up the memorial and asks for the setup code", async ({ page }) => {
    db.delete(adminUsers).run();
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/setup$/);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: "Set up the memorial" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel("Setup code").fill("AAAA-BBBB-CCCC");
    await page.getByLabel("Username").fill("intruder");
    await page.getByLabel("Password", { exact: true }).fill("intruders-password");
    await page.getByLabel("Password again").fill("intruders-password");
    await page.getByRole("button", { name: "Create the First Admin" }).click();
    await expect(page.getByText("That setup code is not right.")).toBeVisible();
    expect(db.select().from(adminUsers).all()).toEqual([]);

    // Once an admin exists (here the e2e admin, as at the server's start), the page is gone.
    await upsertAdmin(ADMIN.username, ADMIN.password);
    await page.goto("/admin/setup");
    await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
  });
});
