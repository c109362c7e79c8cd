import { type Page } from "@playwright/test";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

// The separators that keep side-by-side links apart in text browsers
// (text-browser.spec.ts) change nothing a graphic browser or a screen
// reader shows: hidden, silent, and the buttons keep their own gap.

test.afterEach(() => resetSiteSettings());

/** At least `count` separators in the page, each hidden from screen readers and drawn at most 1 px (a visually hidden box). */
async function expectHiddenSeparators(page: Page, count: number) {
  const separators = page.locator("main span", { hasText: /^ \| $/ });
  expect(await separators.count()).toBeGreaterThanOrEqual(count);
  for (const separator of await separators.all()) {
    await expect(separator).toHaveAttribute("aria-hidden", "true");
    const box = await separator.boundingBox();
    expect(box === null || (box.width <= 1 && box.height <= 1)).toBe(true);
  }
}

for (const width of [320, 414]) {
  test(`at ${width} px the hidden link separators show nothing and say nothing, and the not-found links are not bulleted`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await changeSiteSettings({ serviceStartsAt: "2099-06-06T11:00", serviceEndsAt: "2099-06-06T13:00" });
    await page.goto("/");
    const hero = page.locator("section[aria-labelledby=hero-title]");
    // Screen readers hear each link alone; nothing between them is drawn.
    await expectHiddenSeparators(page, 3);
    // The two hero buttons are apart by the row's own gap, as before (or on rows of their own).
    const [first, second] = await Promise.all([
      hero.getByRole("link", { name: "Share a Memory" }).boundingBox(),
      hero.getByRole("link", { name: "Upload Photos" }).boundingBox(),
    ]);
    const gap = await hero
      .getByRole("link", { name: "Share a Memory" })
      .evaluate((link) => parseFloat(getComputedStyle(link.parentElement!).columnGap) || 0);
    if (Math.abs(first!.y - second!.y) < 1) expect(Math.abs(second!.x - (first!.x + first!.width) - gap)).toBeLessThan(1);
    await expect(hero.getByRole("link", { name: "Share a Memory" })).toHaveAccessibleName("Share a Memory");

    await page.goto("/gallery");
    await expectHiddenSeparators(page, 3);

    await page.goto("/an-old-link");
    const ways = page.getByRole("navigation", { name: "Where to go from here" });
    await expect(ways.getByRole("listitem")).toHaveCount(3);
    const list = ways.getByRole("list");
    expect(await list.evaluate((ul) => [getComputedStyle(ul).listStyleType, getComputedStyle(ul).paddingLeft])).toEqual(["none", "0px"]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
