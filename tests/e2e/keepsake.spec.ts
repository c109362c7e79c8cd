// The keepsake ZIP's page, opened from the unzipped folder in Chromium with no
// server: a video filmed on an iPhone (HEVC, which Chromium cannot play) plays
// from the H.264 web copy kept beside its original.
import { execFileSync } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import { createFamilyArchive } from "~/keepsakes/archive.server";
import { addUpload, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

test("the keepsake page plays an iPhone's HEVC video offline, from its web copy", async ({ page }) => {
  test.skip(test.info().project.name !== "js", "the page has no script: one browser run is enough");
  removeAllUploads();
  const work = mkdtempSync(path.join(tmpdir(), "memorial-e2e-keepsake-"));
  const original = path.join(work, "IMG_4127.MOV");
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:v", "libx265", "-x265-params", "log-level=error"],
    ...["-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", "-c:a", "aac", original],
  ]);
  await addUpload({ status: "APPROVED", type: "VIDEO", name: "IMG_4127.MOV", sender: "Ben Ortiz", file: original });
  const zip = path.join(work, "memorial.zip");
  await pipeline(createFamilyArchive(), createWriteStream(zip));
  const folder = path.join(work, "unzipped");
  execFileSync("unzip", ["-q", zip, "-d", folder]);

  await page.goto(pathToFileURL(path.join(folder, "index.html")).href);
  const video = page.locator("#gallery video");
  await expect(video).toHaveCount(1);
  const src = decodeURIComponent((await video.getAttribute("src"))!);
  expect(src).toMatch(/^videos\/.*_Ben Ortiz_IMG_4127 \(web copy\)\.mp4$/);
  expect(existsSync(path.join(folder, src))).toBe(true);
  await expect(page.getByRole("link", { name: "The original file" })).toHaveAttribute("href", /IMG_4127\.MOV$/);
  // Chromium read it: its length and picture size are known, and nothing went wrong.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => [Math.round(v.duration), v.videoWidth, v.videoHeight, v.error])).toEqual([
    1,
    320,
    240,
    null,
  ]);
});
