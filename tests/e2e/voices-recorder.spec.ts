import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Page } from "@playwright/test";
import { makeVoiceFile } from "../support/voice-fixtures";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { latestUpload, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

// The voice form's in-page recorder (with JavaScript), on a phone, with
// Chromium's fake microphone (a steady beep, allowed without asking):
// Record, Stop, Listen, Record again, Send; the ten-minute limit on a fake
// clock; a refused microphone and a browser without MediaRecorder.

test.use({
  viewport: { width: 320, height: 740 },
  launchOptions: async ({ launchOptions }, use) => {
    await use({
      ...launchOptions,
      args: [...(launchOptions.args ?? []), "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
    });
  },
});

let work: string;
let memo: string;
test.beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "memorial-recorder-e2e-"));
  memo = makeVoiceFile(work, "m4a", { seconds: 4 });
});
test.afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
test.beforeEach(() => removeAllUploads());

const voiceForm = (page: Page) => page.getByRole("region", { name: "Leave a voice memory" });

async function expectSentToast(page: Page) {
  await expect(page.getByTestId("toast")).toContainText("Voice Memory Submitted");
  await expect(page.getByTestId("toast")).toContainText("Thank you for sharing your voice. It will be reviewed before being published.");
}

test.describe("the in-page recorder", () => {
  test("records, listens, records again and sends, then is ready for the next voice", async ({ page }) => {
    await page.goto("/guestbook");
    await hydrated(page);
    const form = voiceForm(page);
    const record = form.getByRole("button", { name: "Record", exact: true });
    await expect(record).toBeVisible();
    // The phone's own recordings can still be chosen, below: from its files, not its recorder (no `capture`).
    await expect(form.getByLabel("Your recording *")).toBeVisible();
    await expect(form.getByLabel("Your recording *")).not.toHaveAttribute("capture");
    await expect(form.getByText("Press Record to record here, or choose a recording you have already made.")).toBeVisible();
    await expectNoAxeViolations(page);

    await record.click();
    const stop = form.getByRole("button", { name: "Stop" });
    await expect(stop).toBeFocused();
    // Said once, for a screen reader; the clock is not announced.
    await expect(form.getByRole("status")).toHaveText("Recording has started. Press Stop when you have finished.");
    await expect(form.getByRole("timer")).toHaveText(/^Recording… 0:0\d of 10:00$/);
    await expect(form.getByRole("timer")).toHaveText("Recording… 0:02 of 10:00");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);
    await stop.click();

    const listen = form.getByRole("button", { name: "Listen" });
    await expect(listen).toBeFocused();
    await expect(form.getByRole("status")).toHaveText(/^Recorded 0:0[2-9]\. Listen to it, record again, or send it\.$/);
    await expect(stop).toBeHidden();
    const player = form.locator('audio[aria-label="Your recording"]');
    await expect(player).toBeVisible();
    await listen.click();
    await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeGreaterThan(0);

    await form.getByRole("button", { name: "Record again" }).click();
    await expect(form.getByRole("timer")).toHaveText("Recording… 0:03 of 10:00");
    await stop.click();
    await expect(listen).toBeVisible();

    await form.getByLabel("Name *").fill("Cousin Ruth");
    await form.getByLabel("A line about it (Optional)").fill("Sung for you");
    await form.getByRole("button", { name: "Send Voice Memory" }).click();
    await expectSentToast(page);
    await expect(page).toHaveURL(/\/guestbook$/);
    // A fresh form: nothing typed, nothing recorded, and the focus on Record, ready for the next voice.
    await expect(form.getByLabel("Name *")).toHaveValue("");
    await expect(record).toBeVisible();
    await expect(record).toBeFocused();
    await expect(listen).toBeHidden();
    await expect(player).toBeHidden();

    await expect.poll(() => latestUpload()?.caption).toBe("Sung for you");
    expect(latestUpload()).toMatchObject({ type: "AUDIO", submittedBy: "Cousin Ruth", originalName: "voice-memory.webm" });
    // What the page recorded is a voice the site can prepare: three seconds or so.
    await expect.poll(() => latestUpload()?.processedAt ?? null, { timeout: 60_000 }).not.toBeNull();
    expect(latestUpload()).toMatchObject({ processingError: null });
    expect(latestUpload()!.durationSec).toBeGreaterThanOrEqual(3);
  });

  test("pressing Send while recording finishes the recording and sends it", async ({ page }) => {
    await page.goto("/share");
    await hydrated(page);
    const form = voiceForm(page);
    await form.getByLabel("Name *").fill("Uncle Tom");
    await form.getByRole("button", { name: "Record", exact: true }).click();
    await expect(form.getByRole("timer")).toHaveText("Recording… 0:01 of 10:00");
    await form.getByRole("button", { name: "Send Voice Memory" }).click();
    await expectSentToast(page);
    await expect.poll(() => latestUpload()?.submittedBy).toBe("Uncle Tom");
  });

  test("stops by itself at ten minutes, keeping what was recorded", async ({ page }) => {
    // The page's clock is ours; the microphone's sound comes in real time: the test waits until some has.
    await page.addInitScript(() => {
      const Recorder = window.MediaRecorder;
      window.MediaRecorder = class extends Recorder {
        constructor(...args: ConstructorParameters<typeof MediaRecorder>) {
          super(...args);
          this.addEventListener("dataavailable", (event) => {
            if (event.data.size > 0) (window as { heard?: boolean }).heard = true;
          });
        }
      };
    });
    await page.clock.install();
    await page.goto("/voices");
    await hydrated(page);
    const form = voiceForm(page);
    await form.getByRole("button", { name: "Record", exact: true }).click();
    await expect(form.getByRole("timer")).toHaveText("Recording… 0:00 of 10:00");
    await expect.poll(() => page.evaluate(() => (window as { heard?: boolean }).heard === true)).toBe(true);
    // (The page's clock still runs on by itself between the steps: a few seconds at most.)
    await page.clock.fastForward("09:45");
    await expect(form.getByRole("timer")).toHaveText(/^Recording… 9:[45]\d of 10:00$/);
    await page.clock.fastForward("00:20");
    await expect(form.getByRole("status")).toHaveText("Recorded 10:00. Listen to it, record again, or send it.");
    await expect(form.getByRole("button", { name: "Stop" })).toBeHidden();
    await expect(form.getByRole("button", { name: "Listen" })).toBeVisible();
  });

  test("a microphone the visitor refuses: told so, and the file field instead", async ({ page }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
    });
    await page.goto("/guestbook");
    await hydrated(page);
    const form = voiceForm(page);
    await form.getByRole("button", { name: "Record", exact: true }).click();
    await expect(
      form.getByText("Your browser did not let this page use the microphone. You can choose a recording instead."),
    ).toBeVisible();
    await expect(form.getByRole("button", { name: "Record", exact: true })).toBeHidden();
    await expect(form.getByLabel("Your recording *")).toBeFocused();
    // The field opens the phone's recorder again, and the hint no longer speaks of a Record button.
    await expect(form.getByLabel("Your recording *")).toHaveAttribute("capture", "");
    await expect(form.getByText("Choose a recording, or record one now if your phone offers to.")).toBeVisible();
    await expectNoAxeViolations(page);
    await form.getByLabel("Your recording *").setInputFiles(memo);
    await form.getByLabel("Name *").fill("Aunt May");
    await form.getByRole("button", { name: "Send Voice Memory" }).click();
    await expectSentToast(page);
    await expect.poll(() => latestUpload()?.originalName).toBe(path.basename(memo));
  });

  test("a browser that cannot record keeps the form as it is without JavaScript", async ({ page }) => {
    await page.addInitScript(() => {
      delete (window as { MediaRecorder?: unknown }).MediaRecorder;
    });
    await page.goto("/guestbook");
    await hydrated(page);
    const form = voiceForm(page);
    await expect(form.getByLabel("Your recording *")).toBeVisible();
    await expect(form.getByLabel("Your recording *")).toHaveAttribute("required", "");
    // The phone's recorder is still what the field opens, and the hint says so.
    await expect(form.getByLabel("Your recording *")).toHaveAttribute("capture", "");
    await expect(form.getByText("Choose a recording, or record one now if your phone offers to.")).toBeVisible();
    await expect(form.getByRole("button", { name: "Record", exact: true })).toBeHidden();
    // Still sent in place, with its answer in the page.
    await form.getByLabel("Your recording *").setInputFiles(memo);
    await form.getByLabel("Name *").fill("Aunt May");
    await form.getByRole("button", { name: "Send Voice Memory" }).click();
    await expectSentToast(page);
  });
});
