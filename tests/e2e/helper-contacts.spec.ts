// A helper on her phone reads what visitors send and who sent it, never how
// to reach them: no visitor's e-mail address or phone number is anywhere in
// the pages she is sent (the HTML, and the loader data Remix writes into it),
// and attendance is the counts and the names. Without JavaScript (and again
// with it, as the js project runs every test).
import { type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { adminUsers, rsvps } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { createAdmin } from "~/admins/admin.server";
import { expectNoAxeViolations } from "./support/axe";
import { addMemory, removeAllMemories } from "./support/data";
import { expect, test } from "./support/fixtures";

const EMAIL = "ellen.private@example.com";
const PHONE = "+44 7700 900123";

/** The number under one of the Attendance tab's headings. */
const stat = (page: Page, heading: string) => page.getByRole("heading", { name: heading }).locator("xpath=following-sibling::p[1]");

const javaScript = () => test.info().project.use.javaScriptEnabled !== false;
/** The helper of this run, so the js and no-js runs never meet. */
const helperName = () => `helen-${javaScript() ? "js" : "nojs"}`;

test.afterEach(() => {
  removeAllMemories();
  db.delete(rsvps).where(eq(rsvps.email, EMAIL)).run();
  db.delete(adminUsers).where(eq(adminUsers.username, helperName())).run();
});

test.describe("a helper's phone", { tag: "@no-js" }, () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("shows visitors' names and words, never their e-mail address or phone number", async ({ page, login }) => {
    await createAdmin({ username: helperName(), password: "helens-password", role: "helper" }, operator());
    const id = addMemory({ name: "Ellen Moss", email: EMAIL, phone: PHONE, message: "I remember the summer at the lake." });
    db.insert(rsvps).values({ name: "Ellen Moss", email: EMAIL, guestCount: 3, notes: "We will bring flowers." }).run();

    await login(page, "/admin", helperName());
    const row = page.getByRole("row").filter({ hasText: "Ellen Moss" });
    await expect(row).toContainText("I remember the summer at the lake.");
    await expect(page.getByRole("columnheader", { name: "Email" })).toHaveCount(0);
    expect(await page.content()).not.toContain(EMAIL);
    expect(await page.content()).not.toContain(PHONE);
    await expectNoAxeViolations(page);

    await row.getByRole("link", { name: "View the memory from Ellen Moss" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/memories/${id}$`));
    await expect(page.getByRole("heading", { name: "Memory from Ellen Moss" })).toBeVisible();
    await expect(page.getByText("Email", { exact: true })).toHaveCount(0);
    expect(await page.content()).not.toContain(EMAIL);
    expect(await page.content()).not.toContain(PHONE);

    // Opened afresh, so the page holds its loader data whether or not JavaScript runs.
    await page.goto("/admin/attendance");
    const all = db.select({ guestCount: rsvps.guestCount }).from(rsvps).all();
    await expect(stat(page, "Memorial Attendees")).toHaveText(String(all.length));
    await expect(stat(page, "Total Guests")).toHaveText(String(all.reduce((sum, rsvp) => sum + rsvp.guestCount, 0)));
    const attendee = page.getByRole("row").filter({ hasText: "Ellen Moss" });
    await expect(attendee).toContainText("3");
    await expect(page.getByRole("columnheader", { name: "Email" })).toHaveCount(0);
    expect(await page.content()).not.toContain(EMAIL);
    expect(await page.content()).not.toContain(PHONE);
    await expectNoAxeViolations(page);
  });

  test("the family's phone still shows how to reach them", async ({ page, login }) => {
    const id = addMemory({ name: "Ellen Moss", email: EMAIL, phone: PHONE, message: "I remember the summer at the lake." });
    db.insert(rsvps).values({ name: "Ellen Moss", email: EMAIL, guestCount: 3 }).run();
    await login(page, "/admin");
    await expect(page.getByRole("row").filter({ hasText: "Ellen Moss" })).toContainText(EMAIL);
    await page.goto(`/admin/memories/${id}`);
    await expect(page.getByText(PHONE)).toBeVisible();
    await page.goto("/admin/attendance");
    await expect(page.getByRole("row").filter({ hasText: "Ellen Moss" })).toContainText(EMAIL);
  });
});
