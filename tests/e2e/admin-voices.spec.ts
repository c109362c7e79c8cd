// The family moderates voice memories as they do photos and videos, on a
// phone and on a laptop, with JavaScript and without: each waiting voice has
// its player, its sender, its length and its line; Publish and Delete work
// as for photos, a helper's Delete sets it aside for the family, the preview
// plays it, and the reception slideshow shows a published voice as a card
// (never one kept for the family). Voices go through the real pipeline.
import { createReadStream, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Locator, type Page } from "@playwright/test";
import { eq, ne } from "drizzle-orm";
import { adminUsers, signedUploads, uploads } from "../../db/schema";
import { createAdmin } from "~/admins/admin.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { ADMIN, hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { storeFormUpload } from "~/uploads/upload-form.server";
import { addUpload, finishProcessing, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";
import { makeVoiceFile } from "../support/voice-fixtures";

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
const FAMILY_ONLY = "Shared with the family only: published, it is kept for the family and not shown to visitors.";

const javaScript = () => test.info().project.use.javaScriptEnabled !== false;
const toast = (page: Page) => page.getByTestId("toast");
const stored = (id: number) => db.select().from(uploads).where(eq(uploads.id, id)).get();
/** A route shown as a dialog: modal with JavaScript, a region of the page without it. */
const detailView = (page: Page, name: string) => page.getByRole(javaScript() ? "dialog" : "region", { name });
/** A card of the Pending Uploads or Published list, by the voice's name ("Voice memory from Ann Lee, 0:10"). */
const card = (page: Page, title: string) => page.getByRole("listitem").filter({ hasText: title });
const player = (scope: Locator | Page, title: string) => scope.locator(`audio[aria-label="${title}"]`);

/** Whether the browser reads the voice's copy in `scope`: its length known once the metadata has loaded. */
async function expectPlayable(page: Page, scope: Locator | Page, title: string) {
  const audio = player(scope, title);
  await expect(audio).toHaveAttribute("preload", "none");
  await expect(audio).toHaveAttribute("controls", "");
  const src = (await audio.getAttribute("src"))!;
  expect(src).toMatch(/^\/media\/\d+\/[\w-]+-voice\.m4a$/);
  const response = await page.request.get(src, { headers: { Range: "bytes=0-99" } });
  expect([response.status(), response.headers()["content-type"]]).toEqual([206, "audio/mp4"]);
  if (!javaScript()) return;
  await audio.evaluate((element: HTMLAudioElement) => {
    element.preload = "metadata";
    element.load();
  });
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.readyState)).toBeGreaterThanOrEqual(1);
  expect(await audio.evaluate((element: HTMLAudioElement) => Math.round(element.duration))).toBe(10);
}

/**
 * This worker's own recording (ten seconds), made once: a file every worker
 * writes again at the same path could be read half-written by another.
 */
let recording: string;
test.beforeAll(() => {
  recording = makeVoiceFile(path.join(tmpdir(), `admin-voices-${process.pid}`), "m4a");
});
/** A voice shared as the voice form shares it, processed, then moderated to `status`. */
const addVoice = (input: Omit<Parameters<typeof addUpload>[0] & object, "type" | "file">) =>
  addUpload({ ...input, type: "AUDIO", file: recording });

/**
 * A voice stored as it was sent, its copy not yet made (as while it waits its
 * turn in the queue): `finishProcessing` makes it.
 */
async function addWaitingVoice(sender: string) {
  const key = await storeFormUpload({ stream: createReadStream(recording), filename: "recording.m4a" });
  db.delete(signedUploads).where(eq(signedUploads.key, key)).run();
  const [row] = db
    .insert(uploads)
    .values({
      type: "AUDIO",
      originalName: "recording.m4a",
      url: "",
      storageKey: key,
      mimeType: "audio/mp4",
      sizeBytes: statSync(recording).size,
      submittedBy: sender,
      caption: "Read this while it is prepared",
    })
    .returning()
    .all();
  return row!.id;
}

test.beforeEach(() => removeAllUploads());
test.afterEach(() => {
  db.delete(adminUsers).where(ne(adminUsers.username, ADMIN.username)).run();
});

for (const [device, viewport] of [
  ["a phone", PHONE],
  ["a laptop", LAPTOP],
] as const) {
  test.describe(`on ${device}`, { tag: "@no-js" }, () => {
    test.use({ viewport });

    test("the family hears each waiting voice, reads its line, publishes one and deletes another", async ({ page, login }) => {
      const ann = await addVoice({ sender: "Ann Lee", caption: "Happy birthday, Mum. I miss your laugh." });
      const ben = await addVoice({ sender: "Ben Ortiz", email: null, canDisplay: false });
      await login(page);
      await page.getByRole("link", { name: "Pending Uploads (2)" }).click();

      const annCard = card(page, "Voice memory from Ann Lee, 0:10");
      await expect(annCard.getByText("AUDIO", { exact: true })).toBeVisible();
      await expect(annCard).toContainText("Ann Lee (visitor@example.com)");
      await expect(annCard.getByText("“Happy birthday, Mum. I miss your laugh.”")).toBeVisible();
      await expect(annCard.getByText(FAMILY_ONLY)).toHaveCount(0);
      await expect(player(annCard, "Voice memory from Ann Lee, 0:10")).toBeVisible();
      const benCard = card(page, "Voice memory from Ben Ortiz, 0:10");
      await expect(benCard).toContainText("Ben Ortiz");
      await expect(benCard.getByText(FAMILY_ONLY)).toBeVisible();
      // No picture to turn, and no box wider than the screen.
      await expect(page.getByRole("button", { name: /Rotate/ })).toHaveCount(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectPlayable(page, annCard, "Voice memory from Ann Lee, 0:10");
      await expectNoAxeViolations(page);

      await annCard.getByRole("button", { name: "Publish" }).click();
      await expect(toast(page)).toContainText("The voice memory from Ann Lee is now on the guest book.");
      await expect(card(page, "Voice memory from Ann Lee")).toHaveCount(0);
      expect(stored(ann)?.status).toBe("APPROVED");

      await card(page, "Voice memory from Ben Ortiz").getByRole("button", { name: "Delete" }).click();
      const question = page.getByRole("alertdialog", { name: "Delete this upload permanently?" });
      await expect(question).toContainText("The voice memory from Ben Ortiz will be deleted with all its files. This cannot be undone.");
      expect(stored(ben)?.status).toBe("PENDING");
      await question.getByRole("button", { name: "Yes, delete it" }).click();
      await expect(toast(page)).toContainText("The voice memory from Ben Ortiz was deleted permanently.");
      await expect(page.getByText("No pending uploads to review.")).toBeVisible();
      expect(stored(ben)).toMatchObject({ status: "REJECTED", storageKey: null, displayKey: null });
    });
  });
}

test.describe("a voice's own pages", { tag: "@no-js" }, () => {
  test.use({ viewport: PHONE });

  test("the preview plays it, gives its length, line and permission, and publishes it for the family alone", async ({ page, login }) => {
    const id = await addVoice({ sender: "Grandpa Ted", email: null, caption: "The fishing song", canDisplay: false });
    await login(page, "/admin/uploads");
    await card(page, "Voice memory from Grandpa Ted, 0:10").getByRole("link", { name: "Voice memory from Grandpa Ted, 0:10" }).click();
    const preview = detailView(page, "Voice memory from Grandpa Ted, 0:10");
    await expect(preview).toContainText("Ready to publish.");
    await expect(preview.getByText(FAMILY_ONLY)).toBeVisible();
    for (const [term, value] of [
      ["Type", "AUDIO"],
      ["Format", "M4A"],
      ["Length", "0:10"],
      ["A line about it", "The fishing song"],
      ["Can be shown to visitors", "No: shared with the family only"],
      ["Sent by", "Grandpa Ted"],
    ] as const) {
      await expect(preview.locator("dt", { hasText: term }).locator("+ dd")).toHaveText(value);
    }
    await expect(preview.getByRole("link", { name: "Download the original (M4A)" })).toHaveAttribute("href", /^\/media\/\d+\/[\w-]+\.m4a$/);
    await expect(preview.getByRole("button", { name: /Rotate/ })).toHaveCount(0);
    await expectPlayable(page, preview, "Voice memory from Grandpa Ted, 0:10");
    await expectNoAxeViolations(page);

    await preview.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(toast(page)).toContainText("The voice memory from Grandpa Ted is now kept for the family, and no visitor hears it.");
    expect(stored(id)?.status).toBe("APPROVED");
    // Kept for the family: its copy is not for visitors.
    const stranger = await page.context().browser()!.newContext();
    const src = stored(id)!.url;
    expect((await stranger.request.get(new URL(src, page.url()).href)).status()).toBe(404);
    await stranger.close();

    // In the Published tab: its player and its note; unpublished and published again in its own words.
    await page.goto("/admin/published/uploads");
    await hydrated(page);
    const published = card(page, "Voice memory from Grandpa Ted, 0:10");
    await expect(player(published, "Voice memory from Grandpa Ted, 0:10")).toBeVisible();
    await expect(published.getByText(FAMILY_ONLY)).toBeVisible();
    await expect(published.getByText("“The fishing song”")).toBeVisible();
    await expectNoAxeViolations(page);
    await published.getByRole("button", { name: "Unpublish the voice memory from Grandpa Ted" }).click();
    await expect(toast(page)).toContainText("This voice memory is unpublished. It is kept here, and you can publish it again.");
    expect(stored(id)?.status).toBe("HIDDEN");
    await card(page, "Voice memory from Grandpa Ted").getByRole("link", { name: "Delete the voice memory from Grandpa Ted" }).click();
    const question = page.getByRole("alertdialog", { name: "Delete this voice memory?" });
    await expect(question).toContainText(
      "The voice memory from Grandpa Ted will be deleted for good with all its files: it leaves the keepsake.",
    );
    await expectNoAxeViolations(page);
    await question.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page)).toContainText("The voice memory and all its files have been deleted.");
    expect(stored(id)).toBeUndefined();
  });

  test("a helper's Delete sets a voice aside; the family hears it there, reads its line and publishes it", async ({
    page,
    browser,
    baseURL,
    login,
  }) => {
    const helper = `helen-${javaScript() ? "js" : "nojs"}`;
    await createAdmin({ username: helper, password: "helpers-password", role: "helper" }, operator());
    const id = await addVoice({ sender: "Ann Lee", caption: "For the grandchildren" });

    const phone = await browser.newContext({ javaScriptEnabled: javaScript(), baseURL, viewport: PHONE });
    try {
      const helperPage = await phone.newPage();
      await login(helperPage, "/admin/uploads", helper);
      const waiting = card(helperPage, "Voice memory from Ann Lee, 0:10");
      // Her copy names the sender, never the address.
      await expect(waiting).toContainText("Ann Lee");
      await expect(waiting).not.toContainText("visitor@example.com");
      await expect(player(waiting, "Voice memory from Ann Lee, 0:10")).toBeVisible();
      await expectNoAxeViolations(helperPage);
      await waiting.getByRole("button", { name: "Set aside" }).click();
      const question = helperPage.getByRole("alertdialog", { name: "Set this upload aside?" });
      await expect(question).toContainText("The voice memory from Ann Lee will not be published.");
      await question.getByRole("button", { name: "Yes, set it aside" }).click();
      await expect(toast(helperPage)).toContainText("The voice memory from Ann Lee was set aside with its files");
    } finally {
      await phone.close();
    }
    expect(stored(id)).toMatchObject({ status: "REJECTED", setAside: true, moderatedBy: helper });

    await login(page, "/admin/set-aside");
    const summary = page.getByText(new RegExp(`^A voice memory from Ann Lee, set aside by ${helper} on \\w+ \\d{1,2}, \\d{4}$`));
    await expect(summary).toBeVisible();
    await summary.click();
    await expect(page.getByText("“For the grandchildren”")).toBeVisible();
    await expect(player(page, "Voice memory from Ann Lee, 0:10")).toBeVisible();
    await expectPlayable(page, page, "Voice memory from Ann Lee, 0:10");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(toast(page)).toContainText("The voice memory from Ann Lee is now on the guest book.");
    await expect(page.getByText("Nothing is set aside.")).toBeVisible();
    expect(stored(id)).toMatchObject({ status: "APPROVED", setAside: false });
  });
});

test.describe("a voice being prepared", { tag: "@no-js" }, () => {
  test.use({ viewport: PHONE });

  test("says so, offers the recording as it was sent, and can be published once its copy is ready", async ({ page, login }) => {
    const id = await addWaitingVoice("Rosa Diaz");
    if (javaScript()) await page.clock.install();
    await login(page, "/admin/uploads");
    const waiting = card(page, "Voice memory from Rosa Diaz");
    await expect(waiting.getByRole("status")).toHaveText("Waiting to be prepared: this voice memory can be published once it is ready.");
    await expect(waiting.locator("audio")).toHaveCount(0);
    await expect(waiting.getByText("“Read this while it is prepared”")).toBeVisible();
    const original = waiting.getByRole("link", { name: "Download the recording as it was sent" });
    const response = await page.request.get((await original.getAttribute("href"))!);
    expect([response.status(), response.headers()["content-type"]]).toEqual([200, "audio/mp4"]);
    await expect(waiting.getByRole("button", { name: "Publish" })).toHaveCount(0);
    await expectNoAxeViolations(page);

    await finishProcessing(id);
    if (javaScript()) await page.clock.runFor(5000);
    else await page.getByRole("link", { name: "Check again" }).click();
    const ready = card(page, "Voice memory from Rosa Diaz, 0:10");
    await expect(ready.getByRole("status")).toHaveText("Ready to publish.");
    await expect(player(ready, "Voice memory from Rosa Diaz, 0:10")).toBeVisible();
    await ready.getByRole("button", { name: "Publish" }).click();
    await expect(toast(page)).toContainText("The voice memory from Rosa Diaz is now on the guest book.");
    expect(stored(id)?.status).toBe("APPROVED");
  });
});

test.describe("the reception slideshow", { tag: "@no-js" }, () => {
  test.use({ viewport: LAPTOP });

  test("shows a published voice as a card with its sender and line, the usual photo time, never one kept for the family", async ({
    page,
  }) => {
    await addUpload({ status: "APPROVED", sender: "Alma Reyes" });
    await addVoice({ status: "APPROVED", sender: "Kept Private", canDisplay: false, caption: "Only for the family" });
    await addVoice({ status: "PENDING", sender: "Pendleton Gray" });
    await addVoice({ status: "APPROVED", sender: "Ann Lee", caption: "Sing it loud, for her" });
    // Without JavaScript each page refreshes itself to the next: the slowest pace, so it never races the test.
    // With it, on Playwright's clock, stopped once the page has its first list from the server.
    if (javaScript()) {
      await page.clock.install();
      const firstList = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/slideshow");
      await page.goto("/slideshow");
      await hydrated(page);
      await firstList;
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    } else {
      await page.goto("/slideshow?every=120");
    }

    const slide = page.getByRole("group", { name: / of \d+$/ });
    const voiceCard = slide.getByText("A voice memory from Ann Lee", { exact: true });
    await expect(slide).toHaveAccessibleName("1 of 2");
    await expect(voiceCard).toBeVisible();
    await expect(slide.getByText("“Sing it loud, for her”")).toBeVisible();
    // The room hears nothing, and the card says who it is from.
    await expect(page.locator("audio, video")).toHaveCount(0);
    await expect(page.getByText("Shared by Ann Lee")).toHaveCount(0);
    expect(await page.content()).not.toMatch(/Kept Private|Only for the family|Pendleton/);
    const box = (await voiceCard.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= LAPTOP.width && box.y >= 0 && box.y + box.height <= LAPTOP.height).toBe(true);

    if (javaScript()) {
      // As long as a photo (8 s), then the next.
      await page.clock.runFor(6_000);
      await expect(voiceCard).toBeVisible();
      await page.clock.runFor(2_000);
      await expect(page.getByRole("img", { name: "Photo shared by Alma Reyes" })).toBeVisible();
      // Back to the voice, paused there while axe looks (axe waits on timers of its own).
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("Space");
      await expect(page.getByRole("status")).toHaveText("Slideshow paused");
      await expect(voiceCard).toBeVisible();
      await page.clock.resume();
      await expectNoAxeViolations(page);
    } else {
      await expectNoAxeViolations(page);
      await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "120;url=/slideshow?at=1&every=120");
      await page.goto("/slideshow?at=1&every=120");
      await expect(page.getByRole("img", { name: "Photo shared by Alma Reyes" })).toBeVisible();
      await expect(page.getByText("A voice memory from Ann Lee")).toHaveCount(0);
    }
  });
});
