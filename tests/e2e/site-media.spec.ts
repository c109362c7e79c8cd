import { readFileSync } from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import sharp from "sharp";
import { expectNoAxeViolations } from "./support/axe";
import { removeSiteMedia, resetSiteSettings } from "./support/data";
import { hydrated } from "./support/admin";
import { expect, test, type LogIn } from "./support/fixtures";

// The family changes the hero photo and the Karen Mode song in the Site
// tab, with JavaScript and without.

const PAGE = "/admin/site";
const BUNDLED_SONG = readFileSync(path.resolve("public/audio/karen-mode.mp3"));

const withoutJs = () => test.info().project.use.javaScriptEnabled === false;
const toast = (page: Page) => page.getByTestId("toast");

async function openSiteTab(page: Page, login: LogIn) {
  await login(page, PAGE);
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
}

const heroSection = (page: Page) => page.getByRole("region", { name: "Hero photo" });
const songSection = (page: Page) => page.getByRole("region", { name: "Karen Mode song" });

test.afterEach(async () => {
  await removeSiteMedia();
  resetSiteSettings();
});

test(
  "the family uploads a new hero photo with its description; the home page shows it in several widths, then the original again",
  { tag: "@no-js" },
  async ({ page, login }) => {
    await openSiteTab(page, login);
    await expectNoAxeViolations(page);
    const hero = heroSection(page);
    await expect(hero.getByRole("img")).toHaveAttribute("src", "/images/hero.jpg");
    await expect(hero.getByRole("button", { name: "Use the original photo" })).toHaveCount(0);

    const photo = await sharp({ create: { width: 2400, height: 1500, channels: 3, background: "#5b8c6a" } })
      .jpeg()
      .toBuffer();
    await hero.getByLabel("New photo").setInputFiles({ name: "lake.jpg", mimeType: "image/jpeg", buffer: photo });
    await hero.getByLabel("Describe the photo").fill("Grandpa fishing at the lake at dawn");
    await hero.getByRole("button", { name: "Save Photo" }).click();
    await expect(toast(page)).toContainText("Photo Saved");
    await expect(page).toHaveURL(new RegExp(`${PAGE}#hero-photo$`));
    await expect(hero.getByRole("img", { name: "Grandpa fishing at the lake at dawn" })).toHaveAttribute(
      "src",
      /^\/media\/site\/hero-1280w-[\w-]+\.jpg$/,
    );

    await page.goto("/");
    const picture = page.locator("[data-hero] picture");
    const img = picture.getByRole("img", { name: "Grandpa fishing at the lake at dawn" });
    await expect(img).toHaveAttribute("src", /^\/media\/site\/hero-1280w-[\w-]+\.jpg$/);
    await expect(picture.locator('source[type="image/webp"]')).toHaveAttribute(
      "srcset",
      /^\/media\/site\/hero-640w-[\w-]+\.webp 640w, \/media\/site\/hero-1280w-[\w-]+\.webp 1280w, \/media\/site\/hero-1920w-[\w-]+\.webp 1920w$/,
    );
    await expect(picture.locator('source[type="image/jpeg"]')).toHaveAttribute("srcset", /hero-1920w-[\w-]+\.jpg 1920w$/);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/media\/site\/hero-1280w-[\w-]+\.jpg$/);
    const heroSrc = (await img.getAttribute("src"))!;
    const served = await page.request.get(heroSrc);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/jpeg");
    if (!withoutJs()) {
      // The browser chose one of the copies and shows it.
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
      expect(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(/\/media\/site\/hero-\d+w-[\w-]+\.webp$/);
    }

    // Without a new photo, only the description changes.
    await page.goto(PAGE);
    await hydrated(page);
    await heroSection(page).getByLabel("Describe the photo").fill("Grandpa fishing at Lake Tahoe at dawn");
    await heroSection(page).getByRole("button", { name: "Save Photo" }).click();
    await expect(toast(page)).toContainText("Description Saved");
    await page.goto("/");
    await expect(page.locator("[data-hero] img")).toHaveAttribute("alt", "Grandpa fishing at Lake Tahoe at dawn");
    await expect(page.locator("[data-hero] img")).toHaveAttribute("src", heroSrc);

    await page.goto(PAGE);
    await hydrated(page);
    await heroSection(page).getByRole("button", { name: "Use the original photo" }).click();
    await expect(toast(page)).toContainText("Photo Reset");
    await expect(heroSection(page).getByRole("img")).toHaveAttribute("src", "/images/hero.jpg");
    await page.goto("/");
    await expect(page.locator("[data-hero] img")).toHaveAttribute("src", "/images/hero.jpg");
    await expect(page.locator("[data-hero] source")).toHaveCount(0);
  },
);

test(
  "a file that is not a photo is refused with the reason beside the form, and the description typed is kept",
  { tag: "@no-js" },
  async ({ page, login }) => {
    await openSiteTab(page, login);
    const hero = heroSection(page);
    await hero
      .getByLabel("New photo")
      .setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("only words, no picture") });
    await hero.getByLabel("Describe the photo").fill("Words about a photo");
    await hero.getByRole("button", { name: "Save Photo" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Photo Not Saved" });
    await expect(alert).toContainText("This file is not a photo the site can use. Please choose a JPG, PNG, WebP or HEIC photo.");
    await expect(page.getByLabel("Describe the photo")).toHaveValue("Words about a photo");
    // Without JavaScript the answer is the form on a page of its own; with it, the page stays.
    await expect(page).toHaveURL(withoutJs() ? /\/admin\/site\/hero$/ : new RegExp(`${PAGE}$`));
    await expectNoAxeViolations(page);
    await page.goto("/");
    await expect(page.locator("[data-hero] img")).toHaveAttribute("src", "/images/hero.jpg");
  },
);

test("the family uploads a Karen Mode song; the footer player plays it, then the bundled song again", async ({ page, login }) => {
  await openSiteTab(page, login);
  const song = songSection(page);
  await expect(song).toContainText("Karen Mode plays the song the site came with, “Karen Mode party loop”.");
  await song.getByLabel("New song").setInputFiles({ name: "Our Song.mp3", mimeType: "audio/mpeg", buffer: BUNDLED_SONG });
  await song.getByRole("button", { name: "Save Song" }).click();
  await expect(toast(page)).toContainText("Song Saved");
  await expect(songSection(page)).toContainText("Karen Mode plays “Our Song”.");
  await expect(songSection(page).locator('audio source[type="audio/mpeg"]')).toHaveAttribute("src", /^\/media\/site\/song-[\w-]+\.mp3$/);

  await page.goto("/");
  const source = page.locator('#site-footer audio source[type="audio/mpeg"]');
  await expect(source).toHaveAttribute("src", /^\/media\/site\/song-[\w-]+\.mp3$/);
  await expect(page.locator('#site-footer audio source[type="audio/ogg"]')).toHaveCount(0);
  await expect(page.locator("#site-footer audio")).toHaveAttribute("aria-label", "Our Song");
  const served = await page.request.get((await source.getAttribute("src"))!, { headers: { Range: "bytes=0-1023" } });
  expect(served.status()).toBe(206);
  expect(served.headers()["content-type"]).toBe("audio/mpeg");

  // Not an MP3: refused with the reason.
  await page.goto(PAGE);
  await hydrated(page);
  await songSection(page)
    .getByLabel("New song")
    .setInputFiles({ name: "song.mp3", mimeType: "audio/mpeg", buffer: readFileSync(path.resolve("public/audio/karen-mode.ogg")) });
  await songSection(page).getByLabel("Song title (optional)").fill("Ogg in disguise");
  await songSection(page).getByRole("button", { name: "Save Song" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Song Not Saved" })).toContainText("This file is not an MP3 song");
  await expect(page.getByLabel("Song title (optional)")).toHaveValue("Ogg in disguise");

  await page.goto(PAGE);
  await hydrated(page);
  await songSection(page).getByRole("button", { name: "Use the bundled song" }).click();
  await expect(toast(page)).toContainText("Song Reset");
  await page.goto("/");
  await expect(source).toHaveAttribute("src", "/audio/karen-mode.mp3");
});
