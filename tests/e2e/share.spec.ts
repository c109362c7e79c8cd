import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Page } from "@playwright/test";
import sharp from "sharp";
import { content } from "~/content";
import { expectNoAxeViolations } from "./support/axe";
import { latestUpload, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

const SAMPLE_VIDEO = path.resolve("tests/fixtures/sample.mp4");
let work: string;
let photo: string;

test.beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "memorial-share-"));
  photo = path.join(work, "garden-party.jpg");
  await sharp({ create: { width: 800, height: 600, channels: 3, background: "#88aa55" } })
    .jpeg()
    .toFile(photo);
});
test.afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});
test.beforeEach(() => removeAllUploads());

const hydrated = (page: Page) => expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");

async function fillWho(page: Page, name = "Cousin Ruth", email = "ruth@example.com") {
  await page.getByLabel("Name*").fill(name);
  await page.getByLabel("Email*").fill(email);
}

test.describe("share page", { tag: "@no-js" }, () => {
  test("has the heading, the name and email fields, the notes and the privacy note", async ({ page }) => {
    await page.goto("/share");
    await expect(page.getByRole("heading", { level: 1, name: "Share Photos & Videos" })).toBeVisible();
    await expect(page.getByLabel("Name*")).toBeVisible();
    await expect(page.getByLabel("Email*")).toHaveAttribute("type", "email");
    for (const note of [
      "Supported formats: JPG, PNG, HEIC, WebP, GIF, MP4, MOV, AVI",
      "Maximum file size: 1 GB per file",
      "All uploads are reviewed before being published to the gallery.",
      content.privacyNote,
    ]) {
      await expect(page.getByText(note, { exact: true })).toBeVisible();
    }
    await expectNoAxeViolations(page);
  });
});

for (const width of [320, 414]) {
  test(
    `at ${width} px the share form's labels look like the guest book's "Name *" and "Email *", and read as the spec's "Name*" and "Email*"`,
    { tag: "@no-js" },
    async ({ page }) => {
      await page.setViewportSize({ width, height: 740 });
      /** The drawn width of a label's words, from the start of its text to the end of its star. */
      const drawnWidth = (label: string) =>
        page
          .locator("label", { hasText: label })
          .first()
          .evaluate((element) => {
            const range = document.createRange();
            range.selectNodeContents(element);
            return range.getBoundingClientRect().width;
          });
      await page.goto("/guestbook");
      const guestBook = { name: await drawnWidth("Name *"), email: await drawnWidth("Email *") };
      await page.goto("/share");
      // The spec's words, as text and as the inputs' names.
      await expect(page.getByLabel("Name*", { exact: true })).toBeVisible();
      await expect(page.getByLabel("Email*", { exact: true })).toHaveAttribute("type", "email");
      // Drawn with the same gap before the star as the guest book's labels (within a pixel and a half).
      expect(Math.abs((await drawnWidth("Name*")) - guestBook.name)).toBeLessThanOrEqual(1.5);
      expect(Math.abs((await drawnWidth("Email*")) - guestBook.email)).toBeLessThanOrEqual(1.5);
    },
  );
}

test.describe("sharing without JavaScript", { tag: "@no-js" }, () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the plain form is what a browser without JavaScript gets");

  test("a visitor uploads a photo and a video with the plain form", async ({ page }) => {
    await page.goto("/share");
    await fillWho(page);
    await page.getByLabel("Photos and videos").setInputFiles([photo, SAMPLE_VIDEO]);
    await page.getByRole("button", { name: "Upload Files" }).click();

    await expect(page).toHaveURL(/\/share$/);
    await expect(page.getByText("Upload Complete")).toBeVisible();
    // The spec's sentence, then a warmer word for the two files together.
    await expect(
      page.getByText(
        "Your file has been uploaded successfully and is pending review. All 2 of your files arrived safely. Thank you for sharing them.",
      ),
    ).toBeVisible();
    const recent = page.getByRole("region", { name: "Recently uploaded" });
    await expect(recent.getByRole("listitem")).toHaveText(["garden-party.jpg", "sample.mp4"]);

    const video = latestUpload();
    expect(video).toMatchObject({
      type: "VIDEO",
      status: "PENDING",
      originalName: "sample.mp4",
      submittedBy: "Cousin Ruth (ruth@example.com)",
      durationSec: 3,
    });
    await expectNoAxeViolations(page);
  });

  test("a name of only spaces is refused with a plain sentence and nothing is kept", async ({ page }) => {
    await page.goto("/share");
    await fillWho(page, "   ");
    await page.getByLabel("Photos and videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Upload Files" }).click();
    const alert = page.getByRole("alert");
    // The spec's words: "Missing Information: Please provide your name and email before uploading files."
    await expect(alert.getByText("Missing Information", { exact: true })).toBeVisible();
    await expect(alert.getByText("Please provide your name and email before uploading files.")).toBeVisible();
    await expect(page.getByText("Name is required")).toBeVisible();
    // What was typed comes back.
    await expect(page.getByLabel("Email*")).toHaveValue("ruth@example.com");
    expect(latestUpload()).toBeUndefined();
  });

  test("a file that is not a photo or video is refused by name", async ({ page }) => {
    const notes = path.join(work, "notes.jpg");
    await fs.writeFile(notes, "These are my notes, not a picture.");
    await page.goto("/share");
    await fillWho(page);
    await page.getByLabel("Photos and videos").setInputFiles(notes);
    await page.getByRole("button", { name: "Upload Files" }).click();
    await expect(
      page.getByText("“notes.jpg” is not a photo or video we can accept. Supported formats: JPG, PNG, HEIC, WebP, GIF, MP4, MOV, AVI."),
    ).toBeVisible();
    await expect(page.getByRole("alert").getByText("Upload Error", { exact: true })).toBeVisible();
    // The name and e-mail stay filled in for the next try.
    await expect(page.getByLabel("Name*")).toHaveValue("Cousin Ruth");
    await expect(page.getByLabel("Email*")).toHaveValue("ruth@example.com");
    expect(latestUpload()).toBeUndefined();
  });

  test("a video longer than the site takes is refused in words that say why", async ({ page }) => {
    // 31 minutes of a flat picture in about 100 KB, as a phone's long recording might be.
    const piece = path.join(work, "piece.mp4");
    const long = path.join(work, "the-whole-evening.mp4");
    const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args]);
    ffmpeg("-f", "lavfi", "-i", "color=c=0x336699:s=320x240:r=25:d=10", "-c:v", "libx264", "-preset", "ultrafast", "-g", "250", piece);
    ffmpeg("-stream_loop", "185", "-i", piece, "-c", "copy", long);
    await page.goto("/share");
    await fillWho(page);
    await page.getByLabel("Photos and videos").setInputFiles(long);
    await page.getByRole("button", { name: "Upload Files" }).click();
    await expect(
      page.getByText(
        "The video is 31 minutes long, and videos up to 30 minutes can be shared; a shorter version, or the video in parts, can be shared instead.",
      ),
    ).toBeVisible();
    expect(latestUpload()).toBeUndefined();
  });
});

test.describe("sharing with the upload dialog", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the upload dialog needs JavaScript");

  async function openDialogWith(page: Page, files: string | string[]) {
    await page.getByRole("button", { name: "Choose Files" }).click();
    const dialog = page.locator(".uppy-Dashboard--modal");
    await expect(dialog.getByRole("dialog")).toBeVisible();
    await dialog.locator("input.uppy-Dashboard-input").first().setInputFiles(files);
    return dialog;
  }

  test("two files sent at once are confirmed as they arrive, then thanked for together", async ({ page }) => {
    await page.goto("/share");
    await hydrated(page);
    await fillWho(page);
    const dialog = await openDialogWith(page, [photo, SAMPLE_VIDEO]);
    await dialog.getByRole("button", { name: /^Upload 2 files/ }).click();

    await expect(page.getByTestId("toast")).toContainText(
      "Your file has been uploaded successfully and is pending review. All 2 of your files arrived safely. Thank you for sharing them.",
      { timeout: 30_000 },
    );
    await expect(page.getByTestId("toast")).toContainText("Upload Complete");
  });

  test("a visitor picks a file in the dialog, uploads it and sees it confirmed", async ({ page }) => {
    await page.goto("/share");
    await hydrated(page);
    // The plain form's file field gives way to the dialog's button.
    await expect(page.getByLabel("Photos and videos")).toHaveCount(0);
    await fillWho(page);
    const dialog = await openDialogWith(page, photo);
    await dialog.getByRole("button", { name: /^Upload 1 file/ }).click();

    await expect(page.getByTestId("toast").filter({ hasText: "Upload Complete" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("Your file has been uploaded successfully and is pending review.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Recently uploaded" }).getByRole("listitem")).toHaveText(["garden-party.jpg"]);
    expect(latestUpload()).toMatchObject({
      type: "IMAGE",
      status: "PENDING",
      originalName: "garden-party.jpg",
      submittedBy: "Cousin Ruth (ruth@example.com)",
      width: 800,
    });
  });

  test("the dialog does not open until a name and email are given", async ({ page }) => {
    await page.goto("/share");
    await hydrated(page);
    await page.getByRole("button", { name: "Choose Files" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Missing Information");
    await expect(toast).toContainText("Please provide your name and email before uploading files.");
    await expect(toast).toHaveAttribute("data-type", "destructive");
    await expect(page.locator(".uppy-Dashboard--modal").getByRole("dialog")).toBeHidden();
    await expect(page.getByLabel("Name*")).toBeFocused();
    expect(latestUpload()).toBeUndefined();
  });

  test("the dialog's scripts and styles are fetched only when Choose Files is clicked with a name and email", async ({ page }) => {
    const uppyFiles: string[] = [];
    page.on("request", (request) => {
      // Uppy's stylesheets and the chunks holding its code (its Dashboard's class names are in them).
      if (/style\.min-|\/lib-/.test(request.url())) uppyFiles.push(request.url());
    });
    await page.goto("/share");
    await hydrated(page);
    await expect(page.getByRole("button", { name: "Choose Files" })).toBeVisible();
    await expect(page.locator('link[rel="stylesheet"][href*="style.min-"]')).toHaveCount(0);
    // Without a name and email nothing is fetched either.
    await page.getByRole("button", { name: "Choose Files" }).click();
    await expect(page.getByTestId("toast")).toContainText("Missing Information");
    expect(uppyFiles).toEqual([]);

    await fillWho(page);
    await page.getByRole("button", { name: "Choose Files" }).click();
    await expect(page.locator(".uppy-Dashboard--modal").getByRole("dialog")).toBeVisible();
    await expect(page.locator('link[rel="stylesheet"][href*="style.min-"]')).toHaveCount(2);
    expect(uppyFiles.length).toBeGreaterThan(2);
  });

  test("the dialog speaks plainly, in large type, with big buttons in the site's colours", async ({ page }) => {
    await page.goto("/share");
    await hydrated(page);
    await fillWho(page);
    await page.getByRole("button", { name: "Choose Files" }).click();
    const dialog = page.locator(".uppy-Dashboard--modal");
    const choose = dialog.getByRole("button", { name: "Choose photos and videos from this device" });
    await expect(choose).toBeVisible();
    const style = await choose.evaluate((button) => {
      const css = getComputedStyle(button);
      return { fontSize: parseFloat(css.fontSize), height: button.getBoundingClientRect().height };
    });
    expect(style.fontSize).toBeGreaterThanOrEqual(18);
    expect(style.height).toBeGreaterThanOrEqual(44);
    // The site's brown (its darker shade while focused), not Uppy's blue; read once any colour change has settled.
    await expect
      .poll(() => choose.evaluate((button) => getComputedStyle(button).backgroundColor))
      .toMatch(/^rgb\((107, 63, 42|79, 45, 29)\)$/);
    await dialog.locator("input.uppy-Dashboard-input").first().setInputFiles(photo);
    const upload = dialog.getByRole("button", { name: /^Upload 1 file/ });
    await expect(upload).toBeVisible();
    await expect.poll(() => upload.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe("rgb(107, 63, 42)");
    expect((await upload.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    // No text in the dialog is smaller than 18 px.
    const smallest = await dialog.evaluate((root) =>
      Math.min(
        ...[...root.querySelectorAll("*")]
          .filter(
            (el) =>
              [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim()) &&
              el.getClientRects().length > 0,
          )
          .map((el) => parseFloat(getComputedStyle(el).fontSize)),
      ),
    );
    expect(smallest).toBeGreaterThanOrEqual(18);
    // A close button that can be seen and hit.
    const close = dialog.getByRole("button", { name: /close/i });
    await expect(close).toBeVisible();
    const closeBox = (await close.boundingBox())!;
    expect(Math.min(closeBox.width, closeBox.height)).toBeGreaterThanOrEqual(44);
    await close.click();
    await expect(dialog.getByRole("dialog")).toBeHidden();
  });

  for (const width of [320, 414]) {
    test(`on a touch screen ${width} px wide the dialog offers choosing files, never dropping them`, async ({ browser }) => {
      const phone = await browser.newContext({ viewport: { width, height: 740 }, hasTouch: true, isMobile: true });
      try {
        const page = await phone.newPage();
        expect(await page.evaluate(() => matchMedia("(hover: none) and (pointer: coarse)").matches)).toBe(true);
        await page.goto("/share");
        await hydrated(page);
        await fillWho(page);
        await page.getByRole("button", { name: "Choose Files" }).tap();
        const dialog = page.locator(".uppy-Dashboard--modal");
        await expect(dialog.getByRole("button", { name: "Choose photos and videos from this device" })).toBeVisible();
        await expect(dialog.locator(".uppy-Dashboard-AddFiles-title")).toHaveText("Choose photos and videos from this device");
        await expect(dialog).not.toContainText(/drop/i);
      } finally {
        await phone.close();
      }
    });
  }

  test("with a mouse the dialog also says files can be dropped", async ({ page }) => {
    await page.goto("/share");
    await hydrated(page);
    await fillWho(page);
    await page.getByRole("button", { name: "Choose Files" }).click();
    const dialog = page.locator(".uppy-Dashboard--modal");
    await expect(dialog.locator(".uppy-Dashboard-AddFiles-title")).toHaveText(
      "Choose photos and videos from this device (or drop them here)",
    );
  });

  for (const width of [320, 360, 390, 414]) {
    test.describe(`on a phone ${width} px wide`, () => {
      test.use({ viewport: { width, height: 740 } });

      test("the dialog fits the screen: its button reads whole, its close button is on screen, Done is in the site's colours", async ({
        page,
      }) => {
        await page.goto("/share");
        await hydrated(page);
        await fillWho(page);
        await page.getByRole("button", { name: "Choose Files" }).click();
        const dialog = page.locator(".uppy-Dashboard--modal");
        const choose = dialog.getByRole("button", { name: "Choose photos and videos from this device" });
        await expect(choose).toBeVisible();
        /** Every visible box in the dialog that reaches past the screen's edges. */
        const outside = () =>
          dialog.evaluate((root) =>
            [...root.querySelectorAll("*")]
              .filter((el) => {
                const box = el.getBoundingClientRect();
                const css = getComputedStyle(el);
                return box.width > 1 && box.height > 1 && css.visibility !== "hidden" && css.display !== "none" && css.opacity !== "0";
              })
              .filter((el) => {
                const box = el.getBoundingClientRect();
                return box.left < -0.5 || box.top < -0.5 || box.right > innerWidth + 0.5;
              })
              .map((el) => `${el.tagName}.${[...el.classList].join(".")}`),
          );
        // Read once the dialog's opening animation (a slide down) has ended.
        await expect.poll(outside).toEqual([]);
        // The button's words are all there: nothing cut off inside it.
        expect(await choose.evaluate((button) => button.scrollWidth <= button.clientWidth + 1)).toBe(true);
        const close = dialog.getByRole("button", { name: /close/i });
        const box = (await close.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);

        await dialog.locator("input.uppy-Dashboard-input").first().setInputFiles(photo);
        await dialog.getByRole("button", { name: /^Upload 1 file/ }).click();
        const done = dialog.getByRole("button", { name: "Done" });
        await expect(done).toBeVisible({ timeout: 30_000 });
        // The site's brown, not Uppy's blue.
        await expect.poll(() => done.evaluate((button) => getComputedStyle(button).color)).toMatch(/^rgb\((107, 63, 42|79, 45, 29)\)$/);
        await expect.poll(outside).toEqual([]);
        // The upload is registered before the test ends, so it never lands in the next test's empty gallery.
        await expect.poll(() => latestUpload()?.originalName, { timeout: 30_000 }).toBe("garden-party.jpg");
      });
    });
  }

  test("a refusal of the site's is shown in its own words, in the dialog and as a toast", async ({ page }) => {
    const full =
      "The memorial's storage is full right now, so this file can't be accepted. The family has been told; please try again later.";
    await page.route("**/api/uploads/sign", (route) =>
      route.fulfill({ status: 507, contentType: "application/json", body: JSON.stringify({ errors: { file: [full] } }) }),
    );
    await page.goto("/share");
    await hydrated(page);
    await fillWho(page);
    const dialog = await openDialogWith(page, photo);
    await dialog.getByRole("button", { name: /^Upload 1 file/ }).click();
    await expect(page.getByTestId("toast").filter({ hasText: full })).toHaveAttribute("data-type", "destructive");
    await expect(
      dialog
        .getByRole("alert")
        .filter({ hasText: `“garden-party.jpg”: ${full}` })
        .first(),
    ).toBeVisible();
    expect(latestUpload()).toBeUndefined();
  });

  test("a file refused while it is being sent says why instead of a bare error", async ({ page }) => {
    const tooLarge = "The file is larger than 1 GB. Please choose a smaller file.";
    await page.route("**/api/uploads/put/**", (route) =>
      route.fulfill({ status: 413, contentType: "application/json", body: JSON.stringify({ errors: { file: [tooLarge] } }) }),
    );
    await page.goto("/share");
    await hydrated(page);
    await fillWho(page);
    const dialog = await openDialogWith(page, photo);
    await dialog.getByRole("button", { name: /^Upload 1 file/ }).click();
    await expect(page.getByTestId("toast").filter({ hasText: tooLarge })).toBeVisible();
    await expect(
      dialog
        .getByRole("alert")
        .filter({ hasText: `“garden-party.jpg”: ${tooLarge}` })
        .first(),
    ).toBeVisible();
    expect(latestUpload()).toBeUndefined();
  });

  test("a file over 100 MB goes up in parts and survives a pause and resume", async ({ page }) => {
    test.setTimeout(120_000);
    const big = path.join(work, "long-video.mp4");
    const video = await fs.readFile(SAMPLE_VIDEO);
    // A real video at the start (so the server accepts it) padded past the multipart threshold.
    const handle = await fs.open(big, "w");
    await handle.write(video);
    const block = Buffer.alloc(4 * 1024 * 1024, 7);
    for (let written = video.length; written < 110 * 1024 * 1024; written += block.length) await handle.write(block);
    await handle.close();
    const size = (await fs.stat(big)).size;

    const partRequests: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT" && request.url().includes("partNumber=")) partRequests.push(request.url());
    });
    await page.goto("/share");
    await hydrated(page);
    await fillWho(page);
    const dialog = await openDialogWith(page, big);
    await dialog.getByRole("button", { name: /^Upload 1 file/ }).click();
    await expect.poll(() => partRequests.length).toBeGreaterThan(0);
    await dialog.getByRole("button", { name: /pause/i }).first().click();
    await expect(dialog.getByRole("button", { name: /resume/i }).first()).toBeVisible();
    await dialog
      .getByRole("button", { name: /resume/i })
      .first()
      .click();

    await expect(page.getByTestId("toast").filter({ hasText: "Upload Complete" })).toBeVisible({ timeout: 90_000 });
    expect(new Set(partRequests.map((url) => new URL(url).searchParams.get("partNumber"))).size).toBeGreaterThan(1);
    expect(latestUpload()).toMatchObject({ type: "VIDEO", status: "PENDING", sizeBytes: size, originalName: "long-video.mp4" });
    await fs.rm(big, { force: true });
  });
});
