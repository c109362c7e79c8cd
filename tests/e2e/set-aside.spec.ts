// "Let helpers read first", on a phone, with JavaScript and without: the
// family turns it on in the Site tab; a helper sets a memory aside; the
// family's Pending and Published tabs never show its words, and the Set
// aside tab shows them only once the family opens the item, to publish it.
import { type Browser, type Page } from "@playwright/test";
import { eq, ne } from "drizzle-orm";
import { adminUsers, memories, siteSettings } from "../../db/schema";
import { createAdmin, upsertAdmin, verifyAdminLogin } from "~/admins/admin.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { ADMIN, hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { addMemory, removeAllMemories } from "./support/data";
import { expect, test } from "./support/fixtures";

const PHONE = { width: 360, height: 740 };
test.use({ viewport: PHONE });

const javaScript = () => test.info().project.use.javaScriptEnabled !== false;
/** A name of this test's own, so the js and no-js runs never meet. */
const named = (name: string) => `${name}-${javaScript() ? "js" : "nojs"}`;
const toast = (page: Page) => page.getByTestId("toast");
const tabs = (page: Page) => page.getByRole("navigation", { name: "Admin sections" });

/** The helper's own phone, with JavaScript as this project has it. */
async function helperPhone(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ javaScriptEnabled: javaScript(), baseURL, viewport: PHONE });
  return { context, page: await context.newPage() };
}

test.beforeEach(() => {
  removeAllMemories();
  db.delete(siteSettings).where(eq(siteSettings.key, "helpersReadFirst")).run();
});
test.afterEach(async () => {
  removeAllMemories();
  db.delete(siteSettings).where(eq(siteSettings.key, "helpersReadFirst")).run();
  db.delete(adminUsers).where(ne(adminUsers.username, ADMIN.username)).run();
  if (!(await verifyAdminLogin(ADMIN.username, ADMIN.password))) await upsertAdmin(ADMIN.username, ADMIN.password);
});

test(
  "with helpers reading first, a memory a helper sets aside reaches the family only when they open it, and they publish it",
  { tag: "@no-js" },
  async ({ page, browser, baseURL, login }) => {
    const helper = named("anna");
    const words = `${named("Words")} the family should not meet unasked: a hard memory of the last weeks.`;
    await createAdmin({ username: helper, password: "annas-password", role: "helper" }, operator());

    // The family turns it on in the Site tab.
    await login(page, "/admin/site");
    const section = page.getByRole("region", { name: "Helpers" });
    const box = section.getByRole("checkbox", { name: "Let helpers read first" });
    await expect(box).not.toBeChecked();
    await box.check();
    await section.getByRole("button", { name: "Save helpers" }).click();
    await expect(section.getByRole("status")).toContainText("Settings Saved");
    await expect(page.getByRole("region", { name: "Helpers" }).getByRole("checkbox", { name: "Let helpers read first" })).toBeChecked();

    // A visitor's memory arrives: the family's Pending tab keeps it to a notice.
    addMemory({ name: "Ann Lee", message: words });
    await tabs(page)
      .getByRole("link", { name: /Pending Memories/ })
      .click();
    await expect(page.getByText("Your helpers read new memories first.")).toBeVisible();
    await expect(page.getByText(words)).toHaveCount(0);

    // The helper, on her own phone, sets it aside.
    const other = await helperPhone(browser, baseURL);
    try {
      await login(other.page, "/admin", helper);
      const row = other.page.getByRole("row").filter({ hasText: "Ann Lee" });
      await expect(row).toContainText(words.slice(0, 40));
      await row.getByRole("button", { name: "Set aside" }).click();
      const question = other.page.getByRole("alertdialog", { name: "Set this memory aside?" });
      await expect(question).toContainText("kept for the family");
      await question.getByRole("button", { name: "Yes, set it aside" }).click();
      await expect(toast(other.page)).toContainText("Ann Lee’s memory was set aside");
    } finally {
      await other.context.close();
    }
    const stored = db.select().from(memories).where(eq(memories.name, "Ann Lee")).get()!;
    expect(stored).toMatchObject({ status: "REJECTED", setAside: true, moderatedBy: helper });

    // Neither Pending nor Published shows its words to the family.
    await page.reload();
    await hydrated(page);
    await expect(page.getByText(words)).toHaveCount(0);
    await tabs(page).getByRole("link", { name: "Published" }).click();
    await expect(page).toHaveURL(/\/admin\/published\/memories$/);
    await expect(page.getByText("No memories have been published yet.")).toBeVisible();
    await expect(page.getByText(words)).toHaveCount(0);

    // The Set aside tab names who sent it and who set it aside; the words only once opened.
    await tabs(page).getByRole("link", { name: "Set aside (1)" }).click();
    await expect(page).toHaveURL(/\/admin\/set-aside$/);
    await hydrated(page);
    const summary = page.getByText(new RegExp(`^A memory from Ann Lee, set aside by ${helper} on \\w+ \\d{1,2}, \\d{4}$`));
    await expect(summary).toBeVisible();
    await expect(page.getByText(words)).toBeHidden();
    await expectNoAxeViolations(page);
    await summary.click();
    await expect(page.getByText(words)).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Publish" }).click();
    await expect(toast(page)).toContainText("Memory Published");
    await expect(page.getByText("Nothing is set aside.")).toBeVisible();
    await expect(tabs(page).getByRole("link", { name: "Set aside (0)" })).toBeVisible();
    expect(db.select().from(memories).where(eq(memories.id, stored.id)).get()).toMatchObject({ status: "APPROVED", setAside: false });

    await page.goto("/guestbook");
    await expect(page.getByText(words)).toBeVisible();
  },
);
