// The E-mail tab on a phone, with JavaScript and without, on a site with no
// mail server (the e2e server has none): the panel says no e-mail is sent,
// each admin still sets her address and choice, and visitors are offered no
// e-mail. Sending itself is tested against a real SMTP server in vitest
// (tests/unit/mail*.test.ts).
import { eq } from "drizzle-orm";
import { adminUsers } from "../../db/schema";
import { db } from "~/platform/db.server";
import { ADMIN } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";

test.use({ viewport: { width: 390, height: 844 } });

const keeper = () => db.select().from(adminUsers).where(eq(adminUsers.username, ADMIN.username)).get();

test.beforeEach(() => {
  db.update(adminUsers).set({ email: null, mailChoice: "none", digestTime: "08:00" }).where(eq(adminUsers.username, ADMIN.username)).run();
});

test(
  "the E-mail tab says the site sends no e-mail, and saves an admin's address and daily time",
  { tag: "@no-js" },
  async ({ page, login }) => {
    await login(page);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "E-mail" }).click();
    await expect(page).toHaveURL(/\/admin\/email$/);
    await expect(page.getByRole("note")).toContainText("This site sends no e-mail: no mail server is set up");
    await expectNoAxeViolations(page);

    await page.getByLabel("Your e-mail address").fill("not an address");
    await page.getByLabel("One summary a day").check();
    await page.getByRole("button", { name: "Save" }).click();
    // The browser's own check, or the server's message without JavaScript: nothing is saved.
    expect(await page.getByLabel("Your e-mail address").evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    expect(keeper()?.mailChoice).toBe("none");

    await page.getByLabel("Your e-mail address").fill("keeper@family.test");
    await page.getByLabel("Time of the daily summary").fill("07:30");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("toast")).toContainText("E-mail Saved");
    expect(keeper()).toMatchObject({ email: "keeper@family.test", mailChoice: "daily", digestTime: "07:30" });
    await page.reload();
    await expect(page.getByLabel("Your e-mail address")).toHaveValue("keeper@family.test");
    await expect(page.getByLabel("One summary a day")).toBeChecked();
    await expect(page.getByLabel("Time of the daily summary")).toHaveValue("07:30");
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  },
);

test("visitors are offered no e-mail when the site sends none", { tag: "@no-js" }, async ({ page }) => {
  await page.goto("/guestbook");
  await expect(page.getByLabel("Your Memory *")).toBeVisible();
  await expect(page.getByLabel("E-mail me when the family has added my memory")).toHaveCount(0);
  await page.goto("/share");
  await expect(page.getByLabel("Email*")).toBeVisible();
  await expect(page.getByLabel(/E-mail me when the family has added my photos/)).toHaveCount(0);
});
