// The keepsake ZIP's page, opened from the unzipped folder in Chromium with no
// server: a video filmed on an iPhone (HEVC, which Chromium cannot play) plays
// from the H.264 web copy kept beside its original, and a voice memory sent
// as Chrome records it (Opus in WebM) plays from its AAC M4A web copy.
import { execFileSync } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import { createFamilyArchive } from "~/keepsakes/archive.server";
import { makeVoiceFile } from "../support/voice-fixtures";
import { expectNoAxeViolations } from "./support/axe";
import { addUpload, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

/** The family's ZIP as "Download everything" makes it, unzipped into `work`: the folder. */
async function unzippedKeepsake(work: string) {
  const zip = path.join(work, "memorial.zip");
  await pipeline(createFamilyArchive(), createWriteStream(zip));
  const folder = path.join(work, "unzipped");
  execFileSync("unzip", ["-q", zip, "-d", folder]);
  return folder;
}

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
  const folder = await unzippedKeepsake(work);

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

test("the keepsake page plays a voice memory offline, from its web copy, with its name, length and line", async ({ page }) => {
  test.skip(test.info().project.name !== "js", "the page has no script: one browser run is enough");
  removeAllUploads();
  const work = mkdtempSync(path.join(tmpdir(), "memorial-e2e-keepsake-voice-"));
  await addUpload({
    status: "APPROVED",
    type: "AUDIO",
    name: "recording.webm",
    sender: "Ann Lee",
    caption: "Happy birthday, Jo, from all of us",
    file: makeVoiceFile(work, "webm", { seconds: 6 }),
  });
  await addUpload({ status: "APPROVED", type: "AUDIO", sender: "Bo", canDisplay: false, file: makeVoiceFile(work, "m4a", { seconds: 3 }) });
  const folder = await unzippedKeepsake(work);

  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(pathToFileURL(path.join(folder, "index.html")).href);
  const voices = page.getByRole("region", { name: "Voices" });
  await expect(voices.getByRole("heading", { level: 3 })).toHaveText(["Ann Lee", "Bo"]);
  await expect(voices.getByText("Happy birthday, Jo, from all of us")).toBeVisible();
  await expect(voices.getByText(/^\w+ \d+, \d{4} · 0:06$/)).toBeVisible();
  await expect(voices.getByText(/^\w+ \d+, \d{4} · 0:0[34] · shared with the family only$/)).toBeVisible();
  const audio = voices.getByLabel("Voice memory from Ann Lee, 0:06");
  await expect(audio).toBeVisible();
  expect(decodeURIComponent((await audio.getAttribute("src"))!)).toMatch(/^voices\/.*_Ann Lee_recording \(web copy\)\.m4a$/);
  await expect(voices.getByRole("link", { name: "The original recording" }).first()).toHaveAttribute("href", /_Ann%20Lee_recording\.webm$/);
  // The player fits a phone's width.
  const box = (await audio.boundingBox())!;
  expect(box.width).toBeGreaterThan(200);
  expect(box.x + box.width).toBeLessThanOrEqual(320);

  // Chromium reads the copy and plays it (muted: a page may play sound by itself only then).
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThanOrEqual(1);
  expect(await audio.evaluate((a: HTMLAudioElement) => [Math.round(a.duration), a.error])).toEqual([6, null]);
  await audio.evaluate((a: HTMLAudioElement) => {
    a.muted = true;
    return a.play();
  });
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0.2);
  await expectNoAxeViolations(page);
});
