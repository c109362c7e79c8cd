import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Locator, type Page } from "@playwright/test";
import { makeVoiceFile } from "../support/voice-fixtures";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { addUpload, latestUpload, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

// Voice memories as visitors leave and hear them, on a phone: the plain
// form (the no-js project runs these again without JavaScript, where the
// file field is the phone's recorder), and published voices playing on the
// guest book and on their own page. The in-page recorder, with Chromium's
// fake microphone, is in voices-recorder.spec.ts.

let work: string;
let memo: string;
test.beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "memorial-voices-e2e-"));
  memo = makeVoiceFile(work, "m4a", { seconds: 4 });
});
test.afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
test.beforeEach(() => removeAllUploads());

const PHONE = { width: 320, height: 740 };
const SENT = ["Voice Memory Submitted", "Thank you for sharing your voice. It will be reviewed before being published."];

const voiceForm = (page: Page) => page.getByRole("region", { name: "Leave a voice memory" });
const voices = (page: Page) => page.getByRole("region", { name: "Voices", exact: true });

async function expectSentToast(page: Page) {
  for (const words of SENT) await expect(page.getByTestId("toast")).toContainText(words);
}

/** Nothing on the page is wider than the phone. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** Plays a player (as a tap on its play button would) and waits until the browser has the recording's length. */
async function expectPlays(player: Locator, seconds: number) {
  await player.evaluate((audio: HTMLAudioElement) => audio.play());
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.readyState)).toBeGreaterThanOrEqual(2);
  const duration = await player.evaluate((audio: HTMLAudioElement) => audio.duration);
  expect(Math.abs(duration - seconds)).toBeLessThan(1);
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeGreaterThan(0);
}

test.describe("a visitor on a phone", { tag: "@no-js" }, () => {
  test.use({ viewport: PHONE });

  test("picks a recording on the guest book and sends it; it waits for the family", async ({ page, javaScriptEnabled }) => {
    await page.goto("/guestbook");
    await hydrated(page);
    const form = voiceForm(page);
    const file = form.getByLabel("Your recording *");
    await expect(file).toHaveAttribute("accept", "audio/*");
    // Without JavaScript this opens the phone's recorder; with the page's own recorder, the phone's files.
    if (javaScriptEnabled) await expect(file).not.toHaveAttribute("capture");
    else await expect(file).toHaveAttribute("capture", "");
    await expect(form.getByText("Record a few words, a story or a song, up to 10 minutes.")).toBeVisible();
    await expect(form.getByLabel("I give permission to display this memory publicly")).toBeChecked();
    await file.setInputFiles(memo);
    await form.getByLabel("Name *").fill("Aunt May");
    await form.getByLabel("A line about it (Optional)").fill("For Jo, from the lake");
    const send = form.getByRole("button", { name: "Send Voice Memory" });
    const box = (await send.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    await send.click();
    await expectSentToast(page);
    await expect(page).toHaveURL(/\/guestbook$/);
    await expect.poll(() => latestUpload()?.type).toBe("AUDIO");
    expect(latestUpload()).toMatchObject({
      status: "PENDING",
      submittedBy: "Aunt May",
      originalName: path.basename(memo),
      caption: "For Jo, from the lake",
      canDisplay: true,
    });
    // Ready for the next person, and nothing shown to visitors before the family has listened.
    await expect(voiceForm(page).getByLabel("Name *")).toHaveValue("");
    await expect(voices(page).getByText("Aunt May")).toHaveCount(0);
    await expect(voices(page).getByText("No voice memories have been shared yet. Be the first to leave one.")).toBeVisible();
  });

  test("a refused form keeps what was typed, says what to change, and goes through once put right", async ({ page }) => {
    const withJs = test.info().project.use.javaScriptEnabled !== false;
    await page.goto("/guestbook");
    await hydrated(page);
    let form = voiceForm(page);
    await form.getByLabel("Your recording *").setInputFiles(memo);
    await form.getByLabel("Name *").fill("Aunt May");
    // An address the browser lets through and the site does not.
    await form.getByLabel("Email (Optional)").fill("may@home");
    await form.getByLabel("A line about it (Optional)").fill("Happy birthday, Jo");
    await form.getByLabel("I give permission to display this memory publicly").uncheck();
    await form.getByRole("button", { name: "Send Voice Memory" }).click();

    // Without JavaScript the answer is /voices; with it, the guest book, answered in place.
    await expect(page).toHaveURL(withJs ? /\/guestbook$/ : /\/voices$/);
    if (!withJs) await expect(page.getByRole("heading", { level: 1, name: "Leave a voice memory" })).toBeVisible();
    form = page.getByRole("region", { name: "Leave a voice memory" });
    const summary = page.getByRole("alert").filter({ hasText: "Please check:" });
    await expect(summary.getByRole("link", { name: "Email" })).toBeVisible();
    await expect(summary).toBeFocused();
    await expect(form.getByText("Valid email is required")).toBeVisible();
    await expect(form.getByLabel("Email (Optional)")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Name *")).toHaveValue("Aunt May");
    await expect(form.getByLabel("Email (Optional)")).toHaveValue("may@home");
    await expect(form.getByLabel("A line about it (Optional)")).toHaveValue("Happy birthday, Jo");
    await expect(form.getByLabel("I give permission to display this memory publicly")).not.toBeChecked();
    // A page sent back to the browser cannot hold the chosen file: the visitor is told.
    if (!withJs)
      await expect(form.getByText("Your recording was not kept. Please record or choose it again before sending.")).toBeVisible();
    expect(latestUpload()).toBeUndefined();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    await form.getByLabel("Email (Optional)").fill("may@example.com");
    if (!withJs) await form.getByLabel("Your recording *").setInputFiles(memo);
    await form.getByRole("button", { name: "Send Voice Memory" }).click();
    await expectSentToast(page);
    await expect(page).toHaveURL(/\/guestbook$/);
    await expect.poll(() => latestUpload()?.submittedBy).toBe("Aunt May (may@example.com)");
    expect(latestUpload()).toMatchObject({ caption: "Happy birthday, Jo", canDisplay: false });
    // The messages are gone with the sent form.
    await expect(page.getByText("Valid email is required")).toHaveCount(0);
  });

  test("sends from the share page, after the photos, and comes back there", async ({ page }) => {
    await page.goto("/share");
    await hydrated(page);
    const headings = await page.locator("main h2").allTextContents();
    expect(headings.at(-1)).toBe("Leave a voice memory");
    const form = voiceForm(page);
    await form.getByLabel("Your recording *").setInputFiles(memo);
    await form.getByLabel("Name *").fill("Cousin Ruth");
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await form.getByRole("button", { name: "Send Voice Memory" }).click();
    await expectSentToast(page);
    await expect(page).toHaveURL(/\/share$/);
    await expect.poll(() => latestUpload()?.submittedBy).toBe("Cousin Ruth");
  });

  test("has a page of its own, /voices", async ({ page }) => {
    await page.goto("/voices");
    await hydrated(page);
    await expect(page).toHaveTitle(/^Leave a voice memory \| /);
    await expect(page.getByRole("heading", { level: 1, name: "Leave a voice memory" })).toBeVisible();
    const form = voiceForm(page);
    await expect(form.getByLabel("Your recording *")).toBeVisible();
    await expect(page.getByRole("link", { name: "Listen to the voices in the guest book" })).toHaveAttribute("href", "/guestbook#voices");
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await form.getByLabel("Your recording *").setInputFiles(memo);
    await form.getByLabel("Name *").fill("Neighbour Sam");
    await form.getByRole("button", { name: "Send Voice Memory" }).click();
    await expectSentToast(page);
    await expect(page).toHaveURL(/\/voices$/);
  });

  test("a published voice plays on the guest book and on its own page; one kept for the family is heard nowhere", async ({ page }) => {
    const shared = await addUpload({ type: "AUDIO", sender: "Ann", email: null, caption: "For Jo, from the lake", status: "APPROVED" });
    const kept = await addUpload({ type: "AUDIO", sender: "Ben", caption: "Only for the family", canDisplay: false, status: "APPROVED" });
    await addUpload({ type: "AUDIO", sender: "Cat", caption: "Still waiting" });
    // A name and a line with no place to break them still fit the phone.
    await addUpload({ type: "AUDIO", sender: "W".repeat(100), email: null, caption: "x".repeat(300), status: "APPROVED" });

    await page.goto("/guestbook#voices");
    await hydrated(page);
    const headings = await page.locator("main h2").allTextContents();
    expect(headings).toEqual(["Write a Message", "Leave a voice memory", "Light a candle", "Voices", "Shared Memories"]);
    const list = voices(page);
    const ann = list.getByRole("listitem").filter({ hasText: "For Jo, from the lake" });
    await expect(ann.getByText("Ann", { exact: true })).toBeVisible();
    await expect(ann.getByText("0:10", { exact: true })).toBeVisible();
    await expect(list.getByRole("listitem")).toHaveCount(2);
    for (const hidden of ["Ben", "Only for the family", "Cat", "Still waiting"]) await expect(page.getByText(hidden)).toHaveCount(0);
    const player = list.locator('audio[aria-label="Voice memory from Ann, 0:10"]');
    await expect(player).toHaveAttribute("preload", "none");
    await expect(player).toHaveAttribute("controls", "");
    const box = (await player.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await expectPlays(player, 10);

    await page.goto(`/voices/${shared}`);
    await hydrated(page);
    await expect(page).toHaveTitle(/^Voice memory from Ann \| /);
    await expect(page.getByRole("heading", { level: 1, name: "Voice memory from Ann" })).toBeVisible();
    await expect(page.getByText("For Jo, from the lake")).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the guest book" })).toHaveAttribute("href", "/guestbook#voices");
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await expectPlays(page.locator('audio[aria-label="Voice memory from Ann, 0:10"]'), 10);

    const notShown = await page.goto(`/voices/${kept}`);
    expect(notShown?.status()).toBe(404);
    await expect(page.getByText("Only for the family")).toHaveCount(0);
  });
});
