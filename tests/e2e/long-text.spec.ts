import { type Page } from "@playwright/test";
import { db } from "~/platform/db.server";
import { rsvps } from "../../db/schema";
import { createRsvp } from "~/attendance/rsvp.server";
import { addMemory, addPoem, addUpload, removeAllMemories, removeAllPoems, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

// What visitors type can be one long word with no space in it (a name, a
// pasted link, a file name). It must wrap: no page may scroll sideways on
// the narrowest phones.
const LONG = "Bartholomew".repeat(9);

async function expectNoSidewaysScroll(page: Page, url: string) {
  await page.goto(url);
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${url} is ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
}

test.describe("long unbroken words at 320 px", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test.beforeAll(async () => {
    removeAllMemories();
    removeAllPoems();
    removeAllUploads();
    db.delete(rsvps).run();
    addMemory({ name: LONG, message: `${LONG}${LONG}`, status: "APPROVED" });
    addMemory({ name: LONG, message: `Waiting for review: ${LONG}`, email: `${LONG}@example.com` });
    addPoem({ title: LONG, author: LONG, content: `${LONG}\n${LONG}` });
    await addUpload({ status: "APPROVED", name: `${LONG}.jpg` });
    await addUpload({ status: "APPROVED", type: "VIDEO", name: `${LONG}.mp4` });
    createRsvp({ name: LONG, email: `${LONG}@example.com`, guestCount: 2, notes: LONG });
  });

  for (const url of ["/", "/guestbook", "/gallery", "/poems", "/share", "/rsvp", "/admin", "/not-a-page"]) {
    test(`${url} does not scroll sideways`, async ({ page }) => {
      await expectNoSidewaysScroll(page, url);
    });
  }
});
