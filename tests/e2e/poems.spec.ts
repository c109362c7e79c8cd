import { expect, test } from "@playwright/test";
import { addPoem, removeAllPoems } from "./support/data";
import { expectNoAxeViolations } from "./support/axe";

test.describe("poems page", () => {
  test("says so when there are no poems yet", async ({ page }) => {
    removeAllPoems();
    await page.goto("/poems");
    await expect(page.getByRole("heading", { level: 1, name: "Poems & Writings" })).toBeVisible();
    await expect(page.getByText("No poems yet.", { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("shows each poem with its title, author and line breaks, newest first, and not when it was added", async ({ page }) => {
    removeAllPoems();
    addPoem({ title: "Evening Light", content: "The day is done\nand the light stays on", author: "Aunt May" });
    addPoem({ title: "Untitled Thoughts", content: "Just one line" });

    await page.goto("/poems");
    const poems = page.getByRole("article");
    await expect(poems).toHaveCount(2);
    await expect(poems.nth(0).getByRole("heading")).toHaveText("Untitled Thoughts");
    await expect(poems.nth(0)).not.toContainText("By ");
    const first = poems.nth(1);
    await expect(first.getByRole("heading")).toHaveText("Evening Light");
    await expect(first).toContainText("By Aunt May");
    // A poem from 1932 is not "less than a minute ago": visitors are not told when the family added it.
    await expect(page.getByText(/\bago\b|Recently/)).toHaveCount(0);
    await expect(poems.locator("time")).toHaveCount(0);
    expect(await first.getByText("The day is done").innerText()).toBe("The day is done\nand the light stays on");
    await expect(page.getByText("No poems yet")).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

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
