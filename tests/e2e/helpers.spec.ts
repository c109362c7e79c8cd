// A helper who reads first, on phones, with JavaScript and without (every
// test here is tagged @no-js, so both projects run it): the family invites
// her from the Site tab, she accepts on her own phone and moderates,
// corrects a typo, and finds every family-only page (a polite 403 page) and
// API (403 JSON) closed to her; the family sees her as a helper and can
// change her role. What a helper's rejection does inside (deleted, or set
// aside for the family) is not looked at: only what a visitor sees.
import { type Browser, type Page } from "@playwright/test";
import { eq, ne } from "drizzle-orm";
import { adminInvitations, adminUsers } from "../../db/schema";
import { createAdmin, upsertAdmin, verifyAdminLogin } from "~/admins/admin.server";
import { FAMILY_ONLY, FAMILY_ONLY_PAGE } from "~/admins/roles";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { ADMIN, hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { addMemory, addUpload, removeAllMemories, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

const PHONE = { width: 375, height: 740 };
const HELPER_TABS = ["Pending Memories", "Pending Uploads", "Published", "Attendance", "Poems", "E-mail", "Account"];
const FAMILY_PAGES = ["/admin/site", "/admin/exports", "/admin/life", "/admin/remember", "/admin/print", "/admin/admins"];

const javaScript = () => test.info().project.use.javaScriptEnabled !== false;
/** A name of this test's own, so the js and no-js runs never meet. */
const named = (name: string) => `${name}-${javaScript() ? "js" : "nojs"}`;

const toast = (page: Page) => page.getByTestId("toast");
const tabs = (page: Page) => page.getByRole("navigation", { name: "Admin sections" }).getByRole("link");
/** A route shown as a dialog: modal with JavaScript, a region of the page without it. */
const dialog = (page: Page, name: string) => page.getByRole(javaScript() ? "dialog" : "region", { name });
const adminRow = (page: Page, username: string) =>
  page.getByRole("region", { name: "Family admins" }).getByRole("row").filter({ hasText: username });

/** The tabs' labels without their counts ("Pending Memories (2)" is "Pending Memories"). */
async function tabLabels(page: Page) {
  return (await tabs(page).allInnerTexts()).map((label) => label.replace(/\s*\(\d+\)$/, ""));
}

/** Another person's phone, with JavaScript as this project has it, on this worker's site. */
async function otherPhone(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ javaScriptEnabled: javaScript(), baseURL, viewport: PHONE });
  return { context, page: await context.newPage() };
}

/** A helper made by the family (not through the form: for the tests of what she may reach). */
async function addHelper() {
  const username = named("helper");
  await createAdmin({ username, password: "helpers-password", role: "helper" }, operator());
  return username;
}

test.use({ viewport: PHONE });

test.beforeEach(() => {
  removeAllMemories();
  removeAllUploads();
});

test.afterEach(async () => {
  db.delete(adminInvitations).run();
  db.delete(adminUsers).where(ne(adminUsers.username, ADMIN.username)).run();
  if (!(await verifyAdminLogin(ADMIN.username, ADMIN.password))) await upsertAdmin(ADMIN.username, ADMIN.password);
  db.update(adminUsers).set({ role: "family" }).where(eq(adminUsers.username, ADMIN.username)).run();
});

test.describe("a helper who reads first", { tag: "@no-js" }, () => {
  test("the family invites her from a phone; she accepts on hers, moderates and corrects; the family can change her role", async ({
    page,
    browser,
    baseURL,
    login,
  }) => {
    addMemory({ name: "Cousin Ellen", message: "I remember the summer at the lake." });
    addMemory({ name: "Spam Sender", message: "Buy cheap watches at my shop today." });
    addMemory({ name: "Aunt May", message: "She kept the garden full of rosses.", status: "APPROVED" });
    await addUpload({ name: "picnic.jpg", sender: "Kept Sender" });
    await addUpload({ name: "blurry.jpg", sender: "Refused Sender", colour: "#c69a7a" });
    const helper = named("helen");

    // The family member, on her phone: Site tab, Family admins, Invite someone as a helper.
    await login(page);
    await tabs(page).filter({ hasText: "Site" }).click();
    await expect(page).toHaveURL(/\/admin\/site/);
    const invite = page.getByRole("form", { name: "Invite someone" });
    await invite.getByRole("radio", { name: "Helper" }).check();
    await invite.getByRole("button", { name: "Create Invitation Link" }).click();
    await expect(toast(page)).toContainText("Invitation Created");
    const box = page.getByRole("group", { name: "Your invitation link" });
    await expect(box).toContainText("(for a helper)");
    const link = (await box.getByText(/\/admin\/invite\/[A-Za-z0-9_-]{43}$/).textContent())!.trim();

    // The helper, on her own phone.
    const her = await otherPhone(browser, baseURL);
    await her.page.goto(link);
    await hydrated(her.page);
    await expect(her.page.getByRole("heading", { level: 1, name: "Become a helper" })).toBeVisible();
    await expect(her.page.getByText(`${ADMIN.username} has invited you to help the family as a helper`)).toBeVisible();
    await expectNoAxeViolations(her.page);
    await her.page.getByLabel("Username").fill(helper);
    await her.page.getByLabel("Password", { exact: true }).fill("helens-password");
    await her.page.getByLabel("Password again").fill("helens-password");
    await her.page.getByRole("button", { name: "Become a Helper" }).click();
    await expect(her.page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
    await expect(toast(her.page)).toContainText("You are now a helper on this memorial");
    expect(await tabLabels(her.page)).toEqual(HELPER_TABS);

    // Memories: one approved, one rejected (after its question).
    await hydrated(her.page);
    await her.page
      .getByRole("row", { name: /Cousin Ellen/ })
      .getByRole("button", { name: "Approve" })
      .click();
    await expect(toast(her.page)).toContainText("Cousin Ellen’s memory is now on the guest book.");
    await hydrated(her.page);
    // Her rejection is set aside for the family, and her buttons say so.
    await her.page
      .getByRole("row", { name: /Spam Sender/ })
      .getByRole("button", { name: "Set aside" })
      .click();
    await her.page.getByRole("alertdialog", { name: "Set this memory aside?" }).getByRole("button", { name: "Yes, set it aside" }).click();
    await expect(toast(her.page)).toContainText("Spam Sender’s memory was set aside");
    await expect(her.page.getByText("No pending memories to review.")).toBeVisible();

    // Photos: one published, one refused.
    await hydrated(her.page);
    await tabs(her.page).filter({ hasText: "Pending Uploads" }).click();
    await her.page.getByRole("listitem").filter({ hasText: "picnic.jpg" }).getByRole("button", { name: "Publish" }).click();
    await expect(toast(her.page)).toContainText("“picnic.jpg” is now in the gallery.");
    await hydrated(her.page);
    await her.page.getByRole("listitem").filter({ hasText: "blurry.jpg" }).getByRole("button", { name: "Set aside" }).click();
    await her.page.getByRole("alertdialog", { name: "Set this upload aside?" }).getByRole("button", { name: "Yes, set it aside" }).click();
    await expect(toast(her.page)).toContainText("“blurry.jpg” was set aside with its files");
    await expect(her.page.getByText("No pending uploads to review.")).toBeVisible();

    // A typo corrected in a published memory.
    await hydrated(her.page);
    await tabs(her.page).filter({ hasText: "Published" }).click();
    await hydrated(her.page);
    await her.page
      .getByRole("listitem")
      .filter({ hasText: "Aunt May" })
      .getByRole("link", { name: "Edit the memory from Aunt May" })
      .click();
    const edit = dialog(her.page, "Edit the memory from Aunt May");
    await edit.getByLabel("Message").fill("She kept the garden full of roses.");
    await edit.getByRole("button", { name: "Save correction" }).click();
    await expect(toast(her.page)).toContainText("Memory Corrected");
    await expect(her.page.getByRole("listitem").filter({ hasText: "Aunt May" })).toContainText(`Edited by ${helper}`);

    // What a visitor sees.
    const visitor = await otherPhone(browser, baseURL);
    await visitor.page.goto("/guestbook");
    await expect(visitor.page.getByText("I remember the summer at the lake.")).toBeVisible();
    await expect(visitor.page.getByText("She kept the garden full of roses.")).toBeVisible();
    await expect(visitor.page.getByText("rosses")).toHaveCount(0);
    await expect(visitor.page.getByText("Buy cheap watches")).toHaveCount(0);
    await visitor.page.goto("/gallery");
    await expect(visitor.page.getByRole("link", { name: /^Photo shared by Kept Sender/ })).toBeVisible();
    await expect(visitor.page.getByRole("link", { name: /Refused Sender/ })).toHaveCount(0);
    await visitor.context.close();

    // The family sees her as a helper, and can make her family and a helper again.
    await page.goto("/admin/site");
    await hydrated(page);
    const row = adminRow(page, helper);
    await expect(row.getByRole("cell").nth(1)).toHaveText("Helper");
    await row.getByRole("button", { name: `Make ${helper} family` }).click();
    await expect(toast(page)).toContainText(`${helper} is now family: they can do everything.`);
    await expect(adminRow(page, helper).getByRole("cell").nth(1)).toHaveText("Family");
    await her.page.goto("/admin/account");
    expect(await tabLabels(her.page)).toContain("Site");
    await hydrated(page);
    await adminRow(page, helper)
      .getByRole("button", { name: `Make ${helper} a helper` })
      .click();
    await expect(toast(page)).toContainText(`${helper} is now a helper: they can moderate, and nothing more.`);
    await expect(adminRow(page, helper).getByRole("cell").nth(1)).toHaveText("Helper");
    await her.page.reload();
    expect(await tabLabels(her.page)).toEqual(HELPER_TABS);
    await her.context.close();
  });

  test("a family address opened by a helper is a polite 403 page with no form on it", async ({ page, login }) => {
    const helper = await addHelper();
    await login(page, "/admin", helper);
    for (const address of FAMILY_PAGES) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(403);
      await hydrated(page);
      await expect(page.getByRole("heading", { level: 1, name: FAMILY_ONLY_PAGE.title })).toBeVisible();
      await expect(page.getByText(FAMILY_ONLY_PAGE.text)).toBeVisible();
      // Nothing of the page behind it (the site's own header keeps its menu).
      const main = page.getByRole("main");
      await expect(main.locator("form"), address).toHaveCount(0);
      await expect(main.getByRole("textbox")).toHaveCount(0);
      await expect(main.getByRole("button")).toHaveCount(0);
    }
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: "Back to the admin panel" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
    expect(await tabLabels(page)).toEqual(HELPER_TABS);

    // Her own account page: her role, in words, and her password.
    await tabs(page).filter({ hasText: "Account" }).click();
    await expect(page.getByText(`You are logged in as ${helper}, as helper.`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Change Password" })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("a helper's own calls to the family's API are answered 403 in the API's shape", async ({ page, baseURL, login }) => {
    const helper = await addHelper();
    await login(page, "/admin", helper);
    const forbidden = { errors: { role: [FAMILY_ONLY] } };
    for (const address of ["/api/admin/settings", "/api/admin/admins", "/api/admin/export/contacts.csv", "/api/admin/followers"]) {
      const response = await page.request.get(address);
      expect([address, response.status(), await response.json()]).toEqual([address, 403, forbidden]);
    }
    const headers = { Origin: baseURL! };
    const settings = await page.request.patch("/api/admin/settings", { data: { visibility: "private" }, headers });
    expect([settings.status(), await settings.json()]).toEqual([403, forbidden]);
    const added = await page.request.post("/api/admin/admins", {
      data: { username: named("backdoor"), password: "backdoor-password", role: "family" },
      headers,
    });
    expect([added.status(), await added.json()]).toEqual([403, forbidden]);
    expect(
      db
        .select()
        .from(adminUsers)
        .where(eq(adminUsers.username, named("backdoor")))
        .all(),
    ).toEqual([]);
    // Her own addresses answer her.
    expect((await page.request.get("/api/admin/pending-memories")).status()).toBe(200);
  });
});
