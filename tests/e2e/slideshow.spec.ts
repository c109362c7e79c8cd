// The reception slideshow on a projector or TV: live with JavaScript (on
// Playwright's clock, never the wall's), a chain of self-refreshing pages
// without it.
import { type Page } from "@playwright/test";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { addUpload, moderateUpload, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

test.beforeEach(() => removeAllUploads());

const photoBy = (page: Page, name: string) => page.getByRole("img", { name: `Photo shared by ${name}` });
const slide = (page: Page) => page.getByRole("group", { name: / of \d+$/ });
const isSlideshowAnswer = (url: string) => new URL(url).pathname === "/api/slideshow";

/**
 * Opens the slideshow on Playwright's clock, waits for the app and its first
 * look at the published list, then stops the clock: from here on time moves
 * only when the test says so.
 */
async function openWithStoppedClock(page: Page, url: string) {
  await page.clock.install();
  const firstList = page.waitForResponse((response) => isSlideshowAnswer(response.url()));
  await page.goto(url);
  await hydrated(page);
  await firstList;
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
}

/**
 * Moves the clock past the next look at the list, and waits for the answer.
 * The answer is held until the clock has stopped: on a busy machine it could
 * otherwise arrive while the clock is still running and a slide change due in
 * the same stretch would then move past the newly published photo.
 */
async function pastNextPoll(page: Page) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = (url: URL) => isSlideshowAnswer(url.href);
  await page.route(hold, async (route) => {
    await held;
    // A look the next one replaced was aborted by the page meanwhile.
    await route.continue().catch(() => {});
  });
  const answer = page.waitForResponse((response) => isSlideshowAnswer(response.url()));
  await page.clock.runFor(30_000);
  release();
  await answer;
  await page.unroute(hold);
}

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the live slideshow needs JavaScript");

  test("rotates on the clock, takes in newly published photos without a reload, never shows a pending one, and answers the keyboard", async ({
    page,
    request,
  }) => {
    await addUpload({ status: "APPROVED", sender: "Alma Reyes", colour: "#b04a3a" });
    await addUpload({ status: "APPROVED", sender: "Bruno Diaz", colour: "#3a7ab0" });
    await addUpload({ status: "PENDING", sender: "Pendleton Gray", colour: "#3ab06a" });
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await openWithStoppedClock(page, "/slideshow?qr=1");
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    // A screen of its own: no header, footer or menu; the person's name; newest first.
    await expect(page.getByRole("navigation")).toHaveCount(0);
    await expect(page.getByRole("contentinfo")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1, name: "Our Beloved Friend" })).toBeVisible();
    await expect(photoBy(page, "Bruno")).toBeVisible();
    // The name as the sender gave it, never cut to its first word.
    await expect(page.getByText("Shared by Bruno Diaz", { exact: true })).toBeVisible();
    await expect(slide(page)).toHaveAccessibleName("1 of 2");
    // The display copy, never the original; the no-JavaScript refresh is inert here.
    await expect(photoBy(page, "Bruno")).toHaveAttribute("src", /^\/media\/\d+\/[\w-]+\.jpg$/);
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    // Each new photo fades in.
    expect(
      await slide(page)
        .locator("figure")
        .evaluate((figure) => getComputedStyle(figure).animationName),
    ).not.toBe("none");

    await page.clock.runFor(8_000);
    await expect(photoBy(page, "Alma")).toBeVisible();
    await page.clock.runFor(8_000);
    await expect(photoBy(page, "Bruno")).toBeVisible();

    // The family publishes a photo shared during the reception: it joins at the next look, and comes next.
    const carmen = await addUpload({ status: "PENDING", sender: "Carmen Ortiz", colour: "#a0a03a" });
    await moderateUpload(carmen, "APPROVED");
    const json = (await (await request.get("/api/slideshow")).json()) as { items: Record<string, unknown>[] };
    expect(json.items.map((item) => item.senderName)).toEqual(["Carmen Ortiz", "Bruno Diaz", "Alma Reyes"]);
    expect(Object.keys(json.items[0]!).sort()).toEqual([
      "caption",
      "durationSec",
      "id",
      "imageUrl",
      "posterUrl",
      "senderName",
      "type",
      "videoUrl",
    ]);
    expect(JSON.stringify(json)).not.toMatch(/Pendleton|visitor@example\.com/);
    await pastNextPoll(page);
    await expect(slide(page)).toHaveAccessibleName(/ of 3$/);
    await page.clock.runFor(8_000);
    await expect(photoBy(page, "Carmen")).toBeVisible();

    // Space pauses and plays, the arrows step, and each is said politely.
    const status = page.getByRole("status");
    await page.keyboard.press("Space");
    await expect(status).toHaveText("Slideshow paused");
    await page.clock.runFor(40_000);
    await expect(photoBy(page, "Carmen")).toBeVisible();
    await page.keyboard.press("ArrowRight");
    await expect(status).toHaveText(/^Photo shared by \w+ \w+, \d of 3$/);
    await expect(photoBy(page, "Carmen")).toHaveCount(0);
    await page.keyboard.press("ArrowLeft");
    await expect(photoBy(page, "Carmen")).toBeVisible();
    await page.keyboard.press("Space");
    await expect(status).toHaveText("Slideshow playing");

    // Deleted after all, while it is on a paused screen: it leaves the screen at the next look.
    // (Were the show running, it could come round again before that look and ask for a photo
    // that is no longer there.)
    await page.keyboard.press("Space");
    await expect(status).toHaveText("Slideshow paused");
    await expect(photoBy(page, "Carmen")).toBeVisible();
    await moderateUpload(carmen, "REJECTED");
    await pastNextPoll(page);
    await expect(slide(page)).toHaveAccessibleName(/ of 2$/);
    await expect(photoBy(page, "Carmen")).toHaveCount(0);

    // All along: one document, hydrated without a complaint, and nothing pending ever on it.
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(errors).toEqual([]);
    expect(await page.content()).not.toContain("Pendleton");
    // axe waits on timers of its own.
    await page.clock.resume();
    await expectNoAxeViolations(page);
  });

  test("with less motion asked for: no fades and half the pace; keeps the screen awake and toggles full screen with f", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      // A wake lock the test can count (headless browsers have none to give).
      const scope = window as unknown as { wakeLockRequests: number; releaseWakeLock: () => void };
      scope.wakeLockRequests = 0;
      let current: (EventTarget & { released: boolean; release: () => Promise<void> }) | null = null;
      scope.releaseWakeLock = () => void current?.release();
      Object.defineProperty(navigator, "wakeLock", {
        configurable: true,
        value: {
          request: async () => {
            scope.wakeLockRequests++;
            const sentinel = Object.assign(new EventTarget(), {
              released: false,
              type: "screen",
              release: async () => {
                sentinel.released = true;
                sentinel.dispatchEvent(new Event("release"));
              },
            });
            current = sentinel;
            return sentinel;
          },
        },
      });
    });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await addUpload({ status: "APPROVED", sender: "Alma", colour: "#b04a3a" });
    await addUpload({ status: "APPROVED", sender: "Bruno", colour: "#3a7ab0" });
    await openWithStoppedClock(page, "/slideshow");

    await expect(photoBy(page, "Bruno")).toBeVisible();
    expect(
      await slide(page)
        .locator("figure")
        .evaluate((figure) => getComputedStyle(figure).animationName),
    ).toBe("none");
    await page.clock.runFor(8_000);
    await expect(photoBy(page, "Bruno")).toBeVisible();
    await page.clock.runFor(8_000);
    await expect(photoBy(page, "Alma")).toBeVisible();
    // No fade: the photo before is gone at once.
    await expect(page.locator("figure")).toHaveCount(1);

    const requests = () => page.evaluate(() => (window as unknown as { wakeLockRequests: number }).wakeLockRequests);
    expect(await requests()).toBe(1);
    // The browser drops the lock while the tab is hidden; back in view, it is asked for again.
    await page.evaluate(() => {
      (window as unknown as { releaseWakeLock: () => void }).releaseWakeLock();
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await expect.poll(requests).toBe(2);

    await page.keyboard.press("f");
    await expect.poll(() => page.evaluate(() => document.fullscreenElement?.tagName ?? null)).toBe("HTML");
    await expect(page.getByRole("button", { name: "Full screen" })).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.press("f");
    await expect.poll(() => page.evaluate(() => document.fullscreenElement?.tagName ?? null)).toBe(null);
  });
});

test.describe("when the site's scripts cannot load", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "scripts must be able to run for their loading to be blocked");

  test("the page still moves on to the next, as it does without JavaScript", async ({ page }) => {
    await addUpload({ status: "APPROVED", sender: "Alma" });
    await addUpload({ status: "APPROVED", sender: "Bruno", colour: "#3a7ab0" });
    await page.route(/\.(m?js)(\?.*)?$/, (route) => route.abort());
    await page.clock.install();
    await page.goto("/slideshow?every=5");
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await expect(photoBy(page, "Bruno")).toBeVisible();
    await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");
    await page.clock.runFor(4_000);
    await expect(page).toHaveURL(/\/slideshow\?at=1&every=5$/);
    await expect(photoBy(page, "Alma")).toBeVisible();
  });
});

test.describe("without JavaScript", { tag: "@no-js" }, () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "this is the page a browser without JavaScript gets");

  /** The address the page refreshes itself to, and after how many seconds. */
  async function refreshOf(page: Page) {
    const content = (await page.locator('meta[http-equiv="refresh"]').getAttribute("content")) ?? "";
    const match = /^(\d+);url=(\/slideshow\?\S+)$/.exec(content);
    expect(match, content).not.toBeNull();
    return { seconds: Number(match![1]), url: match![2]! };
  }

  test("one photo per page, each refreshing to the next, round to the first; a video plays through muted; pausing stops it; nothing pending", async ({
    page,
  }) => {
    await addUpload({ status: "APPROVED", type: "VIDEO", sender: "Dora" });
    await addUpload({ status: "APPROVED", sender: "Alma" });
    await addUpload({ status: "PENDING", sender: "Pendleton" });
    await addUpload({ status: "APPROVED", sender: "Bruno", colour: "#3a7ab0" });
    await addUpload({ status: "APPROVED", sender: "Carmen", colour: "#a0a03a" });

    // The slowest pace, so the browser's own refresh never races the test.
    await page.goto("/slideshow?every=120&qr=1");
    await expect(page.getByRole("navigation")).toHaveCount(0);
    await expect(photoBy(page, "Carmen")).toBeVisible();
    await expect(slide(page)).toHaveAccessibleName("1 of 4");
    // The corner for guests in the room: a QR code of the share page.
    const qr = page.getByRole("img", { name: /^QR code for localhost:\d+\/share$/ });
    await expect(qr).toHaveAttribute("src", "/qr/share.svg");
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // In the words every other link to the share page uses.
    await expect(page.getByText("Share Photos & Videos", { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    const seen: string[] = [];
    let next = await refreshOf(page);
    expect(next).toEqual({ seconds: 120, url: "/slideshow?at=1&every=120&qr=1" });
    for (const name of ["Bruno", "Alma", "Dora", "Carmen"]) {
      await page.goto(next.url);
      const shown = name === "Dora" ? page.locator('video[aria-label="Video shared by Dora"]') : photoBy(page, name);
      await expect(shown).toBeVisible();
      seen.push(name);
      next = await refreshOf(page);
    }
    expect(seen).toEqual(["Bruno", "Alma", "Dora", "Carmen"]);
    expect(next.url).toBe("/slideshow?at=1&every=120&qr=1");
    expect(await page.content()).not.toContain("Pendleton");

    // Pause: the same photo, without the refresh; Play starts it again.
    await page.getByRole("link", { name: "Pause" }).click();
    await expect(page).toHaveURL(/at=0&every=120&qr=1&paused=1$/);
    await expect(photoBy(page, "Carmen")).toBeVisible();
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
    await page.getByRole("link", { name: "Play" }).click();
    expect((await refreshOf(page)).url).toBe("/slideshow?at=1&every=120&qr=1");
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page.locator('video[aria-label="Video shared by Dora"]')).toBeVisible();

    // A video plays muted (so it may start by itself) from its web copy, and the next page waits until it has played through.
    await page.goto("/slideshow?every=3&at=3");
    const video = page.locator("video");
    await expect(video).toHaveAttribute("aria-label", "Video shared by Dora");
    await expect(video).toHaveAttribute("muted", "");
    await expect(video).toHaveAttribute("autoplay", "");
    await expect(video).toHaveAttribute("src", /^\/media\/\d+\/[\w-]+\.mp4$/);
    await expect(video).toHaveAttribute("poster", /^\/media\/\d+\/[\w-]+-poster\.jpg$/);
    expect(await refreshOf(page)).toEqual({ seconds: 4, url: "/slideshow?at=0&every=3" });

    // Made-up numbers: the default pace, or the nearest bound; a place past the end is the start.
    for (const [query, seconds, photo] of [
      ["?every=soon", 8, "Carmen"],
      ["?every=1&at=2", 3, "Alma"],
      ["?every=9999&at=4", 120, "Carmen"],
      ["?at=-1", 8, "Carmen"],
    ] as const) {
      await page.goto(`/slideshow${query}`);
      await expect(photoBy(page, photo), query).toBeVisible();
      expect((await refreshOf(page)).seconds, query).toBe(seconds);
    }
  });

  test("with nothing published yet it says so and looks again every half minute", async ({ page }) => {
    await addUpload({ status: "PENDING", sender: "Pendleton" });
    await page.goto("/slideshow");
    await expect(page.getByText("Photos and videos shared by family and friends will appear here.")).toBeVisible();
    expect(await refreshOf(page)).toEqual({ seconds: 30, url: "/slideshow?at=0" });
    await expectNoAxeViolations(page);
  });
});
