import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * Fails with the list of problems when axe finds any WCAG 2.x A/AA violation.
 * axe itself is JavaScript: for a page open without JavaScript, the exact HTML
 * that page received is replayed in a scripting browser with the site's own
 * scripts blocked, so what is checked is still the no-JavaScript page.
 */
export async function expectNoAxeViolations(page: Page) {
  if (test.info().project.use.javaScriptEnabled !== false) return expectClean(page);

  const url = page.url();
  const html = await page.content();
  const browser = page.context().browser()!;
  const context = await browser.newContext({ javaScriptEnabled: true, viewport: page.viewportSize() });
  try {
    const replay = await context.newPage();
    await replay.route("**/*", (route) => {
      const request = route.request();
      if (request.url() === url && request.resourceType() === "document") {
        return route.fulfill({ status: 200, contentType: "text/html", body: html });
      }
      if (request.resourceType() === "script") return route.abort();
      return route.continue();
    });
    await replay.goto(url);
    await expectClean(replay);
  } finally {
    await context.close();
  }
}

/**
 * A smooth scroll still under way (to a form's answer, or back to the top after a
 * redirect) leaves a field half under the sticky header for a moment; axe checks
 * the page at rest. On a busy machine the page can paint a frame or two before
 * the scroll moves, so "at rest" is the same place for several frames and a
 * good part of a second, not just for the next two.
 */
async function scrollSettled(page: Page) {
  await page.waitForFunction(
    () => {
      const w = window as Window & { axeRest?: { at: string; since: number; frames: number } };
      const at = `${window.scrollX},${window.scrollY}`;
      const now = performance.now();
      if (!w.axeRest || w.axeRest.at !== at) {
        w.axeRest = { at, since: now, frames: 0 };
        return false;
      }
      w.axeRest.frames += 1;
      return w.axeRest.frames >= 6 && now - w.axeRest.since >= 400;
    },
    undefined,
    { polling: "raf" },
  );
}

/**
 * A fade still under way (a slide of the slideshow fading in over 1.5 s) is not
 * the page at rest either: axe would measure its text's contrast half-faded.
 * Animations that end are let end; those that never do (a loading pulse, the
 * Karen Mode lights) are not waited for.
 */
async function animationsSettled(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => {
      const end = animation.effect?.getComputedTiming().endTime;
      return animation.playState !== "running" || typeof end !== "number" || !Number.isFinite(end);
    }),
  );
}

async function expectClean(page: Page) {
  await scrollSettled(page);
  await animationsSettled(page);
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary).toEqual([]);
}
