// The memory book from the Exports tab, with and without JavaScript: the PDF
// the browser saves, one page of it rendered to a PNG in test-results/ for
// the team to look at.
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import {
  addMemory,
  addPoem,
  addUpload,
  publishLifeStory,
  removeAllMemories,
  removeAllPoems,
  removeAllUploads,
  removeLifeStory,
} from "./support/data";
import { expect, test } from "./support/fixtures";

test.beforeEach(async () => {
  removeAllMemories();
  removeAllUploads();
  removeAllPoems();
  addMemory({ name: "Zoë Ångström", message: "She sang in the kitchen every morning.", status: "APPROVED" });
  addMemory({ name: "Анна Петрова", message: "Она всегда пекла пироги по воскресеньям.", status: "APPROVED" });
  addMemory({ name: "王小明", message: "她教会了我写毛笔字。", status: "APPROVED" });
  addMemory({ name: "Not Yet", message: "Still waiting for the family", status: "PENDING" });
  addPoem({ title: "Afterglow", content: "Line one\nLine two" });
  const photoId = await addUpload({ status: "APPROVED", width: 1600, sender: "Ann Lee" });
  publishLifeStory(
    "Margaret grew up above her father's bakery in Cork, the eldest of five.\n\n## Work\n\nShe taught music for thirty-one years.\n- Piano\n- The school choir",
    [
      { date: "1942-03-14", title: "Born in Cork" },
      { date: "1964-06-20", title: "Married Tom in Galway", text: "A wet June day, and she laughed through all of it.", photoId },
      { date: "1971", title: "First pupils", text: "Eleven of them, in the front room." },
    ],
  );
});
test.afterEach(() => removeLifeStory());

test(
  "the Exports tab makes the memory book in the size chosen, and the browser saves it",
  { tag: "@no-js" },
  async ({ page, login }, info) => {
    await login(page);
    await page.goto("/admin/exports");
    await hydrated(page);
    const book = page.getByRole("region", { name: "Memory book (PDF)" });
    await expect(book.getByRole("radio", { name: "A4" })).toBeChecked();
    // Before it is made: about how long, for what.
    await expect(book.getByText(/^(Less than a minute|About \d+ minutes?) for 3 memories, 1 poem and 1 photo\.$/)).toBeVisible();
    await book.getByRole("radio", { name: /6 × 9 in book/ }).check();
    await expectNoAxeViolations(page);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      book.getByRole("button", { name: "Make the memory book" }).click(),
    ]);
    if (info.project.use.javaScriptEnabled !== false) await expect(book.getByRole("status")).toContainText("Making the book");
    expect(download.suggestedFilename()).toMatch(/^memory-book-\d{4}-\d{2}-\d{2}-trim\.pdf$/);
    const file = (await download.path())!;
    const pdf = await fs.readFile(file);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    for (const words of ["Zoë Ångström", "Анна Петрова", "王小明", "Afterglow", "Shared by Ann Lee", "Life Story", "Married Tom in Galway"])
      expect(text).toContain(words);
    expect(text).not.toContain("Not Yet");

    // Pages to look at: the cover, the life story's chapter and the guest book's first page.
    const project = info.project.name;
    for (const pageNumber of [1, 3, 4]) {
      const prefix = path.resolve("test-results", `memory-book-${project}-page-${pageNumber}`);
      execFileSync("pdftoppm", ["-r", "80", "-f", String(pageNumber), "-l", String(pageNumber), "-png", "-singlefile", file, prefix]);
      const png = await fs.readFile(`${prefix}.png`);
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      await info.attach(`page ${pageNumber}`, { path: `${prefix}.png`, contentType: "image/png" });
    }
  },
);

test("the memory book is for the admin alone, and a size it does not know is a clear 400", async ({ page, request, login }) => {
  const anonymous = await request.get("/admin/exports/book.pdf?size=a4", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  expect(anonymous.headers().location).toMatch(/^\/admin\/login\?redirectTo=/);
  expect((await request.get("/admin/exports/book.json")).status()).toBe(401);
  await login(page);
  const wrong = await page.request.get("/admin/exports/book.pdf?size=a3");
  expect(wrong.status()).toBe(400);
  expect(await wrong.json()).toEqual({ errors: { size: ["Choose A4, US Letter or 6 × 9 in book."] } });
  expect(await (await page.request.get("/admin/exports/book.json")).json()).toEqual({ making: null });
});
