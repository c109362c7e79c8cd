// The family stays in charge after publishing: on a phone, with JavaScript
// and without, a published memory is unpublished, published again,
// corrected and deleted (after a question), a published photo unpublished
// and deleted, and a poem's Delete asks first too.
import { type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { memories, poems, uploads } from "../../db/schema";
import { db } from "~/platform/db.server";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { addMemory, addPoem, addUpload, removeAllMemories, removeAllPoems, removeAllUploads } from "./support/data";
import { expect, test } from "./support/fixtures";

const toast = (page: Page) => page.getByTestId("toast");
const memory = (id: number) => db.select().from(memories).where(eq(memories.id, id)).get();
const upload = (id: number) => db.select().from(uploads).where(eq(uploads.id, id)).get();
/** The question before a delete: an alertdialog, with JavaScript or without. */
const question = (page: Page, name: string) => page.getByRole("alertdialog", { name });
/** A route shown as a dialog: modal with JavaScript, a region of the page without it. */
const dialog = (page: Page, name: string) =>
  page.getByRole(test.info().project.use.javaScriptEnabled === false ? "region" : "dialog", { name });

test.use({ viewport: { width: 390, height: 844 } });

test.beforeEach(() => {
  removeAllMemories();
  removeAllUploads();
});

/** Nothing on the page is wider than the phone. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

test(
  "a published memory is unpublished, published again, corrected and deleted, from a phone",
  { tag: "@no-js" },
  async ({ page, baseURL, login }) => {
    const id = addMemory({ name: "Elen Smiht", message: "She sang at every picnic by the lake.", status: "APPROVED" });
    addMemory({ name: "Uncle Joe", message: "He fixed every bicycle on the street.", status: "APPROVED" });
    await login(page);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Published" }).click();
    await expect(page).toHaveURL(/\/admin\/published\/memories$/);
    const card = page.getByRole("listitem").filter({ hasText: "Elen Smiht" });
    await expect(card).toContainText("She sang at every picnic by the lake.");
    await expect(card).toContainText("Published");
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // Unpublish: gone from the guest book, kept here.
    await card.getByRole("button", { name: "Unpublish the memory from Elen Smiht" }).click();
    await expect(toast(page)).toContainText("Memory Unpublished");
    await expect(card).toContainText("Hidden from visitors");
    expect(memory(id)?.status).toBe("HIDDEN");
    const visitor = await page.context().browser()!.newPage();
    await visitor.goto(`${baseURL}/guestbook`);
    await expect(visitor.getByText("He fixed every bicycle on the street.")).toBeVisible();
    await expect(visitor.getByText("She sang at every picnic by the lake.")).toHaveCount(0);

    // Publish again: back in the guest book.
    await card.getByRole("button", { name: "Publish again the memory from Elen Smiht" }).click();
    await expect(toast(page)).toContainText("Memory Published");
    await expect(card).toContainText("Published");
    expect(memory(id)?.status).toBe("APPROVED");
    await visitor.reload();
    await expect(visitor.getByText("She sang at every picnic by the lake.")).toBeVisible();

    // Edit: the name corrected; what the visitor sent is kept and shown to admins.
    await hydrated(page);
    await card.getByRole("link", { name: "Edit the memory from Elen Smiht" }).click();
    const edit = dialog(page, "Edit the memory from Elen Smiht");
    await expect(edit.getByLabel("Name")).toHaveValue("Elen Smiht");
    await edit.getByLabel("Name").fill("");
    await edit.getByRole("button", { name: "Save correction" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
    await edit.getByLabel("Name").fill("Ellen Smith");
    await edit.getByLabel("Message").fill("She sang at every picnic by the river.");
    await edit.getByRole("button", { name: "Save correction" }).click();
    await expect(toast(page)).toContainText("Memory Corrected");
    const corrected = page.getByRole("listitem").filter({ hasText: "Ellen Smith" });
    await expect(corrected).toContainText("She sang at every picnic by the river.");
    await expect(corrected).toContainText(/Edited by admin on \w{3} \d{1,2}, \d{4}/);
    await corrected.getByText(/Edited by admin/).click();
    await expect(corrected).toContainText("She sang at every picnic by the lake.");
    expect(memory(id)).toMatchObject({ name: "Ellen Smith", originalName: "Elen Smiht", editedBy: "admin" });
    await visitor.reload();
    await expect(visitor.getByText("Ellen Smith")).toBeVisible();
    await expect(visitor.getByText("She sang at every picnic by the river.")).toBeVisible();

    // Delete asks first; Cancel keeps it, Delete removes it.
    await hydrated(page);
    await corrected.getByRole("link", { name: "Delete the memory from Ellen Smith" }).click();
    const ask = question(page, "Delete this memory?");
    await expect(ask).toContainText("The memory from Ellen Smith will be deleted for good");
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await ask.getByRole("link", { name: "Cancel" }).click();
    await expect(ask).toHaveCount(0);
    expect(memory(id)).toBeDefined();
    await hydrated(page);
    await corrected.getByRole("link", { name: "Delete the memory from Ellen Smith" }).click();
    await question(page, "Delete this memory?").getByRole("button", { name: "Delete" }).click();
    await expect(toast(page)).toContainText("Memory Deleted");
    await expect(page.getByRole("listitem").filter({ hasText: "Ellen Smith" })).toHaveCount(0);
    expect(memory(id)).toBeUndefined();
    await visitor.reload();
    await expect(visitor.getByText("She sang at every picnic by the river.")).toHaveCount(0);
    await visitor.close();
  },
);

test("the Published memories are searched by name and shown a page at a time", { tag: "@no-js" }, async ({ page, login }) => {
  for (let i = 1; i <= 22; i++) addMemory({ name: `Friend ${String(i).padStart(2, "0")}`, status: "APPROVED" });
  addMemory({ name: "Cousin May", status: "APPROVED" });
  addMemory({ name: "Still Waiting" });
  await login(page, "/admin/published/memories");
  await expect(page.getByRole("listitem").filter({ hasText: "Cousin May" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Still Waiting" })).toHaveCount(0);
  await page.getByRole("link", { name: "Older memories →" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Friend 01" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Cousin May" })).toHaveCount(0);
  await page.getByRole("link", { name: "← Newest first" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Cousin May" })).toBeVisible();

  await page.getByLabel("Search memories by name").fill("cousin");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\?q=cousin$/);
  await expect(page.getByRole("list", { name: "Published memories" }).getByRole("listitem")).toHaveCount(1);
  // Acting on a found memory comes back to the same search.
  await page.getByRole("button", { name: "Unpublish the memory from Cousin May" }).click();
  await expect(toast(page)).toContainText("Memory Unpublished");
  await expect(page).toHaveURL(/\/admin\/published\/memories\?q=cousin$/);
});

test(
  "a published photo is unpublished, published again and deleted after the question; its file is gone",
  { tag: "@no-js" },
  async ({ page, baseURL, login }) => {
    const id = await addUpload({ name: "picnic.jpg", status: "APPROVED" });
    const { url, thumbnailUrl } = upload(id)!;
    await login(page, "/admin/published/uploads");
    const card = page.getByRole("listitem").filter({ hasText: "picnic.jpg" });
    await expect(card).toContainText("IMAGE");
    await expect(card).toContainText("Published");
    await expectNoAxeViolations(page);

    await card.getByRole("button", { name: "Unpublish the photo picnic.jpg" }).click();
    await expect(toast(page)).toContainText("Upload Unpublished");
    await expect(card).toContainText("Hidden from visitors");
    const stranger = await page.context().browser()!.newContext();
    const base = baseURL;
    expect((await stranger.request.get(`${base}${url}`)).status()).toBe(404);
    expect((await stranger.request.get(`${base}/gallery/${id}`)).status()).toBe(404);
    const gallery = (await (await stranger.request.get(`${base}/api/gallery`)).json()) as { id: number }[];
    expect(gallery.map((item) => item.id)).not.toContain(id);
    // The admin still sees it.
    expect((await page.request.get(thumbnailUrl!)).status()).toBe(200);

    await card.getByRole("button", { name: "Publish again the photo picnic.jpg" }).click();
    await expect(toast(page)).toContainText("Upload Published");
    expect((await stranger.request.get(`${base}${url}`)).status()).toBe(200);

    await hydrated(page);
    await card.getByRole("link", { name: "Delete the photo picnic.jpg" }).click();
    const ask = question(page, "Delete this photo?");
    await expect(ask).toContainText("“picnic.jpg” will be deleted for good with all its files");
    expect(upload(id)).toBeDefined();
    await ask.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page)).toContainText("Upload Deleted");
    await expect(page.getByText("No photos, videos or voice memories have been published yet.")).toBeVisible();
    expect(upload(id)).toBeUndefined();
    expect((await page.request.get(url)).status()).toBe(404);
    await stranger.close();
  },
);

test("deleting a poem asks first, and Cancel keeps it", { tag: "@no-js" }, async ({ page, login }) => {
  removeAllPoems();
  const poem = addPoem({ title: "Remember", content: "Remember me when I am gone away" });
  await login(page, "/admin/poems");
  await page.getByRole("link", { name: "Delete the poem Remember" }).click();
  const ask = question(page, "Delete this poem?");
  await expect(ask).toContainText("“Remember” will be removed from the Poems page and the keepsake.");
  await expectNoAxeViolations(page);
  await ask.getByRole("link", { name: "Cancel" }).click();
  await expect(ask).toHaveCount(0);
  expect(db.select().from(poems).where(eq(poems.id, poem.id)).get()).toBeDefined();

  await hydrated(page);
  await page.getByRole("link", { name: "Delete the poem Remember" }).click();
  await question(page, "Delete this poem?").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page)).toContainText("Poem Deleted");
  await expect(page.getByText("No poems have been added yet.")).toBeVisible();
  expect(db.select().from(poems).where(eq(poems.id, poem.id)).get()).toBeUndefined();
});

test("the API's new calls answer 401 without a session and 403 from another site, and unpublish, correct and delete with one", async ({
  page,
  request,
  login,
}) => {
  const id = addMemory({ name: "API Friend", status: "APPROVED" });
  const photoId = await addUpload({ name: "api.jpg", status: "APPROVED" });
  const calls: [string, string, unknown][] = [
    ["PATCH", `/api/admin/memories/${id}`, { status: "HIDDEN" }],
    ["DELETE", `/api/admin/memories/${id}`, undefined],
    ["DELETE", `/api/admin/uploads/${photoId}`, undefined],
    ["GET", "/api/admin/published-memories", undefined],
    ["GET", "/api/admin/published-uploads", undefined],
  ];
  for (const [method, path, data] of calls) {
    expect((await request.fetch(path, { method, data })).status(), `${method} ${path}`).toBe(401);
  }
  await login(page);
  for (const [method, path, data] of calls.filter(([method]) => method !== "GET")) {
    const response = await page.request.fetch(path, { method, data: data ?? {}, headers: { Origin: "https://evil.example" } });
    expect(response.status(), `${method} ${path}`).toBe(403);
  }
  expect(memory(id)?.status).toBe("APPROVED");

  const hide = await page.request.patch(`/api/admin/memories/${id}`, { data: { status: "HIDDEN", name: "API Friend Jr." } });
  expect(hide.status()).toBe(200);
  expect(await hide.json()).toMatchObject({ status: "HIDDEN", name: "API Friend Jr.", originalName: "API Friend" });
  const listed = (await (await page.request.get("/api/admin/published-memories?q=jr")).json()) as { id: number }[];
  expect(listed.map((item) => item.id)).toEqual([id]);
  expect((await page.request.patch(`/api/admin/memories/${id}`, { data: { message: "short" } })).status()).toBe(400);
  expect((await page.request.delete(`/api/admin/memories/${id}`)).status()).toBe(204);
  expect((await page.request.delete(`/api/admin/memories/${id}`)).status()).toBe(404);
  expect((await page.request.delete(`/api/admin/uploads/${photoId}`)).status()).toBe(204);
  expect(upload(photoId)).toBeUndefined();
});
