import { type Page } from "@playwright/test";
import postcss, { type Container } from "postcss";
import { addMemory, addPoem, addUpload, removeAllMemories, removeAllPoems, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

// Old iPads and iPhones (Safari 12–14) drop what they cannot read: a declaration
// with a property or value they do not know, a rule whose selector they cannot
// parse, an @supports block whose condition fails. Chromium is taught the same
// by rewriting every stylesheet the page loads, so each page must still lay
// out on what is left (docs/decisions/031-old-browsers-css.md).

/** Properties Safari before 15 does not know (`aspect-ratio` is 15, `inset` 14.1). */
const UNKNOWN_PROPERTY = /^(aspect-ratio|inset|inset-block|inset-inline)$/;
/** Values it does not know: `clamp()` (13.1) and `overflow-wrap: anywhere` (15.4). */
const unknownValue = (prop: string, value: string) => /clamp\(/.test(value) || (prop === "overflow-wrap" && value.includes("anywhere"));
/** Conditions that test one of these, and so fail there. */
const NEWER_FEATURE = /aspect-ratio|inset|clamp\(|anywhere|selector\(/;

export function asSafariBefore15(css: string) {
  const root = postcss.parse(css);
  root.walkAtRules("supports", (rule) => {
    if (!NEWER_FEATURE.test(rule.params)) return;
    // `not (newer)` holds in old Safari: its rules apply as if unconditional.
    if (/^not\s*\(/.test(rule.params.trim())) rule.replaceWith(rule.nodes ?? []);
    else rule.remove();
  });
  // A selector list with one selector it cannot parse drops the whole rule.
  root.walkRules((rule) => {
    if (rule.selector.includes(":has(")) rule.remove();
  });
  root.walkDecls((decl) => {
    const parent = decl.parent as Container;
    // Flex `gap` (14.1): ignored in a flex container, kept in a grid one.
    const isFlex = parent.some((node) => node.type === "decl" && node.prop === "display" && /flex/.test(node.value));
    if (
      UNKNOWN_PROPERTY.test(decl.prop) ||
      unknownValue(decl.prop, decl.value) ||
      (isFlex && /^(gap|row-gap|column-gap)$/.test(decl.prop))
    ) {
      decl.remove();
    }
  });
  return root.toString();
}

async function browseAsOldSafari(page: Page) {
  await page.route("**/*.css", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: asSafariBefore15(await response.text()) });
  });
}

/** What an old iPad would show wrong: a sideways scroll, an empty gallery tile, a heading no bigger than the text. */
async function expectReadable(page: Page, url: string) {
  const { scrollWidth, clientWidth, bodySize, headings } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    bodySize: parseFloat(getComputedStyle(document.body).fontSize),
    headings: [...document.querySelectorAll("h1, h2")]
      .filter((heading) => heading.getClientRects().length > 0)
      .map((heading) => ({ text: heading.textContent, size: parseFloat(getComputedStyle(heading).fontSize) })),
  }));
  expect.soft(scrollWidth, `${url} is ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
  expect.soft(headings.length, `${url} has a heading`).toBeGreaterThan(0);
  for (const heading of headings) {
    expect.soft(heading.size, `"${heading.text}" on ${url} is bigger than the ${bodySize} px text`).toBeGreaterThan(bodySize);
  }
}

const LONG = "Bartholomew".repeat(9);
let photo = 0;
let video = 0;

test.beforeAll(async () => {
  removeAllMemories();
  removeAllPoems();
  removeAllUploads();
  addMemory({ name: "Grandpa Ted", message: `We sailed together. ${LONG}`, status: "APPROVED" });
  addMemory({ name: "Aunt May", message: `Waiting for review: ${LONG}` });
  addPoem({ title: "Do not stand at my grave and weep", content: "I am a thousand winds that blow." });
  photo = await addUpload({ status: "APPROVED", name: `${LONG}.jpg`, sender: "Peter Hall" });
  video = await addUpload({ status: "APPROVED", type: "VIDEO", name: "IMG_4128.MOV", sender: "Ben Ortiz" });
  await addUpload({ name: "waiting.jpg", sender: "Rosa Diaz" });
});

for (const width of [320, 414]) {
  test.describe(`on an old iPhone or iPad (Safari before 15) at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 } });

    test(
      "every public page keeps to the screen, its headings stand out, and the gallery shows its photos and videos",
      { tag: "@no-js" },
      async ({ page }) => {
        await browseAsOldSafari(page);
        for (const url of ["/", "/guestbook", "/share", "/gallery", "/poems", `/gallery/${photo}`, `/gallery/${video}`, "/no-such-page"]) {
          await page.goto(url);
          await expectReadable(page, url);
        }

        await page.goto("/gallery");
        const tiles = page.getByRole("list", { name: "Shared photos and videos" }).getByRole("listitem");
        await expect(tiles).toHaveCount(2);
        for (const tile of await tiles.all()) {
          const box = await tile.boundingBox();
          expect.soft(box?.height, "a gallery tile has a height").toBeGreaterThan(100);
          const picture = await tile.locator("img").first().boundingBox();
          expect.soft(picture?.height, "its picture fills the tile").toBeCloseTo(box?.height ?? 0, 0);
        }
      },
    );

    test("the admin panel keeps to the screen and shows the waiting photo", async ({ page, login }) => {
      await browseAsOldSafari(page);
      await login(page);
      for (const url of ["/admin", "/admin/uploads", "/admin/published/uploads", "/admin/site", "/admin/print"]) {
        await page.goto(url);
        await expectReadable(page, url);
      }
      // On paper, the Print tab's sheet of cards alone, without :has().
      await page.goto("/admin/print");
      await page.emulateMedia({ media: "print" });
      await expect(page.getByRole("navigation", { name: "Admin sections" })).toBeHidden();
      await expect(page.getByRole("heading", { name: "Printed cards" })).toBeHidden();
      await expect(page.locator("header").first()).toBeHidden();
      await expect(page.getByRole("group", { name: "Cards to print" })).toBeVisible();
      await page.emulateMedia({ media: "screen" });

      await page.goto("/admin/uploads");
      const thumbnail = await page.locator("a img").first().boundingBox();
      expect(thumbnail?.height, "the waiting photo's thumbnail has a height").toBeGreaterThan(50);
    });
  });
}
