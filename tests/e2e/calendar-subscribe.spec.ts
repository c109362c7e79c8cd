// The home page offers the calendar to subscribe to (GET /calendar.ics): a
// webcal:// link for calendar apps, and the https address written out for
// calendars that take one, with and without JavaScript.
import { db } from "~/platform/db.server";
import { writeRemembrance } from "~/remembrance/remembrance.server";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

test.describe("the calendar to subscribe to", { tag: "@no-js" }, () => {
  test.afterEach(() => resetSiteSettings());

  test("the Memorial Service card offers the days we remember as a webcal link and as an address to copy", async ({ page }) => {
    await changeSiteSettings({ personName: "Margaret Hale", birthDate: "1941-06-14" });
    db.transaction((tx) => writeRemembrance(tx, { birthday: true }, "e2e"));
    await page.goto("/");
    const card = page.locator("#service");
    const subscribe = card.getByRole("link", { name: "Subscribe to the days we remember" });
    await expect(subscribe).toHaveAttribute("href", /^webcal:\/\/[^/]+\/calendar\.ics$/);
    const address = (await subscribe.getAttribute("href"))!.replace(/^webcal:/, new URL(page.url()).protocol);
    const copy = card.getByRole("link", { name: address });
    await expect(copy).toHaveAttribute("href", address);
    await expect(card).toContainText(`Or add this address to your calendar: ${address}`);

    const feed = await page.request.get(address);
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
    const ics = (await feed.text()).replace(/\r\n[ \t]/g, "");
    expect(ics).toContain("X-WR-CALNAME:In memory of Margaret Hale");
    expect(ics).toContain("SUMMARY:Margaret Hale's birthday");
  });

  test("a private memorial does not offer it, and its calendar answers only with the passcode", async ({ page }) => {
    await changeSiteSettings({ visibility: "private", visitorPasscode: "blue heron" });
    // A calendar app asks without the passcode: refused, nothing of the memorial in the answer.
    const refused = await page.request.get("/calendar.ics");
    expect(refused.status()).toBe(401);
    expect(await refused.text()).not.toContain("BEGIN:VCALENDAR");
    await page.goto("/");
    await page.getByLabel("Passcode").fill("blue heron");
    await page.getByRole("button", { name: "Open the memorial" }).click();
    await expect(page.locator("#service")).toBeVisible();
    await expect(page.getByRole("link", { name: "Subscribe to the days we remember" })).toHaveCount(0);
    // With the passcode (the browser's cookie) it answers.
    expect((await page.request.get("/calendar.ics")).status()).toBe(200);
  });
});
