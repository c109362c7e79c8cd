import { type Page } from "@playwright/test";
import { candles } from "../../db/schema";
import { db } from "~/platform/db.server";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";

// Light a candle: on a phone, with JavaScript and without (the no-js
// project runs these again with it off).

const candleSection = (page: Page) => page.getByRole("region", { name: "Light a candle" });

/** The count the section shows, as a number (0 when it invites the first candle). */
async function shownCount(page: Page) {
  const text =
    (await candleSection(page)
      .getByText(/candles? lit|Be the first/)
      .textContent()) ?? "";
  return /Be the first/.test(text) ? 0 : Number(text.replace(/[^\d]/g, ""));
}

for (const width of [320, 390]) {
  test.describe(`at ${width} px`, { tag: "@no-js" }, () => {
    test.use({ viewport: { width, height: 740 } });

    test("a wordless candle lit on the home page is counted at once", async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      const section = candleSection(page);
      await expect(section.getByRole("heading", { name: "Light a candle" })).toBeVisible();
      const before = await shownCount(page);
      const button = section.getByRole("button", { name: "Light a candle" });
      const box = (await button.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await expectNoAxeViolations(page);

      await button.click();
      await expect(page.getByTestId("toast")).toContainText("Your candle is lit.");
      await expect(page).toHaveURL(/\/#candles$/);
      await expect(section.getByText(`${before + 1} ${before + 1 === 1 ? "candle" : "candles"} lit`)).toBeVisible();
      // Nothing on the page is wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // A second candle the same day is thanked, not counted again.
      await section.getByRole("button", { name: "Light a candle" }).click();
      await expect(page.getByTestId("toast")).toContainText("counted once a day");
      await expect(section.getByText(`${before + 1} ${before + 1 === 1 ? "candle" : "candles"} lit`)).toBeVisible();
    });

    test("a candle with a name and a line waits for the family, then shows on the guest book", async ({ page, login, browser }) => {
      db.delete(candles).run();
      const name = `Cousin ${Math.random().toString(36).slice(2, 7)}`;
      await page.goto("/guestbook");
      await hydrated(page);
      const section = candleSection(page);
      await section.getByLabel("Your name (optional)").fill(name);
      await section.getByLabel("A few words (optional, up to 140 characters)").fill("Thinking of you all tonight.");
      await expect(section.getByLabel("A few words (optional, up to 140 characters)")).toHaveAttribute("maxlength", "140");
      await section.getByRole("button", { name: "Light a candle" }).click();
      await expect(page.getByTestId("toast")).toContainText("Your name and words will be shown once the family has seen them.");
      await expect(page).toHaveURL(/\/guestbook#candles$/);
      await expect(candleSection(page).getByText(name)).toHaveCount(0);
      await expect(candleSection(page).getByText("Be the first to light a candle.")).toBeVisible();
      await expectNoAxeViolations(page);

      // The family publishes it from the Pending tab, in a browser of their own.
      const family = await browser.newContext({
        viewport: { width, height: 740 },
        javaScriptEnabled: test.info().project.use.javaScriptEnabled,
      });
      const admin = await family.newPage();
      await login(admin);
      const waiting = admin.getByRole("region", { name: "Candles waiting" });
      await expect(waiting.getByText(name)).toBeVisible();
      await waiting
        .getByRole("row", { name: new RegExp(name) })
        .getByRole("button", { name: "Publish" })
        .click();
      await expect(admin.getByTestId("toast")).toContainText(`The candle from ${name} is now shown with its words.`);
      await expect(admin.getByText("No candles are waiting.")).toBeVisible();
      await family.close();

      await page.goto("/guestbook");
      await expect(candleSection(page).getByText(name)).toBeVisible();
      await expect(candleSection(page).getByText("Thinking of you all tonight.")).toBeVisible();
      await expect(candleSection(page).getByText("1 candle lit")).toBeVisible();
    });

    test("a refused line comes back with its message and what was typed", async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      // The browser keeps a line to 140 characters; a hidden character only the server sees.
      const section = candleSection(page);
      await section.getByLabel("Your name (optional)").fill("Ann\u0007");
      await section.getByRole("button", { name: "Light a candle" }).click();
      await expect(page).toHaveURL(/\/candles$/);
      await expect(page.getByText("Your name must be one line of plain text, without line breaks or hidden characters")).toBeVisible();
      await expect(page.getByLabel("Your name (optional)")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Your name (optional)")).toHaveValue(/^Ann/);
      await expectNoAxeViolations(page);
    });
  });
}
