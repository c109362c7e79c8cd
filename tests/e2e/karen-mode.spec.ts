import { type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";

const toggle = (page: Page) => page.getByRole("contentinfo").getByRole("button", { name: "Karen Mode" });
/** Presses the toggle the way a keyboard or script would, without first scrolling the page to it. */
const pressToggle = (page: Page) => toggle(page).evaluate((button: HTMLButtonElement) => button.click());
const footerBackground = (page: Page) => page.locator("#site-footer").evaluate((el) => getComputedStyle(el).backgroundImage);

test.describe("Karen Mode without JavaScript", { tag: "@no-js" }, () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "this is the plain form and cookie");

  test("the footer button turns the party style on for every page until it is turned off", async ({ page }) => {
    await page.goto("/poems");
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByTestId("karen-party")).toHaveCount(0);
    await toggle(page).click();

    // Back on the same page, at the footer: the red footer and the player are in view.
    await expect(page).toHaveURL(/\/poems#site-footer$/);
    await expect(page.locator("#site-footer")).toBeInViewport();
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    expect(await footerBackground(page)).toContain("rgb(122, 12, 18)");
    await expect(page.getByTestId("karen-party").locator("span")).toHaveCount(30);
    // The browser's own player plays the music without JavaScript.
    await expect(page.locator("#site-footer audio[controls][loop]")).toBeVisible();

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

  /**
   * Loads the page on Playwright's clock, then stops it: from here on, time
   * moves only when the test says so (timers fire exactly, on a busy machine too).
   */
  async function openWithStoppedClock(page: Page, url: string) {
    await page.clock.install();
    await page.goto(url);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  }
  const playCount = (page: Page) => playCalls(page).then((calls) => calls.length);

  test("turning it on flips in place, plays at volume 0.7 with retries at 100, 500 and 1000 ms, and scrolls to the footer at 1.5 s", async ({
    page,
  }) => {
    await recordPlays(page, 3);
    await openWithStoppedClock(page, "/");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await pressToggle(page);

    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    // Flipped in place: still the same document, no reload.
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // And no redirect: the address has not changed (the plain form's answer goes to #site-footer).
    expect(new URL(page.url()).hash).toBe("");
    // The first try at once; each retry exactly at its time, not a millisecond before.
    await expect.poll(() => playCount(page)).toBe(1);
    for (const [wait, expected] of [
      [99, 1],
      [1, 2],
      [399, 2],
      [1, 3],
      [499, 3],
      [1, 4],
    ] as const) {
      await page.clock.runFor(wait);
      await expect.poll(() => playCount(page)).toBe(expected);
    }
    const calls = await playCalls(page);
    expect(calls.every((call) => call.volume === 0.7)).toBe(true);
    await expect(page.getByRole("button", { name: "Pause the music" })).toBeVisible();

    // 1,000 ms have passed: the scroll to the footer comes at 1,500.
    await page.clock.runFor(499);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.clock.runFor(1);
    await expect(page.locator("#site-footer")).toBeInViewport();
    await expect(page.getByTestId("karen-party").locator("span")).toHaveCount(30);
    // axe waits on timers of its own. It scans the page in Karen Mode from the top, as every other
    // scan does: at the footer's scroll position a card's button can sit half under the sticky
    // header, which axe counts as a small target, depending only on how long the page is.
    await page.clock.resume();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoAxeViolations(page);
  });

  test("the lights change every 800 ms", async ({ page }) => {
    await openWithStoppedClock(page, "/");
    await pressToggle(page);
    await expect(page.getByTestId("karen-party").locator("span")).toHaveCount(30);
    const positions = () =>
      page
        .getByTestId("karen-party")
        .locator("span")
        .evaluateAll((lights) => lights.map((l) => (l as HTMLElement).style.left).join());
    const first = await positions();
    await page.clock.runFor(799);
    expect(await positions()).toBe(first);
    await page.clock.runFor(1);
    await expect.poll(positions).not.toBe(first);
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
    await page.locator("#site-footer audio").evaluate((audio) => audio.dispatchEvent(new Event("play")));
    await expect(page.getByRole("button", { name: "Pause the music" })).toBeVisible();
    await page.locator("#site-footer audio").evaluate((audio) => audio.dispatchEvent(new Event("ended")));
    await expect(page.getByRole("button", { name: "Play the music" })).toBeVisible();
    await expect(page.locator("#site-footer audio")).toHaveAttribute("loop", "");

    // Karen Mode stays on across pages, but the music waits for the visitor, however long they stay.
    expect(await playCount(page)).toBeGreaterThan(0);
    await openWithStoppedClock(page, "/poems");
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    await page.clock.runFor(5000);
    expect(await playCount(page)).toBe(0);
  });

  test("turning it off stops the music, and it stays stopped until the visitor turns it on again", async ({ page }) => {
    await page.addInitScript(() => {
      // A real <audio> plays silence here; count what it is asked to do.
      const log: string[] = [];
      (window as unknown as { audioLog: string[] }).audioLog = log;
      HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
        log.push("play");
        Object.defineProperty(this, "paused", { value: false, configurable: true });
        this.dispatchEvent(new Event("play"));
        return Promise.resolve();
      };
      HTMLMediaElement.prototype.pause = function pause(this: HTMLMediaElement) {
        log.push("pause");
        Object.defineProperty(this, "paused", { value: true, configurable: true });
        this.dispatchEvent(new Event("pause"));
      };
    });
    const audioLog = () => page.evaluate(() => (window as unknown as { audioLog: string[] }).audioLog.join(","));
    const paused = () => page.locator("#site-footer audio").evaluate((audio: HTMLAudioElement) => audio.paused);
    await openWithStoppedClock(page, "/");
    await pressToggle(page);
    await expect(page.getByRole("button", { name: "Pause the music" })).toBeVisible();
    expect(await paused()).toBe(false);

    await pressToggle(page);
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
    await expect.poll(paused).toBe(true);
    // No retry left over starts it again.
    await page.clock.runFor(3000);
    expect(await paused()).toBe(true);
    expect(await audioLog()).toMatch(/pause$/);

    await pressToggle(page);
    await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
    await expect.poll(paused).toBe(false);
  });

  test("with reduced motion: no falling lights, no spinning, no scrolling, the colours stay", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openWithStoppedClock(page, "/");
    await pressToggle(page);
    await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
    expect(await footerBackground(page)).toContain("rgb(122, 12, 18)");
    const party = page.getByTestId("karen-party");
    await expect(party.locator("span").first()).toBeHidden();
    expect(await page.getByTestId("mirror-ball").evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
    await page.clock.runFor(2000);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe("Karen Mode on every page", { tag: "@no-js" }, () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`the mirror ball covers no page heading (${viewport.width} px wide)`, async ({ page, javaScriptEnabled }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      await page.goto("/");
      if (javaScriptEnabled) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      // With JavaScript the page flips before the answer (with its cookie) arrives; leaving the
      // page sooner would cancel the request, and the next page would be without Karen Mode.
      // The toggle's own answer: not the music (/audio/karen-mode.mp3), which may arrive first.
      const answered = javaScriptEnabled
        ? page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/karen-mode")
        : null;
      await toggle(page).click();
      await answered;
      await expect(page.locator("html")).toHaveAttribute("data-karen", "on");
      for (const url of ["/", "/guestbook", "/share", "/gallery", "/poems", "/rsvp", "/admin"]) {
        await page.goto(url);
        const ball = await page.getByTestId("mirror-ball").boundingBox();
        expect(ball, url).not.toBeNull();
        for (const heading of await page.locator("h1, h2").all()) {
          const box = await heading.boundingBox();
          if (!box) continue;
          const overlaps =
            ball!.x < box.x + box.width && box.x < ball!.x + ball!.width && ball!.y < box.y + box.height && box.y < ball!.y + ball!.height;
          expect(overlaps, `${url}: the mirror ball covers "${await heading.textContent()}"`).toBe(false);
        }
        const footer = await page.locator("#site-footer").boundingBox();
        expect(ball!.y, `${url}: the ball hangs in the footer`).toBeGreaterThanOrEqual(footer!.y);
      }
    });
  }
});
