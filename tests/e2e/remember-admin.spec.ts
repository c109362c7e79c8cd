// The Remember tab on a phone, with JavaScript and without: the family
// turns yearly reminders on (a value the form refuses is said beside its
// field), sees the days they fall on next and how "after sunset" moves the
// yahrzeit, and removes someone who follows the memorial, after being asked.
import { eq } from "drizzle-orm";
import { followers, type FollowTopic } from "../../db/schema";
import { db } from "~/platform/db.server";
import { getRemembrance } from "~/remembrance/remembrance.server";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

test.use({ viewport: { width: 390, height: 844 } });

function addFollower(name: string, email: string, topics: FollowTopic[], confirmed: boolean) {
  const now = new Date();
  return db
    .insert(followers)
    .values({ name, email, topics, createdAt: now, confirmedAt: confirmed ? now : null, newsSince: confirmed ? now : null })
    .returning()
    .get();
}

test.beforeEach(async () => {
  resetSiteSettings();
  db.delete(followers).run();
  await changeSiteSettings({ birthDate: "1942", deathDate: "2025-01-09" });
});
test.afterEach(() => {
  resetSiteSettings();
  db.delete(followers).run();
});

test("the family saves yearly reminders and sees the days they fall on", { tag: "@no-js" }, async ({ page, login }) => {
  await login(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Remember" }).click();
  await expect(page).toHaveURL(/\/admin\/remember$/);
  await expect(page.getByRole("heading", { name: "Yearly reminders" })).toBeVisible();
  await expect(page.getByText("The birthday needs the month and day of birth")).toBeVisible();
  await expect(page.getByRole("link", { name: "the Site tab’s Dates and places" }).first()).toHaveAttribute("href", "/admin/site#person");
  await expectNoAxeViolations(page);

  await page.getByLabel("The anniversary of the death").check();
  await page.getByLabel("The yahrzeit (Hebrew calendar)").check();
  await page.getByLabel("Days before").fill("31");
  await page.getByRole("button", { name: "Save" }).click();
  // The browser's own check: nothing is sent.
  expect(await page.getByLabel("Days before").evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
  expect(getRemembrance().anniversary).toBe(false);

  // A value only the schema refuses: said beside the field, by the browser's script or by the server.
  await page.getByLabel("Days before").fill("3");
  await page.getByLabel("Your words").fill("Light a candle\u2028tonight.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your words must be plain text, without hidden characters")).toBeVisible();
  expect(getRemembrance().anniversary).toBe(false);

  await page.getByLabel("The anniversary of the death").check();
  await page.getByLabel("The yahrzeit (Hebrew calendar)").check();
  await page.getByLabel("Days before").fill("3");
  await page.getByLabel("Your words").fill("Light a candle tonight.");
  await page.getByLabel("Time to send").fill("18:30");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Reminders Saved");
  expect(getRemembrance()).toMatchObject({ anniversary: true, yahrzeit: true, afterSunset: false, daysBefore: 3, sendAt: "18:30" });
  await expect(page.getByLabel("Days before")).toHaveValue("3");
  await expect(page.getByLabel("Your words")).toHaveValue("Light a candle tonight.");

  const coming = page.getByRole("list", { name: "The next days the reminders are for" });
  await expect(coming).toContainText("anniversary of the death");
  await expect(coming).toContainText("9th of Tevet");
  await expect(page.getByText("Reminders go 3 days before and on the day, at 18:30")).toBeVisible();

  await page.getByLabel("The death was after sunset").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("toast")).toContainText("Reminders Saved");
  await expect(coming).toContainText("10th of Tevet");
  expect(getRemembrance().afterSunset).toBe(true);
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
});

test("the family sees who follows, and removes someone after being asked", { tag: "@no-js" }, async ({ page, login }) => {
  const ann = addFollower("Ann Lee", "ann@family.test", ["service", "reminders"], true);
  addFollower("Bob Ray", "bob@family.test", ["new"], false);
  await login(page, "/admin/remember");
  await expect(page.getByText("1 person follows the memorial, and 1 asked and has not confirmed yet.")).toBeVisible();
  await expect(page.getByRole("note")).toContainText("This site sends no e-mail");
  const list = page.getByRole("list", { name: "People who follow the memorial" });
  await expect(list).toContainText("ann@family.test");
  await expect(list).toContainText("Follows the service and yearly reminders.");
  await expect(list).not.toContainText("bob@family.test");
  await expect(page.getByRole("link", { name: "Download the list (CSV)" })).toHaveAttribute("href", "/api/admin/export/followers.csv");
  await expectNoAxeViolations(page);

  await list.getByRole("link", { name: "Remove Ann Lee" }).click();
  const ask = page.getByRole("alertdialog", { name: "Remove Ann Lee?" });
  await expect(ask).toContainText("Nothing more will be sent to ann@family.test");
  await ask.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByTestId("toast")).toContainText("Follower Removed");
  await expect(page).toHaveURL(/\/admin\/remember$/);
  await expect(page.getByText("Nobody follows the memorial yet.")).toBeVisible();
  expect(db.select().from(followers).where(eq(followers.id, ann.id)).get()).toBeUndefined();
});
