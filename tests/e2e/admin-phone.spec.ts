// The admin panel on a phone, JavaScript on and off (both projects run every
// test): a Delete's question opens where the eye is, whichever of the three
// ways to delete a photo was used.
import { expect, test, type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { uploads } from "../../db/schema";
import { db } from "~/db.server";
import { logIn } from "./support/admin";
import { addUpload, removeAllUploads } from "./support/data";

const upload = (id: number) => db.select().from(uploads).where(eq(uploads.id, id)).get();
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
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 640 } });

    test("Delete on a pending photo's card opens with its question in view", async ({ page }) => {
      const id = await fourPhotos("PENDING");
      await logIn(page, "/admin/uploads");
      const card = page.getByRole("listitem").filter({ hasText: "fourth.jpg" });
      await card.getByRole("button", { name: "Delete" }).click();
      const ask = question(page, "Delete this upload permanently?");
      await expect(ask.getByRole("heading", { name: "Delete this upload permanently?" })).toBeInViewport();
      await expect(ask.getByRole("button", { name: "Yes, delete it" })).toBeInViewport();
      expect(upload(id)?.status).toBe("PENDING");
    });

    test("Delete Permanently in a photo's preview opens with its question in view", async ({ page }) => {
      const id = await fourPhotos("PENDING");
      await logIn(page, `/admin/uploads/${id}`);
      await page.getByRole("button", { name: "Delete Permanently" }).click();
      const ask = question(page, "Delete this upload permanently?");
      await expect(ask.getByRole("heading", { name: "Delete this upload permanently?" })).toBeInViewport();
      await expect(ask.getByRole("button", { name: "Yes, delete it" })).toBeInViewport();
      expect(upload(id)?.status).toBe("PENDING");
    });

    test("Delete on a published photo opens with its question in view", async ({ page }) => {
      const id = await fourPhotos("APPROVED");
      await logIn(page, "/admin/published/uploads");
      await page.getByRole("link", { name: "Delete the photo first.jpg" }).click();
      const ask = question(page, "Delete this photo?");
      await expect(ask.getByRole("heading", { name: "Delete this photo?" })).toBeInViewport();
      await expect(ask.getByRole("button", { name: "Delete" })).toBeInViewport();
      expect(upload(id)).toBeDefined();
    });
  });
}
