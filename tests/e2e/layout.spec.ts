import { type Page } from "@playwright/test";
import { changeSiteSettings, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

const headerLinks = [
  ["Home", "/"],
  ["Service Details", "/#service"],
  ["Guest Book", "/guestbook"],
  ["Share Memories", "/share"],
  ["Gallery", "/gallery"],
  ["Poems", "/poems"],
] as const;

const footerLinks = [
  ["Home", "/"],
  ["Service", "/#service"],
  ["Guest Book", "/guestbook"],
  ["Gallery", "/gallery"],
  ["Poems", "/poems"],
  ["Share Photos & Videos", "/share"],
  ["Admin", "/admin"],
] as const;

test.describe("header and footer", { tag: "@no-js" }, () => {
  test("the header has the six links and lights Home and Service Details on the home page; only Home is the current page", async ({
    page,
  }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const [label, href] of headerLinks) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
    }
    await expect(nav.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator("[aria-current]")).toHaveCount(1);
    // The anchor is still lit as the spec asks, with the same colours as Home.
    const colours = (name: string) =>
      nav.getByRole("link", { name, exact: true }).evaluate((link) => {
        const style = getComputedStyle(link);
        return `${style.backgroundColor} ${style.color}`;
      });
    expect(await colours("Service Details")).toBe(await colours("Home"));
    expect(await colours("Poems")).not.toBe(await colours("Home"));
  });

  test("on the poems page only the Poems link is active", async ({ page }) => {
    await page.goto("/poems");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Poems" })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator("[aria-current=page]")).toHaveCount(1);
  });

  test("the footer has its links, Poems, Share and Admin included, for every visitor", async ({ page }) => {
    await page.goto("/poems");
    const nav = page.getByRole("navigation", { name: "Footer" });
    const links = nav.getByRole("link");
    await expect(links).toHaveCount(footerLinks.length);
    for (const [index, [label, href]] of footerLinks.entries()) {
      await expect(links.nth(index)).toHaveText(label);
      await expect(links.nth(index)).toHaveAttribute("href", href);
    }
  });

  test("following a header link loads its page", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Poems" }).click();
    await expect(page).toHaveURL(/\/poems$/);
    await expect(page.getByRole("heading", { level: 1, name: "Poems & Writings" })).toBeVisible();
  });
});

test.describe("header and footer links with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "moving within the app needs JavaScript");

  test("move within the app without reloading the page; a click for a new tab is left to the browser", async ({ page, context }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const sameDocument = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Poems" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Poems & Writings" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Poems" })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator("[aria-current=page]")).toHaveCount(1);
    expect(await sameDocument()).toBe(true);

    await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Guest Book" }).click();
    await expect(page).toHaveURL(/\/guestbook$/);
    await expect(page.getByRole("heading", { level: 1, name: "Guest Book" })).toBeVisible();
    expect(await sameDocument()).toBe(true);

    await nav.getByRole("link", { name: "Service Details" }).click();
    await expect(page).toHaveURL(/\/#service$/);
    await expect(page.locator("#service")).toBeInViewport();
    expect(await sameDocument()).toBe(true);

    // Back returns to the guest book, in the same document.
    await page.goBack();
    await expect(page).toHaveURL(/\/guestbook$/);
    expect(await sameDocument()).toBe(true);

    // Ctrl+click opens the page in a new tab and leaves this one where it is.
    const opened = context.waitForEvent("page");
    await nav.getByRole("link", { name: "Gallery" }).click({ modifiers: ["ControlOrMeta"] });
    const tab = await opened;
    // A new tab starts at about:blank: wait for its address, not its first load.
    await expect(tab).toHaveURL((url) => url.pathname === "/gallery");
    await expect(page).toHaveURL(/\/guestbook$/);
    expect(await sameDocument()).toBe(true);
  });
});

test.describe("mobile header", { tag: "@no-js" }, () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("has a home button and a menu that opens, lists the links, and closes when one is chosen", async ({ page }) => {
    await page.goto("/poems");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(page.getByRole("link", { name: "Home", exact: true }).first()).toBeVisible();

    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    await expect(mobileNav).toBeVisible();
    for (const [label, href] of headerLinks) {
      await expect(mobileNav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
    }
    await expect(mobileNav.getByRole("link", { name: "Poems" })).toHaveAttribute("aria-current", "page");

    await mobileNav.getByRole("link", { name: "Home", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Thank You For Visiting" })).toBeVisible();
    await expect(mobileNav).toBeHidden();
  });

  test("the menu closes again when the toggle is pressed twice", async ({ page }) => {
    await page.goto("/");
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    const toggle = page.getByText("Menu", { exact: true });
    await toggle.click();
    await expect(mobileNav).toBeVisible();
    await toggle.click();
    await expect(mobileNav).toBeHidden();
  });

  test("on the home page the mobile menu marks only Home as the current page", async ({ page }) => {
    await page.goto("/");
    await page.getByText("Menu", { exact: true }).click();
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(mobileNav.locator("[aria-current]")).toHaveCount(1);
  });

  test("the home button leads home", async ({ page }) => {
    await page.goto("/poems");
    await page.locator("header").getByRole("link", { name: "Home", exact: true }).first().click();
    await expect(page).toHaveURL(/\/$/);
  });
});

/** The lines the word "Menu" takes in the menu button, and whether the button is wholly on the screen. */
async function menuButton(page: Page) {
  return page.getByText("Menu", { exact: true }).evaluate((summary) => {
    const word = [...summary.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim() === "Menu");
    if (!word) throw new Error("no Menu text");
    const range = document.createRange();
    range.selectNodeContents(word);
    const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
    const box = summary.getBoundingClientRect();
    return { lines: lines.size, onScreen: box.left >= 0 && box.right <= document.documentElement.clientWidth };
  });
}

for (const width of [320, 360, 375]) {
  test.describe(`a phone ${width} px wide`, { tag: "@no-js" }, () => {
    test.use({ viewport: { width, height: 700 } });
    test.afterEach(() => resetSiteSettings());

    test("the word Menu stays whole beside a memorial name that wraps", async ({ page }) => {
      for (const siteTitle of [
        "In Loving Memory",
        "In Loving Memory of Margaret Ellen Hughes-Whitfield",
        "Remembering Bartholomew-Maximilian",
      ]) {
        await changeSiteSettings({ siteTitle });
        for (const path of ["/", "/guestbook", "/poems"]) {
          await page.goto(path);
          expect(await menuButton(page), `${siteTitle} on ${path}`).toEqual({ lines: 1, onScreen: true });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${siteTitle} on ${path}`).toBe(0);
        }
      }
    });
  });
}

test.describe("the Content-Security-Policy", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "violations come from scripts");

  test("nothing on the public pages or in the forms' checks is refused by it", async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    for (const url of ["/", "/guestbook", "/share", "/voices", "/gallery", "/poems", "/rsvp", "/admin"]) {
      await page.goto(url);
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      expect(await violations(), url).toEqual([]);
    }
    // The browser-side checks of a form (zod) run on a submission with mistakes.
    await page.goto("/guestbook");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    // The guest book's own form: "Leave a voice memory" beside it has a "Name *" too.
    await page.locator("form#guestbook").getByLabel("Name *").fill("Checked");
    await page.getByLabel("Email *").fill("checked@example.com");
    await page.getByLabel("Your Memory *").fill("short");
    await page.getByRole("button", { name: "Submit Memory" }).click();
    await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();
    expect(await violations()).toEqual([]);
  });
});
