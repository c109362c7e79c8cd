// The admin panel on a phone, JavaScript on and off (both projects run every
// test unless it says otherwise): what the family reads and where the page
// opens.
import { type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { memories, uploads } from "../../db/schema";
import { content } from "~/content";
import { db } from "~/platform/db.server";
import { formatBytes } from "~/utils/bytes";
import { formatDateTime } from "~/utils/time";
import { ADMIN } from "./support/admin";
import { addMemory, addUpload, removeAllMemories, removeAllUploads, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

const upload = (id: number) => db.select().from(uploads).where(eq(uploads.id, id)).get();
const memory = (id: number) => db.select().from(memories).where(eq(memories.id, id)).get();
/** The question before a delete: an alertdialog, with JavaScript or without. */
const question = (page: Page, name: string) => page.getByRole("alertdialog", { name });

test.beforeEach(() => removeAllUploads());

/** Four photos waiting, so the last card is far down a phone's page; returns the last one's id. */
async function fourPhotos(status: "PENDING" | "APPROVED") {
  let last = 0;
  for (const name of ["first.jpg", "second.jpg", "third.jpg", "fourth.jpg"]) last = await addUpload({ name, status });
  return last;
}

for (const width of [320, 414]) {
  test.describe(`at ${width} px`, { tag: width === 320 ? "@no-js" : [] }, () => {
    test.use({ viewport: { width, height: 640 } });

    test("Delete on a pending photo's card opens with its question in view", async ({ page, login }) => {
      const id = await fourPhotos("PENDING");
      await login(page, "/admin/uploads");
      const card = page.getByRole("listitem").filter({ hasText: "fourth.jpg" });
      await card.getByRole("button", { name: "Delete" }).click();
      const ask = question(page, "Delete this upload permanently?");
      await expect(ask.getByRole("heading", { name: "Delete this upload permanently?" })).toBeInViewport();
      await expect(ask.getByRole("button", { name: "Yes, delete it" })).toBeInViewport();
      expect(upload(id)?.status).toBe("PENDING");
    });

    test("Delete Permanently in a photo's preview opens with its question in view", async ({ page, login }) => {
      const id = await fourPhotos("PENDING");
      await login(page, `/admin/uploads/${id}`);
      await page.getByRole("button", { name: "Delete Permanently" }).click();
      const ask = question(page, "Delete this upload permanently?");
      await expect(ask.getByRole("heading", { name: "Delete this upload permanently?" })).toBeInViewport();
      await expect(ask.getByRole("button", { name: "Yes, delete it" })).toBeInViewport();
      expect(upload(id)?.status).toBe("PENDING");
    });

    test("Delete on a published photo opens with its question in view", async ({ page, login }) => {
      const id = await fourPhotos("APPROVED");
      await login(page, "/admin/published/uploads");
      await page.getByRole("link", { name: "Delete the photo first.jpg" }).click();
      const ask = question(page, "Delete this photo?");
      await expect(ask.getByRole("heading", { name: "Delete this photo?" })).toBeInViewport();
      await expect(ask.getByRole("button", { name: "Delete" })).toBeInViewport();
      expect(upload(id)).toBeDefined();
    });
  });
}

test.describe("the Published tab on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("a hidden memory and photo say when they were unpublished and by whom, apart from when they were sent", async ({ page, login }) => {
    removeAllMemories();
    resetSiteSettings();
    const id = addMemory({ name: "Aunt May", message: "She kept the garden full of roses.", status: "APPROVED" });
    const sent = new Date("2025-08-31T23:05:00Z");
    db.update(memories).set({ createdAt: sent }).where(eq(memories.id, id)).run();
    const photo = await addUpload({ name: "lake.jpg", status: "APPROVED" });
    const when = (date: Date | null | undefined) => formatDateTime(date!, content.timeZone);

    await login(page, "/admin/published/memories");
    const card = page.getByRole("listitem").filter({ hasText: "Aunt May" });
    await expect(card).toContainText(`Submitted ${when(sent)}`);
    await card.getByRole("button", { name: "Unpublish the memory from Aunt May" }).click();
    await expect(card).toContainText("Hidden from visitors");
    const hiddenAt = memory(id)?.moderatedAt;
    expect(hiddenAt!.getTime()).toBeGreaterThan(sent.getTime());
    await expect(card).toContainText(`Unpublished by ${ADMIN.username} on ${when(hiddenAt)}`);
    await expect(card).toContainText(`Submitted ${when(sent)}`);

    await page.goto("/admin/published/uploads");
    const tile = page.getByRole("listitem").filter({ hasText: "lake.jpg" });
    await expect(tile).not.toContainText("Unpublished");
    await tile.getByRole("button", { name: "Unpublish the photo lake.jpg" }).click();
    await expect(tile).toContainText("Hidden from visitors");
    await expect(tile).toContainText(`Unpublished by ${ADMIN.username} on ${when(upload(photo)?.moderatedAt)}`);
  });
});

for (const width of [320, 414]) {
  test(`at ${width} px the tabs read "Pending Memories (1)", "Pending Uploads (0)", "Attendance (n)", on one line each`, async ({
    page,
    login,
  }) => {
    removeAllMemories();
    addMemory({ name: "Cousin Ellen" });
    await page.setViewportSize({ width, height: 740 });
    await login(page);
    const tabs = page.getByRole("navigation", { name: "Admin sections" }).getByRole("link");
    await expect(tabs.first()).toHaveAccessibleName("Pending Memories (1)");
    await expect(tabs.nth(1)).toHaveAccessibleName("Pending Uploads (0)");
    // What the eye reads (innerText follows the layout): the count in parentheses, after a space, on the label's line.
    const shown = await tabs.allInnerTexts();
    expect(shown.slice(0, 2)).toEqual(["Pending Memories (1)", "Pending Uploads (0)"]);
    expect(shown[3]).toMatch(/^Attendance \(\d+\)$/);
  });
}

test.describe("Pending Uploads on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test(
    "each card and preview shows the size of the file as it was sent, for photos and videos",
    { tag: "@no-js" },
    async ({ page, login }) => {
      const photo = await addUpload({ name: "garden.jpg", width: 1600 });
      const video = await addUpload({ name: "birthday.mp4", type: "VIDEO" });
      const size = (id: number) => formatBytes(upload(id)!.sizeBytes!);
      expect(size(photo)).toMatch(/^\d+(\.\d)? KB$/);
      expect(size(video)).toMatch(/^\d+(\.\d)? (KB|MB)$/);
      await login(page, "/admin/uploads");
      for (const [id, name] of [
        [photo, "garden.jpg"],
        [video, "birthday.mp4"],
      ] as const) {
        await expect(page.getByRole("listitem").filter({ hasText: name })).toContainText(`File size: ${size(id)}`);
      }
      await page.goto(`/admin/uploads/${video}`);
      const details = page.getByRole(test.info().project.use.javaScriptEnabled === false ? "region" : "dialog", { name: "birthday.mp4" });
      await expect(details.getByRole("definition").filter({ hasText: size(video) })).toBeVisible();
      await expect(details).toContainText(`File size${size(video)}`);
    },
  );
});

test("no tab of the panel shows the family a path from the site's code (docs/…, app/…, a .md file)", async ({ page, login }) => {
  await login(page);
  const tabs = await page
    .getByRole("navigation", { name: "Admin sections" })
    .getByRole("link")
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).pathname));
  expect(tabs.length).toBeGreaterThanOrEqual(9);
  for (const tab of [...tabs, "/admin/admins", "/admin/published/uploads"]) {
    await page.goto(tab);
    const text = await page.locator("body").innerText();
    expect(text, tab).not.toMatch(/\b(docs|app|scripts|server|tests)\/[\w./-]+|\b[\w-]+\.md\b/);
  }
});

test.describe("the Print tab's hint", { tag: "@no-js" }, () => {
  test("a phone without JavaScript is told where Print is in its browser, not about keys it does not have", async ({
    browser,
    baseURL,
    javaScriptEnabled,
    login,
  }) => {
    test.skip(javaScriptEnabled, "with JavaScript the Print button prints, and no hint is shown");
    const phone = await browser.newContext({
      baseURL,
      javaScriptEnabled: false,
      viewport: { width: 375, height: 740 },
      hasTouch: true,
      isMobile: true,
    });
    const computer = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    try {
      for (const [context, shown, hidden] of [
        [phone, /choose Print in your browser's menu/, /Ctrl\+P/],
        [computer, /Ctrl\+P, or ⌘P on a Mac/, /choose Print in your browser's menu/],
      ] as const) {
        const page = await context.newPage();
        await login(page, "/admin/print");
        await expect(page.getByText(shown)).toBeVisible();
        await expect(page.getByText(hidden)).toBeHidden();
      }
    } finally {
      await phone.close();
      await computer.close();
    }
  });

  test("with JavaScript, the Print button is there instead of the hint", async ({ page, javaScriptEnabled, login }) => {
    test.skip(!javaScriptEnabled, "the button needs JavaScript");
    await page.setViewportSize({ width: 375, height: 740 });
    await login(page, "/admin/print");
    await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
    for (const hint of [/Ctrl\+P/, /choose Print in your browser's menu/]) await expect(page.getByText(hint)).toBeHidden();
  });
});
