import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";

const toggle = (page: Page) => page.getByRole("contentinfo").getByRole("button", { name: "Karen Mode" });
/** Presses the toggle the way a keyboard or script would, without first scrolling the page to it. */
const pressToggle = (page: Page) => toggle(page).evaluate((button: HTMLButtonElement) => button.click());
const footerBackground = (page: Page) => page.locator("#footer").evaluate((el) => getComputedStyle(el).backgroundImage);

test.describe("Karen Mode without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "this is the plain form and cookie");

  test("the footer button turns the party style on for every page until it is turned off", async ({ page }) => {
    await page.goto("/poems");
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByTestId("karen-party")).toHaveCount(0);
    await toggle(page).click();

    await expect(page).toHaveURL(/\/poems$/);
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    expect(await footerBackground(page)).toContain("rgb(122, 12, 18)");
    await expect(page.getByTestId("karen-party").locator("span")).toHaveCount(30);
    // The browser's own player plays the music without JavaScript.
    await expect(page.locator("#footer audio[controls][loop]")).toBeVisible();

    await page.goto("/guestbook");
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    await expectNoAxeViolations(page);

    await toggle(page).click();
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByTestId("karen-party")).toHaveCount(0);
  });
});

test.describe("Karen Mode with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the music and the scroll need JavaScript");

  /** Records every play() call (time and volume); the first `refusals` calls are refused like a strict autoplay rule would. */
  async function recordPlays(page: Page, refusals: number) {
    await page.addInitScript((refuse) => {
      const calls: { at: number; volume: number; currentTime: number }[] = [];
      (window as unknown as { playCalls: typeof calls }).playCalls = calls;
      HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
        calls.push({ at: performance.now(), volume: this.volume, currentTime: this.currentTime });
        if (calls.length <= refuse) return Promise.reject(new DOMException("refused", "NotAllowedError"));
        this.dispatchEvent(new Event("play"));
        return Promise.resolve();
      };
      HTMLMediaElement.prototype.pause = function pause(this: HTMLMediaElement) {
        this.dispatchEvent(new Event("pause"));
      };
    }, refusals);
  }
  const playCalls = (page: Page) => page.evaluate(() => (window as unknown as { playCalls: { at: number; volume: number }[] }).playCalls);

  test("turning it on flips in place, plays at volume 0.7 with retries, and scrolls to the footer after 1.5 s", async ({ page }) => {
    await recordPlays(page, 3);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const clickedAt = await page.evaluate(() => performance.now());
    await pressToggle(page);

    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    // Flipped in place: still the same document, no reload.
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await expect.poll(() => playCalls(page).then((calls) => calls.length)).toBe(4);
    const calls = await playCalls(page);
    expect(calls.every((call) => call.volume === 0.7)).toBe(true);
    // First try at once, then the retries at about 100, 500 and 1000 ms (the last one is let through).
    const offsets = calls.map((call) => call.at - calls[0]!.at);
    expect(offsets[1]).toBeGreaterThanOrEqual(90);
    expect(offsets[1]).toBeLessThan(400);
    expect(offsets[2]).toBeGreaterThanOrEqual(480);
    expect(offsets[2]).toBeLessThan(900);
    expect(offsets[3]).toBeGreaterThanOrEqual(980);
    await expect(page.getByRole("button", { name: "Pause the music" })).toBeVisible();

    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5000 }).toBeGreaterThan(0);
    const scrolledAt = await page.evaluate(() => performance.now());
    expect(scrolledAt - clickedAt).toBeGreaterThanOrEqual(1400);
    await page.waitForTimeout(1200);
    await expect(page.locator("#footer")).toBeInViewport();
    await expect(page.getByTestId("karen-party").locator("span")).toHaveCount(30);
    await expectNoAxeViolations(page);
  });

  test("the lights change every 800 ms", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await pressToggle(page);
    const positions = () => page.getByTestId("karen-party").locator("span").evaluateAll((lights) => lights.map((l) => (l as HTMLElement).style.left).join());
    const first = await positions();
    await expect.poll(positions, { timeout: 3000 }).not.toBe(first);
  });

  test("Play and Pause follow the audio, and music never starts by itself on a page load", async ({ page }) => {
    await recordPlays(page, 0);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await pressToggle(page);
    const pause = page.getByRole("button", { name: "Pause the music" });
    await expect(pause).toBeVisible();
    await pause.click();
    await expect(page.getByRole("button", { name: "Play the music" })).toBeVisible();
    await page.locator("#footer audio").evaluate((audio) => audio.dispatchEvent(new Event("play")));
    await expect(page.getByRole("button", { name: "Pause the music" })).toBeVisible();
    await page.locator("#footer audio").evaluate((audio) => audio.dispatchEvent(new Event("ended")));
    await expect(page.getByRole("button", { name: "Play the music" })).toBeVisible();
    await expect(page.locator("#footer audio")).toHaveAttribute("loop", "");

    // Karen Mode stays on across pages, but the music waits for the visitor.
    const before = (await playCalls(page)).length;
    await page.goto("/poems");
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    await page.waitForTimeout(1500);
    expect((await playCalls(page)).length).toBe(0);
    expect(before).toBeGreaterThan(0);
  });

  test("with reduced motion: no falling lights, no spinning, no scrolling, the colours stay", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await pressToggle(page);
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    expect(await footerBackground(page)).toContain("rgb(122, 12, 18)");
    const party = page.getByTestId("karen-party");
    await expect(party.locator("span").first()).toBeHidden();
    expect(await page.getByTestId("mirror-ball").evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
    await page.waitForTimeout(2000);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});
