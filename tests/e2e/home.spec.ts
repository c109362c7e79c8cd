import { content, memorialTitle } from "~/content";
import { paragraphs } from "~/site/site-view";

/** The service date of the defaults, written as the home page writes it. */
const SERVICE_DATE_TEXT = "Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

const FAMILY_EMAIL = "the.hughes.family@example.org";

test.describe("home page", { tag: "@no-js" }, () => {
  test.afterEach(() => resetSiteSettings());

  test("shows its sections in the order of the specification", async ({ page }) => {
    // The donation card shows once the family has given its link.
    await changeSiteSettings({ donationUrl: "https://give.example.org/hughes" });
    await page.goto("/");
    const headings = await page.locator("main h1, main h2").allTextContents();
    expect(headings).toEqual([
      memorialTitle(content),
      "Thank You For Visiting",
      "Memorial Service",
      "Sign the Guest Book",
      "Share Photos & Videos",
      "Light a candle",
      "Make a Donation",
    ]);
    // Header before main, footer after it (DOCUMENT_POSITION_FOLLOWING = 4, PRECEDING = 2).
    const order = await page.evaluate(() =>
      ["header", "main", "footer"].map((tag) => document.querySelector(tag)?.compareDocumentPosition(document.querySelector("main")!)),
    );
    expect(order).toEqual([4, 0, 2]);
  });

  test("the hero has its photo and the two buttons", async ({ page }) => {
    await page.goto("/");
    const hero = page.locator("section", { has: page.getByRole("heading", { level: 1 }) });
    await expect(hero.getByRole("img", { name: content.heroImageAlt })).toBeVisible();
    await expect(hero.getByRole("link", { name: "Share a Memory" })).toHaveAttribute("href", "/guestbook");
    await expect(hero.getByRole("link", { name: "Upload Photos" })).toHaveAttribute("href", "/share");
  });

  test("welcomes visitors and thanks them after the service", async ({ page }) => {
    await page.goto("/");
    const welcome = page.getByRole("region", { name: "Thank You For Visiting" });
    // The default service (31 August 2025) is over: the message for after it.
    for (const paragraph of paragraphs(content.welcomeMessageAfter)) await expect(welcome).toContainText(paragraph);
    await expect(page.locator("#service")).toContainText("The service was held on Sunday, August 31st, 2025 at The Berkeley City Club.");
  });

  test("the Memorial Service card at #service gives the title, date and time with its time zone, venue, address and a map", async ({
    page,
  }) => {
    await page.goto("/#service");
    const card = page.locator("#service");
    await expect(card.getByRole("heading", { name: "Memorial Service" })).toBeVisible();
    await expect(card).toContainText(content.serviceTitle);
    // A guest reading from another time zone is told which one the hours are in.
    await expect(card.locator("time")).toHaveText(`${SERVICE_DATE_TEXT} PDT`.replace(" · ", "\u00a0· "));
    await expect(card).toContainText("Sunday, August 31st");
    await expect(card).toContainText(content.venueName);
    await expect(card).toContainText(content.venueAddress);
    await expect(card).toContainText("Berkeley, CA");
    const map = card.getByRole("link", { name: /View on Map/ });
    await expect(map).toHaveAttribute("href", `https://www.openstreetmap.org/search?query=${encodeURIComponent(content.venueAddress)}`);
    await expect(map).toHaveAttribute("target", "_blank");
  });

  test("the call-to-action cards lead to the guest book and the share page", async ({ page }) => {
    await page.goto("/");
    const guestbook = page.getByRole("region", { name: "Sign the Guest Book" });
    await expect(guestbook.getByRole("link", { name: "Write Message" })).toHaveAttribute("href", "/guestbook");
    const share = page.getByRole("region", { name: "Share Photos & Videos" });
    await expect(share.getByRole("link", { name: "Upload Media" })).toHaveAttribute("href", "/share");
  });

  test("the donation card opens the family's giving page in a new tab", async ({ page }) => {
    await changeSiteSettings({ donationUrl: "https://give.example.org/hughes" });
    await page.goto("/");
    const donation = page.getByRole("region", { name: "Make a Donation" });
    const button = donation.getByRole("link", { name: /Donate to UCSF/ });
    await expect(button).toHaveAttribute("href", "https://give.example.org/hughes");
    await expect(button).toHaveAttribute("target", "_blank");
    await expect(button).toHaveAttribute("rel", "noopener noreferrer");
  });

  test("the Service Details link reaches the service card", async ({ page }) => {
    await page.goto("/poems");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Service Details" }).click();
    await expect(page).toHaveURL(/\/#service$/);
    await expect(page.locator("#service")).toBeInViewport();
  });

  test("has a title, a description and a link preview", async ({ page }) => {
    await page.goto("/");
    // The person's name is in the title, as "In Loving Memory of …".
    await expect(page).toHaveTitle(memorialTitle(content));
    expect(memorialTitle(content)).toBe(`In Loving Memory of ${content.personName}`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", content.siteDescription);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", memorialTitle(content));
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /^http:\/\/localhost:\d+\/images\/hero\.jpg$/);
  });

  test("has no accessibility violations", async ({ page }) => {
    await page.goto("/");
    await expectNoAxeViolations(page);
  });
});

test.describe("home page with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "parallax is a JavaScript enhancement");

  test("the hero photo and words move at their own pace when scrolling", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => window.scrollTo(0, 200));
    await expect
      .poll(() =>
        page
          .locator("section[aria-labelledby=hero-title] > div")
          .first()
          .evaluate((el) => getComputedStyle(el).transform),
      )
      .toBe("matrix(1, 0, 0, 1, 0, 20)");
  });

  test("the hero stays still for visitors who ask for less motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    await page.evaluate(() => window.scrollTo(0, 200));
    await page.waitForTimeout(100);
    const transform = await page
      .locator("section[aria-labelledby=hero-title] > div")
      .first()
      .evaluate((el) => getComputedStyle(el).transform);
    expect(["none", "matrix(1, 0, 0, 1, 0, 0)"]).toContain(transform);
  });
});

test.describe("small words on a phone", { tag: "@no-js" }, () => {
  test.use({ viewport: { width: 360, height: 740 } });
  test.afterEach(() => resetSiteSettings());

  test("the service date never starts a line with its dot, and the footer's e-mail ends its sentence without a gap", async ({ page }) => {
    // The footer shows the family's own address only (a new site's example address is hidden).
    await changeSiteSettings({ contactEmail: FAMILY_EMAIL });
    await page.goto("/");
    const date = page.locator("#service dd").first();
    // The dot is held to the date before it by a no-break space, so a line can only break after it.
    expect(await date.textContent()).toMatch(/2025\u00a0· /);
    const lines = await date.evaluate((dd) => {
      const range = document.createRange();
      range.selectNodeContents(dd);
      return [...range.getClientRects()].map((rect) => Math.round(rect.top));
    });
    expect(new Set(lines).size, "the date wraps on a phone, so the test means something").toBeGreaterThan(0);

    const email = page.getByRole("contentinfo").getByRole("link", { name: FAMILY_EMAIL });
    expect(await email.evaluate((a) => getComputedStyle(a).paddingRight)).toBe("0px");
    await expect(page.getByRole("contentinfo")).toContainText(`${FAMILY_EMAIL}.`);
  });
});
