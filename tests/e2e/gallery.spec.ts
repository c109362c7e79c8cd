import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { addGalleryCopies, addUpload, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

test.beforeEach(() => removeAllUploads());

const hydrated = async (page: Page) => {
  if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
};
const tiles = (page: Page) => page.getByRole("list", { name: "Shared photos and videos" }).getByRole("listitem");

test.describe("gallery", { tag: "@no-js" }, () => {
  test("says so when nothing is published, for each filter", async ({ page }) => {
    await addUpload({ status: "PENDING" });
    await page.goto("/gallery");
    await expect(page.getByRole("heading", { level: 1, name: "Memory Gallery" })).toBeVisible();
    await expect(page.getByText("No media has been shared yet.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Share Your Memory" })).toHaveAttribute("href", "/share");
    await page.getByRole("link", { name: "Photos", exact: true }).click();
    await expect(page.getByText("No image has been shared yet.")).toBeVisible();
    await page.getByRole("link", { name: "Videos", exact: true }).click();
    await expect(page.getByText("No video has been shared yet.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Videos", exact: true })).toHaveAttribute("aria-current", "page");
    await expectNoAxeViolations(page);
  });

  test("shows only published media, newest first, and filters photos and videos", async ({ page }) => {
    await addUpload({ status: "APPROVED", name: "older-photo.jpg" });
    await addUpload({ status: "APPROVED", type: "VIDEO", name: "birthday.mp4" });
    await addUpload({ status: "PENDING", name: "waiting.jpg" });
    await addUpload({ status: "REJECTED", name: "rejected.jpg" });
    await page.goto("/gallery");
    await hydrated(page);
    await expect(tiles(page)).toHaveCount(2);
    await expect(tiles(page).nth(0).getByRole("link")).toHaveAccessibleName("Play Video shared by Test Visitor, 0:03");
    await expect(tiles(page).nth(0)).toContainText("0:03");
    const photo = tiles(page).nth(1).getByRole("link");
    await expect(photo).toHaveAccessibleName("Photo shared by Test Visitor (opens in a new tab)");
    await expect(photo).toHaveAttribute("target", "_blank");
    const html = await page.content();
    expect(html).not.toContain("visitor@example.com");
    expect(html).not.toContain("waiting.jpg");

    await page.getByRole("link", { name: "Photos", exact: true }).click();
    await expect(page).toHaveURL(/type=IMAGE/);
    await expect(tiles(page)).toHaveCount(1);
    await page.getByRole("link", { name: "Videos", exact: true }).click();
    await expect(tiles(page)).toHaveCount(1);
    await expect(tiles(page).first()).toContainText("0:03");
    await expectNoAxeViolations(page);
  });

  test("a photo is shown from its web copies, and opens full size in a new tab", async ({ page, context }) => {
    const id = await addUpload({ status: "APPROVED", name: "portrait.jpg", width: 1400 });
    await page.goto("/gallery");
    await hydrated(page);
    // The grid offers the thumbnail and each web copy; the browser picks one for the tile's size.
    const thumbnail = tiles(page).first().locator("img");
    const copy = (width: number) => `/media/${id}/[\\w-]+-${width}w\\.jpg ${width}w`;
    await expect(thumbnail).toHaveAttribute(
      "srcset",
      new RegExp(`^/media/${id}/[\\w-]+-thumb\\.jpg 280w, ${copy(640)}, ${copy(1280)}, ${copy(1400)}$`),
    );
    await expect(thumbnail).toHaveAttribute("sizes", /\S/);
    for (const candidate of (await thumbnail.getAttribute("srcset"))!.split(", ")) {
      const response = await page.request.get(candidate.split(" ")[0]!);
      expect(response.headers()["content-type"]).toBe("image/jpeg");
    }
    // Loaded and decoded, with JavaScript or without (the check itself runs in Playwright's own world).
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    const [tab] = await Promise.all([context.waitForEvent("page"), tiles(page).first().getByRole("link").click()]);
    // A new tab starts at about:blank: wait for its address, not its first load.
    await expect(tab).toHaveURL(/\/media\/\d+\/[A-Za-z0-9_-]+-1400w\.jpg$/);
    const response = await page.request.get(tab.url());
    expect(response.headers()["content-type"]).toBe("image/jpeg");

    // The photo's own page offers the same widths.
    await page.goto(`/gallery/${id}`);
    const photo = page.getByRole("img", { name: "Photo shared by Test Visitor" });
    await expect(photo).toHaveAttribute("srcset", new RegExp(`^${copy(640)}, ${copy(1280)}, ${copy(1400)}$`));
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expectNoAxeViolations(page);
  });

  test("Load More shows the next twenty", async ({ page }) => {
    test.setTimeout(60_000);
    for (let i = 0; i < 25; i++)
      await addUpload({
        status: "APPROVED",
        name: `photo-${i + 1}.jpg`,
        sender: `Sender${i + 1}`,
        colour: `#${(0x203040 + i * 0x050505).toString(16)}`,
      });
    await page.goto("/gallery");
    await hydrated(page);
    await expect(tiles(page)).toHaveCount(20);
    await expect(tiles(page).first().getByRole("link")).toHaveAccessibleName("Photo shared by Sender25 (opens in a new tab)");
    await page.getByRole("button", { name: "Load More" }).click();
    await expect(tiles(page)).toHaveCount(25);
    await expect(tiles(page).last().getByRole("link")).toHaveAccessibleName("Photo shared by Sender1 (opens in a new tab)");
    await expect(page.getByRole("button", { name: "Load More" })).toHaveCount(0);
  });

  test("after Load More, each filter shows only its own items, from its first page", async ({ page }) => {
    test.setTimeout(90_000);
    for (let i = 0; i < 3; i++) await addUpload({ status: "APPROVED", type: "VIDEO", name: `video-${i + 1}.mp4` });
    for (let i = 0; i < 22; i++) await addUpload({ status: "APPROVED", name: `photo-${i + 1}.jpg` });
    await page.goto("/gallery");
    await hydrated(page);
    await expect(tiles(page)).toHaveCount(20);
    await page.getByRole("button", { name: "Load More" }).click();
    await expect(tiles(page)).toHaveCount(25);

    await page.getByRole("link", { name: "Videos", exact: true }).click();
    await expect(page).toHaveURL(/type=VIDEO/);
    await expect(tiles(page)).toHaveCount(3);
    await expect(tiles(page).getByRole("link", { name: /^Play Video/ })).toHaveCount(3);
    await expect(page.getByRole("button", { name: "Load More" })).toHaveCount(0);

    await page.getByRole("link", { name: "Photos", exact: true }).click();
    await expect(page).toHaveURL(/type=IMAGE/);
    await expect(tiles(page)).toHaveCount(20);
    await expect(tiles(page).getByRole("link", { name: /^Play Video/ })).toHaveCount(0);
    await page.getByRole("button", { name: "Load More" }).click();
    await expect(tiles(page)).toHaveCount(22);
    await expect(page.getByRole("button", { name: "Load More" })).toHaveCount(0);
  });

  test("past 100 photos the list goes on as pages of the same filter, and back to the newest", async ({ page }) => {
    const source = await addUpload({ status: "APPROVED", name: "photo-000.jpg", sender: "photo-000" });
    addGalleryCopies(source, 3, { prefix: "video", type: "VIDEO" });
    addGalleryCopies(source, 104);
    // As after three clicks on Load More without JavaScript: 80 photos.
    await page.goto("/gallery?type=IMAGE&offset=60");
    await hydrated(page);
    await expect(tiles(page)).toHaveCount(80);
    await page.getByRole("button", { name: "Load More" }).click();
    await expect(tiles(page)).toHaveCount(100);
    await expect(page.getByRole("button", { name: "Load More" })).toHaveCount(0);

    await page.getByRole("link", { name: "Earlier photos →" }).click();
    await expect(page).toHaveURL(/\/gallery\?type=IMAGE&before=[\w-]+$/);
    await expect(tiles(page)).toHaveCount(5);
    await expect(tiles(page).first().getByRole("link")).toHaveAccessibleName(/^Photo shared by photo-004\b/);
    await expect(tiles(page).last().getByRole("link")).toHaveAccessibleName(/^Photo shared by photo-000\b/);
    await expect(page.getByRole("link", { name: /^Play Video/ })).toHaveCount(0);

    await page.getByRole("link", { name: "← Newest photos" }).click();
    await expect(page).toHaveURL(/\/gallery\?type=IMAGE$/);
    await expect(tiles(page)).toHaveCount(20);
    await expect(tiles(page).first().getByRole("link")).toHaveAccessibleName(/^Photo shared by photo-104\b/);
  });

  test("a Load More that fails keeps what is shown and says to try again", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "without JavaScript Load More is a page of its own");
    test.setTimeout(60_000);
    for (let i = 0; i < 21; i++) await addUpload({ status: "APPROVED", name: `photo-${i + 1}.jpg` });
    await page.goto("/gallery");
    await hydrated(page);
    await page.route("**/api/gallery**", (route) => route.fulfill({ status: 500, body: "down for a moment" }));
    await page.getByRole("button", { name: "Load More" }).click();
    await expect(page.getByText("Couldn't load more — try again")).toBeVisible();
    await expect(tiles(page)).toHaveCount(20);
    await expect(page.getByRole("heading", { level: 1, name: "Memory Gallery" })).toBeVisible();

    await page.unroute("**/api/gallery**");
    await page.getByRole("button", { name: "Load More" }).click();
    await expect(tiles(page)).toHaveCount(21);
    await expect(page.getByText("Couldn't load more — try again")).toHaveCount(0);
  });
});

test.describe("on a phone", () => {
  for (const width of [320, 360, 390]) {
    test(
      `at ${width} px each photo and video is named by who shared it, in their whole name, never by its file name`,
      { tag: "@no-js" },
      async ({ page, javaScriptEnabled }) => {
        await page.setViewportSize({ width, height: 740 });
        const photo = await addUpload({ status: "APPROVED", name: "IMG_4127.JPG", sender: "Peter Hall" });
        const video = await addUpload({ status: "APPROVED", type: "VIDEO", name: "IMG_4128.MOV", sender: "Ben Ortiz" });
        await page.goto("/gallery");
        await hydrated(page);
        await expect(tiles(page).nth(0).getByRole("link")).toHaveAccessibleName("Play Video shared by Ben Ortiz, 0:03");
        await expect(tiles(page).nth(1).getByRole("link")).toHaveAccessibleName("Photo shared by Peter Hall (opens in a new tab)");
        await expect(page.locator("main")).not.toContainText("IMG_41");

        await page.goto(`/gallery/${photo}`);
        await expect(page.getByRole("heading", { level: 1, name: "Photo shared by Peter Hall" })).toBeVisible();
        await expect(page.getByRole("img", { name: "Photo shared by Peter Hall" })).toBeVisible();
        await expect(page).toHaveTitle(/^Photo shared by Peter Hall/);
        await page.goto(`/gallery/${video}`);
        await expect(page.getByRole("heading", { level: 1, name: "Video shared by Ben Ortiz, 0:03" })).toBeVisible();
        await expect(page).toHaveTitle(/^Video shared by Ben Ortiz, 0:03/);
        await expect(page.locator("main")).not.toContainText("IMG_41");
        if (javaScriptEnabled) {
          await page.goto("/gallery");
          await hydrated(page);
          await tiles(page).first().getByRole("link").click();
          await expect(page.getByRole("dialog", { name: "Video shared by Ben Ortiz, 0:03" })).toBeVisible();
        }
      },
    );
  }
});

test.describe("playing a video", () => {
  test("with JavaScript it plays in a dialog with its name and a close button", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "the modal player needs JavaScript");
    await addUpload({ status: "APPROVED", type: "VIDEO", name: "dance.mp4" });
    await page.goto("/gallery");
    await hydrated(page);
    await tiles(page).first().getByRole("link").click();
    const dialog = page.getByRole("dialog", { name: "Video shared by Test Visitor, 0:03" });
    await expect(dialog).toBeVisible();
    // The spec's modal shows the original file name too, under who shared it.
    await expect(dialog).toContainText("dance.mp4");
    const video = dialog.locator("video");
    await expect(video).toHaveAttribute("controls", "");
    await expect(video).toHaveAttribute("autoplay", "");
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/gallery$/);
  });

  test("without JavaScript the tile leads to a page with the player", { tag: "@no-js" }, async ({ page, javaScriptEnabled }) => {
    test.skip(javaScriptEnabled, "this is the page a browser without JavaScript gets");
    const id = await addUpload({ status: "APPROVED", type: "VIDEO", name: "dance.mp4" });
    await page.goto("/gallery");
    await tiles(page).first().getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/gallery/${id}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Video shared by Test Visitor, 0:03" })).toBeVisible();
    await expect(page.locator("video[controls]")).toHaveAttribute("src", /\/media\/\d+\//);
    await expectNoAxeViolations(page);
  });

  test("a video filmed on an iPhone (HEVC, .mov) plays from its H.264 web copy", { tag: "@no-js" }, async ({ page, javaScriptEnabled }) => {
    // 1 second of 10-bit HEVC with where it was filmed, as an iPhone writes it: Chromium cannot play it as it is.
    const original = path.join(mkdtempSync(path.join(tmpdir(), "memorial-e2e-video-")), "iphone.mov");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:v", "libx265", "-x265-params", "log-level=error"],
      ...["-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", "-c:a", "aac", "-metadata", "location=+48.8584+002.2945/"],
      original,
    ]);
    const id = await addUpload({ status: "APPROVED", type: "VIDEO", name: "iphone.mov", file: original });
    await page.goto("/gallery");
    await hydrated(page);
    await expect(tiles(page).first()).toContainText("0:01");
    await tiles(page).first().getByRole("link").click();
    let video;
    if (javaScriptEnabled) {
      const dialog = page.getByRole("dialog", { name: "Video shared by Test Visitor, 0:01" });
      video = dialog.locator("video");
    } else {
      await expect(page).toHaveURL(new RegExp(`/gallery/${id}$`));
      video = page.locator("video[controls]");
      const download = page.getByRole("link", { name: "Download this video (MP4)" });
      await expect(download).toHaveAttribute("href", new RegExp(`^/media/${id}/[\\w-]+\\.mp4$`));
      await expect(download).toHaveAttribute("download", "iphone.mp4");
      expect(await download.getAttribute("href")).toBe(await video.getAttribute("src"));
    }
    await expect(video).toHaveAttribute("src", new RegExp(`^/media/${id}/[\\w-]+\\.mp4$`));
    await expect(video).toHaveAttribute("poster", new RegExp(`^/media/${id}/[\\w-]+-poster\\.jpg$`));
    // Chromium has decoded its pictures: the current frame at least (HAVE_CURRENT_DATA).
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
    expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight, v.error])).toEqual([320, 240, null]);
    const response = await page.request.get((await video.getAttribute("src"))!);
    expect(response.headers()["content-type"]).toBe("video/mp4");
    expect((await response.body()).includes("48.8584")).toBe(false);
    await expectNoAxeViolations(page);
  });

  test("a pending video has no page", async ({ page }) => {
    const id = await addUpload({ status: "PENDING", type: "VIDEO" });
    const response = await page.goto(`/gallery/${id}`);
    expect(response?.status()).toBe(404);
  });
});
