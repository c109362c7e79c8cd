import { addPoem, removeAllPoems } from "./support/data";
import { expectNoAxeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

test.describe("poems page", { tag: "@no-js" }, () => {
  test("says so when there are no poems yet", async ({ page }) => {
    removeAllPoems();
    await page.goto("/poems");
    await expect(page.getByRole("heading", { level: 1, name: "Poems & Writings" })).toBeVisible();
    await expect(page.getByText("No poems yet.", { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("shows each poem with its title, author, when it was added and line breaks, newest first", async ({ page }) => {
    removeAllPoems();
    // Fixed times, days from the server's clock, so the words do not depend on how long the test takes.
    addPoem({
      title: "Evening Light",
      content: "The day is done\nand the light stays on",
      author: "Aunt May",
      addedAt: Date.now() - 3 * DAY - HOUR,
    });
    addPoem({ title: "Untitled Thoughts", content: "Just one line", addedAt: Date.now() - 2 * HOUR });

    await page.goto("/poems");
    const poems = page.getByRole("article");
    await expect(poems).toHaveCount(2);
    await expect(poems.nth(0).getByRole("heading")).toHaveText("Untitled Thoughts");
    await expect(poems.nth(0)).not.toContainText("By ");
    await expect(poems.nth(0).locator("time")).toHaveText("Added about 2 hours ago");
    const first = poems.nth(1);
    await expect(first.getByRole("heading")).toHaveText("Evening Light");
    await expect(first).toContainText("By Aunt May");
    expect(await first.getByText("The day is done").innerText()).toBe("The day is done\nand the light stays on");
    await expect(page.getByText("No poems yet")).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  for (const width of [320, 414]) {
    test(`at ${width} px a poem says when the family added it, between its author and its words, never as a bare date`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 740 });
      removeAllPoems();
      const added = Date.now() - 3 * DAY - HOUR;
      addPoem({ title: "Crossing the Bar", author: "Alfred, Lord Tennyson", content: "Sunset and evening star", addedAt: added });
      await page.goto("/poems");
      const poem = page.getByRole("article", { name: "Crossing the Bar" });
      const lines = (await poem.innerText())
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean);
      // The spec's order: title, optional author, relative created time, content.
      expect(lines).toEqual(["Crossing the Bar", "By Alfred, Lord Tennyson", "Added 3 days ago", "Sunset and evening star"]);
      await expect(poem.locator("time")).toHaveAttribute("datetime", new Date(added).toISOString());
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }

  test("a poem's words are shown as text, never run as code", async ({ page }) => {
    removeAllPoems();
    addPoem({ title: "<b>bold</b>", content: "<img src=x onerror=\"document.title='hacked'\">" });
    await page.goto("/poems");
    await expect(page.getByRole("heading", { name: "<b>bold</b>" })).toBeVisible();
    await expect(page.getByText("<img src=x onerror=\"document.title='hacked'\">")).toBeVisible();
    await expect(page).not.toHaveTitle("hacked");
  });
});

test.describe("poems page with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "client-side navigation needs JavaScript");

  test("shows three placeholder cards while poems load after a click", async ({ page }) => {
    addPoem({ title: "Slow to arrive" });
    await page.goto("/");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/poems\?_data=/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Poems" }).click();
    const skeleton = page.getByTestId("poems-skeleton");
    await expect(skeleton).toBeVisible();
    await expect(skeleton.locator("> div")).toHaveCount(3);
    release();
    await expect(page.getByRole("heading", { name: "Slow to arrive" })).toBeVisible();
    await expect(skeleton).toHaveCount(0);
  });
});

test.describe("poems API", () => {
  test("GET /api/poems returns the poems as JSON, newest first", async ({ request }) => {
    removeAllPoems();
    addPoem({ title: "First", author: "Sam" });
    addPoem({ title: "Second" });
    const response = await request.get("/api/poems");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/json");
    const body = await response.json();
    expect(body.map((p: { title: string }) => p.title)).toEqual(["Second", "First"]);
    expect(Object.keys(body[1]).sort()).toEqual(["author", "content", "createdAt", "id", "title"]);
    expect(body[1].author).toBe("Sam");
    expect(body[0].author).toBeNull();
  });
});
