import fs from "node:fs/promises";
import { type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { memories, poems, rsvps, uploads } from "../../db/schema";
import { db } from "~/platform/db.server";
import { ADMIN, hydrated, logInThroughForm } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import {
  addMemory,
  addPoem,
  addUnprocessableUpload,
  addUpload,
  addWaitingVideo,
  finishProcessing,
  removeAllMemories,
  removeAllPoems,
  removeAllUploads,
} from "./support/data";
import { expect, test } from "./support/fixtures";

const toast = (page: Page) => page.getByTestId("toast");
/** The detail view: a modal dialog with JavaScript, a section of the page without it. */
const detailView = (page: Page, name: string) =>
  page.getByRole(test.info().project.use.javaScriptEnabled === false ? "region" : "dialog", { name });
const memoryStatus = (id: number) => db.select().from(memories).where(eq(memories.id, id)).get()?.status;
const upload = (id: number) => db.select().from(uploads).where(eq(uploads.id, id)).get();

test.beforeEach(() => {
  removeAllMemories();
  removeAllUploads();
});

test.describe("logging in and out", () => {
  test("the admin page asks for a login first", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
    await expect(page.getByLabel("Username")).toBeVisible();
    await expect(page.getByLabel("Password")).toHaveAttribute("type", "password");
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    await expect(page.getByText("Admin Panel")).toHaveCount(0);
    await expectNoAxeViolations(page);
    // A tab's address shows the login card too, and leads back to the tab after logging in.
    await logInThroughForm(page, "/admin/poems");
    await expect(page).toHaveURL(/\/admin\/poems$/);
  });

  test("a wrong password is refused without saying which part was wrong", { tag: "@no-js" }, async ({ page }) => {
    await page.goto("/admin");
    await hydrated(page);
    await page.getByLabel("Username").fill("nobody-here");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Invalid username or password.").first()).toBeVisible();
    await expect(page.getByText("Login Failed").first()).toBeVisible();
    await expect(page.getByText("Admin Panel")).toHaveCount(0);
  });

  test("wrong passwords from one address lock out only that address; the administrator elsewhere still logs in", async ({
    page,
    context,
  }) => {
    // The server trusts Fly-Client-IP here as on Fly (playwright.config.ts), so
    // this page stands for a stranger on another network, a fresh one each run.
    const octet = () => 1 + Math.floor(Math.random() * 250);
    await page.setExtraHTTPHeaders({ "Fly-Client-IP": `198.18.${octet()}.${octet()}` });
    const tryLogin = async (password: string) => {
      await page.goto("/admin");
      await hydrated(page);
      await page.getByLabel("Username").fill(ADMIN.username);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Login" }).click();
    };
    for (let i = 0; i < 5; i++) {
      await tryLogin(`not the password ${i}`);
      await expect(page.getByText("Invalid username or password.").first()).toBeVisible();
    }
    // From that network even the right password now waits…
    await tryLogin(ADMIN.password);
    await expect(page.getByText("Too many failed login attempts. Please wait 15 minutes and try again.").first()).toBeVisible();
    await expect(page.getByText("Admin Panel")).toHaveCount(0);
    // …but the family's administrator, on their own network, is not locked out.
    await logInThroughForm(await context.newPage());
  });

  test("an empty username is refused with its message", async ({ page }) => {
    await page.goto("/admin");
    await hydrated(page);
    await page.getByLabel("Username").fill("   ");
    await page.getByLabel("Password").fill("something");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Username is required")).toBeVisible();
  });

  test(
    "the admin logs in, sees the five tabs of the spec, the Published, Set aside, Life Story, E-mail, Remember, Site and Print tabs, and logs out",
    { tag: "@no-js" },
    async ({ page }) => {
      // Through the login form, with JavaScript and without (the other tests start their session with the `login` fixture).
      await logInThroughForm(page);
      await expect(page.getByText("Login Successful")).toBeVisible();
      await expect(page.getByText("Welcome to the admin panel.")).toBeVisible();
      await expect(page.getByText("Manage memories and uploads")).toBeVisible();
      const tabs = page.getByRole("navigation", { name: "Admin sections" }).getByRole("link");
      await expect(tabs).toHaveText([
        "Pending Memories (0)",
        "Pending Uploads (0)",
        "Published",
        /^Attendance \(\d+\)$/,
        "Poems",
        "Set aside (0)",
        "Life Story",
        "Exports",
        "E-mail",
        "Remember",
        "Site",
        "Print",
      ]);
      await expect(page.getByText("No pending memories to review.")).toBeVisible();
      await expectNoAxeViolations(page);

      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page.getByText("Logged Out", { exact: true })).toBeVisible();
      await expect(page.getByText("You have been logged out successfully.")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
      await expect(page).toHaveURL(/\/admin\/login$/);
      // The session is really over.
      await page.goto("/admin/uploads");
      await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
    },
  );
});

test.describe("moderating memories", { tag: "@no-js" }, () => {
  test("approve from the list; the memory leaves it and appears in the guest book", async ({ page, login }) => {
    const id = addMemory({ name: "Cousin Ellen", message: "I remember the summer at the lake." });
    await login(page);
    await expect(page.getByRole("link", { name: "Pending Memories (1)" })).toBeVisible();
    const row = page.getByRole("row", { name: /Cousin Ellen/ });
    await expect(row).toContainText("visitor@example.com");
    await row.getByRole("button", { name: "Approve" }).click();
    await expect(toast(page)).toContainText("Memory Updated");
    await expect(toast(page)).toContainText("Memory status has been updated.");
    await expect(toast(page)).toContainText("Cousin Ellen’s memory is now on the guest book.");
    await expect(page.getByText("No pending memories to review.")).toBeVisible();
    expect(memoryStatus(id)).toBe("APPROVED");
    await page.goto("/guestbook");
    await expect(page.getByText("I remember the summer at the lake.")).toBeVisible();
  });

  test("the details show everything, and Reject Memory closes them", async ({ page, login }) => {
    const id = addMemory({ name: "Uncle Joe", phone: "555 0199", canDisplay: false, message: "Line one\nLine two of a long message" });
    await login(page);
    await page.getByRole("link", { name: "View the memory from Uncle Joe" }).click();
    const dialog = detailView(page, "Memory from Uncle Joe");
    await expect(dialog).toBeVisible();
    for (const text of ["visitor@example.com", "555 0199", "Can be displayed", "No", "Line two of a long message"]) {
      await expect(dialog.getByText(text, { exact: true }).or(dialog.getByText(text)).first()).toBeVisible();
    }
    await expect(dialog.getByText(/\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)/)).toBeVisible();
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Reject Memory" }).click();
    // It cannot be undone, so it asks first; nothing has changed yet.
    const question = page.getByRole("alertdialog", { name: "Reject this memory?" });
    await expect(question).toContainText("The memory from Uncle Joe will not be published. This cannot be undone.");
    if (test.info().project.use.javaScriptEnabled !== false) await expect(question).toBeFocused();
    expect(memoryStatus(id)).toBe("PENDING");
    await expectNoAxeViolations(page);
    await question.getByRole("button", { name: "Yes, reject it" }).click();
    await expect(toast(page)).toContainText("Memory Updated");
    await expect(page.locator("#admin-dialog-title")).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin$/);
    expect(memoryStatus(id)).toBe("REJECTED");
  });
});

test.describe("a memory's details on a phone", () => {
  /** How many lines the text of `locator` takes on the screen. */
  const lines = (locator: ReturnType<Page["locator"]>) =>
    locator.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    });

  for (const width of [320, 360, 390]) {
    test(
      `at ${width} px the labels sit above their values, the e-mail keeps to two lines and Close to one`,
      { tag: width === 320 ? "@no-js" : [] },
      async ({ page, login }) => {
        await page.setViewportSize({ width, height: 800 });
        addMemory({
          name: "Margaret Thompson-Whitfield",
          email: "margaret.thompson-whitfield@example.com",
          phone: "555 0199",
          message: "We sang in the choir together for thirty years.",
        });
        await login(page);
        await page.getByRole("link", { name: "View the memory from Margaret Thompson-Whitfield" }).click();
        const dialog = detailView(page, "Memory from Margaret Thompson-Whitfield");
        await expect(dialog).toBeVisible();
        const close = dialog.getByRole("link", { name: "Close" });
        expect(await lines(close)).toBe(1);
        const label = dialog.locator("dt", { hasText: "Email" });
        const email = dialog.locator("dd", { hasText: "margaret.thompson-whitfield@example.com" });
        const [labelBox, emailBox] = [(await label.boundingBox())!, (await email.boundingBox())!];
        expect(emailBox.y).toBeGreaterThanOrEqual(labelBox.y + labelBox.height - 1);
        expect(await lines(email)).toBeLessThanOrEqual(2);
        expect(await lines(dialog.locator("dd", { hasText: "Margaret Thompson-Whitfield" }).first())).toBe(1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      },
    );
  }
});

test.describe("status words that tell the truth", () => {
  test(
    "a published memory's and photo's pages say they are published and offer nothing to approve or publish",
    { tag: "@no-js" },
    async ({ page, login }) => {
      addMemory({ name: "Aunt Dorothy", status: "APPROVED", message: "Sunday dinners at her house." });
      const photo = await addUpload({ name: "on-the-porch.jpg", status: "APPROVED" });
      const waiting = await addUpload({ name: "still-waiting.jpg" });
      await login(page);
      const memoryId = db.select().from(memories).where(eq(memories.name, "Aunt Dorothy")).get()!.id;
      await page.goto(`/admin/memories/${memoryId}`);
      const memory = detailView(page, "Memory from Aunt Dorothy");
      await expect(memory).toContainText("Published: it is on the guest book");
      await expect(memory.getByRole("button", { name: "Approve & Publish" })).toHaveCount(0);
      await expect(memory.getByRole("link", { name: "Published tab" })).toBeVisible();

      await page.goto(`/admin/uploads/${photo}`);
      const preview = detailView(page, "on-the-porch.jpg");
      await expect(preview.getByRole("status")).toHaveText("Published: it is in the gallery.");
      await expect(preview).not.toContainText("Ready to publish.");
      await expect(preview.getByRole("button", { name: "Publish to Gallery" })).toHaveCount(0);
      await expect(preview.getByRole("button", { name: "Delete Permanently" })).toHaveCount(0);

      // One still waiting keeps its words and buttons.
      await page.goto(`/admin/uploads/${waiting}`);
      const pending = detailView(page, "still-waiting.jpg");
      await expect(pending).toContainText("Ready to publish.");
      await expect(pending.getByRole("button", { name: "Publish to Gallery" })).toBeVisible();
      await expectNoAxeViolations(page);
    },
  );
});

test.describe("enough to moderate from the lists", () => {
  test("the tabs mark out work waiting; the Attendance total does not look like it", async ({ page, login }) => {
    addMemory({ name: "Cousin Ellen" });
    db.insert(rsvps).values({ name: "Guest", email: "guest@example.com", guestCount: 2 }).run();
    await login(page);
    const tabs = page.getByRole("navigation", { name: "Admin sections" });
    // The count, "(1)", is an element of its own only where work waits.
    const count = /^\(\d+\)$/;
    const background = (name: RegExp) =>
      tabs
        .getByRole("link", { name })
        .getByText(count)
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background(/^Pending Memories/)).not.toBe("rgba(0, 0, 0, 0)");
    await expect(tabs.getByRole("link", { name: "Attendance (1)" }).getByText(count)).toHaveCount(0);
    expect(await background(/^Pending Uploads/)).toBe("rgba(0, 0, 0, 0)");
    db.delete(rsvps).run();
  });

  test("a pending memory's card shows its message up to 400 characters, not 80", async ({ page, login }) => {
    const message = `She taught me to bake bread on Saturday mornings. ${"We laughed at the flour on the ceiling and the dog under the table. ".repeat(4)}I will miss her.`;
    expect(message.length).toBeGreaterThan(300);
    addMemory({ name: "Neighbour Rosa", message });
    const long = "Every summer we went to the lake together. ".repeat(15);
    addMemory({ name: "Cousin Paul", message: long });
    await login(page);
    await expect(
      page
        .getByRole("row", { name: /Neighbour Rosa/ })
        .getByRole("cell")
        .nth(2),
    ).toHaveText(message);
    const cut = page
      .getByRole("row", { name: /Cousin Paul/ })
      .getByRole("cell")
      .nth(2);
    await expect(cut).toHaveText(/…$/);
    expect((await cut.textContent())!.length).toBeGreaterThan(300);
    expect((await cut.textContent())!.length).toBeLessThanOrEqual(401);
  });

  test("upload thumbnails offer the gallery's larger copies, sharp on a 2× screen", async ({ browser, baseURL, login }) => {
    const context = await browser.newContext({
      deviceScaleFactor: 2,
      javaScriptEnabled: test.info().project.use.javaScriptEnabled,
      baseURL: baseURL,
    });
    const page = await context.newPage();
    const id = await addUpload({ name: "garden-party.jpg", width: 1600 });
    await login(page, "/admin/uploads");
    const thumb = page.getByRole("link", { name: "Preview garden-party.jpg" }).locator("img");
    const { url, thumbnailUrl } = upload(id)!;
    await expect(thumb).toHaveAttribute("srcset", new RegExp(`${thumbnailUrl!.replace(/[.]/g, "\\.")} \\d+w, .* \\d+w`));
    await expect(thumb).toHaveAttribute("srcset", new RegExp(`${url.replace(/[.]/g, "\\.")} \\d+w`));
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)).not.toBe(false);
    expect(await thumb.evaluate((img: HTMLImageElement) => img.currentSrc)).not.toContain(thumbnailUrl!);
    await context.close();
  });
});

test.describe("irreversible actions ask first", { tag: "@no-js" }, () => {
  test("Reject in the list asks before acting, and Cancel keeps the memory waiting", async ({ page, login }) => {
    const id = addMemory({ name: "Cousin May", message: "Thinking of the garden today." });
    await login(page);
    await page
      .getByRole("row", { name: /Cousin May/ })
      .getByRole("button", { name: "Reject" })
      .click();
    const question = page.getByRole("alertdialog", { name: "Reject this memory?" });
    await expect(question).toBeVisible();
    await question.getByRole("link", { name: "Cancel" }).click();
    await expect(question).toHaveCount(0);
    expect(memoryStatus(id)).toBe("PENDING");
    await expect(page.getByRole("row", { name: /Cousin May/ })).toBeVisible();

    await page
      .getByRole("row", { name: /Cousin May/ })
      .getByRole("button", { name: "Reject" })
      .click();
    await page.getByRole("alertdialog", { name: "Reject this memory?" }).getByRole("button", { name: "Yes, reject it" }).click();
    await expect(toast(page)).toContainText("Memory Updated");
    expect(memoryStatus(id)).toBe("REJECTED");
  });
});

test.describe("the admin panel on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a phone does not capitalise the username, and 'Admin' logs in as 'admin' all the same", async ({ page }) => {
    await page.goto("/admin/login");
    const username = page.getByLabel("Username");
    await expect(username).toHaveAttribute("autocapitalize", "none");
    await expect(username).toHaveAttribute("autocorrect", "off");
    await expect(username).toHaveAttribute("spellcheck", "false");
    await logInThroughForm(page, "/admin", { ...ADMIN, username: "Admin" });
    await page.goto("/admin/admins");
    const added = page.getByRole("form", { name: "Add an admin" }).getByLabel("Username");
    await expect(added).toHaveAttribute("autocapitalize", "none");
    await expect(added).toHaveAttribute("autocorrect", "off");
  });

  test("pending memories are stacked cards with their buttons in reach; no tab scrolls sideways", async ({ page, login }) => {
    addMemory({ name: "Bartholomew".repeat(9), message: `A long unbroken word: ${"remember".repeat(30)}` });
    await addUpload({ name: `${"holiday".repeat(20)}.jpg` });
    await login(page);
    const row = page.getByRole("row", { name: /Bartholomew/ });
    const approve = row.getByRole("button", { name: "Approve" });
    await approve.scrollIntoViewIfNeeded();
    const box = (await approve.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    for (const url of [
      "/admin",
      "/admin/uploads",
      "/admin/published",
      "/admin/attendance",
      "/admin/poems",
      "/admin/exports",
      "/admin/email",
      "/admin/site",
    ]) {
      await page.goto(url);
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll, `${url} scrolls sideways`).toBeLessThanOrEqual(widths.client);
      const overflowing = await page.evaluate(
        () =>
          [...document.querySelectorAll("main *")].filter(
            (el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "auto",
          ).length,
      );
      expect(overflowing, `${url} has a box that scrolls sideways`).toBe(0);
    }
  });
});

test.describe("moderating uploads", () => {
  test("publish one from the list and delete another permanently from its preview", { tag: "@no-js" }, async ({ page, login }) => {
    const keep = await addUpload({ name: "keep-me.jpg" });
    const remove = await addUpload({ name: "remove-me.jpg" });
    await login(page);
    await page.getByRole("link", { name: "Pending Uploads (2)" }).click();
    const card = page.getByRole("listitem").filter({ hasText: "keep-me.jpg" });
    await expect(card).toContainText("IMAGE");
    await expect(card).toContainText("Test Visitor (visitor@example.com)");
    await expect(card).toContainText("640 × 480");
    await card.getByRole("button", { name: "Publish" }).click();
    await expect(toast(page)).toContainText("Upload Updated");
    await expect(toast(page)).toContainText("“keep-me.jpg” is now in the gallery.");
    await expect(page.getByRole("listitem").filter({ hasText: "keep-me.jpg" })).toHaveCount(0);
    expect(upload(keep)?.status).toBe("APPROVED");

    await page.getByRole("link", { name: "Preview remove-me.jpg" }).click();
    const dialog = detailView(page, "remove-me.jpg");
    await expect(dialog.getByRole("img", { name: "Preview of remove-me.jpg" })).toBeVisible();
    await expect(dialog).toContainText("JPG");
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Delete Permanently" }).click();
    const question = page.getByRole("alertdialog", { name: "Delete this upload permanently?" });
    await expect(question).toContainText("“remove-me.jpg” will be deleted with all its files. This cannot be undone.");
    expect(upload(remove)?.status).toBe("PENDING");
    await question.getByRole("button", { name: "Yes, delete it" }).click();
    await expect(toast(page)).toContainText("Upload status has been updated.");
    await expect(toast(page)).toContainText("“remove-me.jpg” was deleted permanently.");
    await expect(page.getByText("No pending uploads to review.")).toBeVisible();
    expect(upload(remove)).toMatchObject({ status: "REJECTED", storageKey: null });
  });

  test("the Pending Uploads tab shows the storage used and free", async ({ page, login }) => {
    await addUpload({ name: "waiting.jpg" });
    await login(page, "/admin/uploads");
    await expect(
      page.getByText(/^Storage: \d+ KB waiting for review · [\d.]+ (bytes|KB|MB|GB) published · [\d.]+ (MB|GB|TB) free$/),
    ).toBeVisible();
  });

  test("rotating a photo makes a new, turned image", { tag: "@no-js" }, async ({ page, login }) => {
    const id = await addUpload({ name: "sideways.jpg" });
    const before = upload(id)!;
    await login(page);
    await page.goto(`/admin/uploads/${id}`);
    const dialog = detailView(page, "sideways.jpg");
    await dialog.getByRole("button", { name: "Rotate Right" }).click();
    await expect(toast(page)).toContainText("Image Rotated");
    await expect(toast(page)).toContainText("The image has been rotated successfully.");
    const after = upload(id)!;
    expect(after.url).not.toBe(before.url);
    expect([after.width, after.height]).toEqual([480, 640]);
    const image = detailView(page, "sideways.jpg").getByRole("img", { name: "Preview of sideways.jpg" });
    await expect(image).toHaveAttribute("src", after.url);
    const response = await page.request.get(after.url);
    expect(response.status()).toBe(200);
    expect((await sharp(await response.body()).metadata()).width).toBe(480);
  });

  test("an upload that could not be processed says why and can only be deleted", { tag: "@no-js" }, async ({ page, login }) => {
    const id = await addUnprocessableUpload("broken-photo.jpg");
    await login(page);
    await page.getByRole("link", { name: "Pending Uploads (1)" }).click();
    const reason = "This file could not be processed: the photo could not be read; the file may be damaged or not really a photo.";
    const card = page.getByRole("listitem").filter({ hasText: "broken-photo.jpg" });
    await expect(card).toContainText(reason);
    await expect(card.getByRole("button", { name: "Publish" })).toHaveCount(0);

    await page.getByRole("link", { name: "Preview broken-photo.jpg" }).click();
    const dialog = detailView(page, "broken-photo.jpg");
    await expect(dialog).toContainText(reason);
    await expect(dialog.getByRole("img")).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Rotate Right" })).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Publish to Gallery" })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Delete Permanently" }).click();
    await page
      .getByRole("alertdialog", { name: "Delete this upload permanently?" })
      .getByRole("button", { name: "Yes, delete it" })
      .click();
    await expect(toast(page)).toContainText("Upload status has been updated.");
    expect(upload(id)).toMatchObject({ status: "REJECTED", storageKey: null });
  });

  test(
    "a video still being prepared says so and cannot be published until it is ready",
    { tag: "@no-js" },
    async ({ page, javaScriptEnabled, login }) => {
      const id = await addWaitingVideo("graduation.mov");
      if (javaScriptEnabled) await page.clock.install();
      await login(page);
      await page.getByRole("link", { name: "Pending Uploads (1)" }).click();
      const card = page.getByRole("listitem").filter({ hasText: "graduation.mov" });
      await expect(card.getByRole("status")).toHaveText("Waiting to be prepared: this video can be published once it is ready.");
      await expect(card.getByRole("button", { name: "Publish" })).toHaveCount(0);
      await expect(card.getByRole("button", { name: "Delete" })).toBeVisible();
      await expectNoAxeViolations(page);

      // Publishing anyway (a form sent from an older page) is refused with the reason.
      await page.request.post("/admin/uploads", {
        form: { intent: "approve", id: String(id) },
        headers: { Origin: new URL(page.url()).origin },
        maxRedirects: 0,
      });
      expect(upload(id)?.status).toBe("PENDING");

      await finishProcessing(id);
      if (javaScriptEnabled) {
        // The page asks again by itself every 5 seconds while something is being prepared.
        await page.clock.runFor(5000);
      } else {
        await page.getByRole("link", { name: "Check again" }).click();
      }
      await expect(card.getByRole("status")).toHaveText("Ready to publish.");
      await expect(page.getByRole("link", { name: "Check again" })).toHaveCount(0);
      await card.getByRole("button", { name: "Publish" }).click();
      await expect(toast(page)).toBeVisible();
      await expect.poll(() => upload(id)?.status).toBe("APPROVED");
    },
  );

  test("the preview of a video being prepared says so, and offers its original", { tag: "@no-js" }, async ({ page, login }) => {
    const id = await addWaitingVideo("graduation.mov");
    await login(page, `/admin/uploads/${id}`);
    const dialog = detailView(page, "graduation.mov");
    await expect(dialog.getByRole("status")).toHaveText("Waiting to be prepared: this video can be published once it is ready.");
    await expect(dialog.getByRole("button", { name: "Publish to Gallery" })).toHaveCount(0);
    const original = dialog.getByRole("link", { name: /Download the original/ });
    await expect(original).toHaveAttribute("href", /\/media\/\d+\/[\w-]+\.mov$/);
    expect((await page.request.get((await original.getAttribute("href"))!)).status()).toBe(200);
    await expectNoAxeViolations(page);
  });

  test("pending media is served to the admin only", async ({ page, browser, baseURL, login }) => {
    const id = await addUpload({ name: "private.jpg" });
    const { url } = upload(id)!;
    await login(page);
    expect((await page.request.get(url)).status()).toBe(200);
    const stranger = await browser.newContext();
    expect((await stranger.request.get(`${baseURL}${url}`)).status()).toBe(404);
    await stranger.close();
  });
});

test.describe("poems, attendance and exports", () => {
  test("add a poem (its title is required) and delete it", { tag: "@no-js" }, async ({ page, login }) => {
    removeAllPoems();
    await login(page);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Poems", exact: true }).click();
    await expect(page.getByText("No poems have been added yet.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Manage Existing Poems (0)" })).toBeVisible();
    await page.getByLabel("Title").fill("   ");
    await page.getByLabel("Content").fill("Do not stand at my grave and weep");
    await page.getByRole("button", { name: "Add Poem" }).click();
    await expect(page.getByText("Title is required")).toBeVisible();
    // Without JavaScript the server answered: its failure says the spec's words too.
    if (test.info().project.use.javaScriptEnabled === false)
      await expect(page.getByRole("alert").getByText("Failed to create poem.")).toBeVisible();

    await page.getByLabel("Title").fill("Remember");
    await page.getByLabel("Author (Optional)").fill("C. Rossetti");
    await page.getByRole("button", { name: "Add Poem" }).click();
    await expect(toast(page)).toContainText("Poem Created");
    await expect(toast(page)).toContainText("The poem has been added successfully.");
    await expect(page.getByLabel("Title")).toHaveValue("");
    await expect(page.getByRole("heading", { name: "Manage Existing Poems (1)" })).toBeVisible();
    await expect(page.getByText("By C. Rossetti")).toBeVisible();
    // The family sees when each poem was added; visitors see the poem alone.
    await expect(page.getByText(/^Added on /)).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("link", { name: "Delete the poem Remember" }).click();
    await page.getByRole("alertdialog", { name: "Delete this poem?" }).getByRole("button", { name: "Delete" }).click();
    await expect(toast(page)).toContainText("Poem Deleted");
    await expect(page.getByText("No poems have been added yet.")).toBeVisible();
    expect(db.select().from(poems).all()).toHaveLength(0);
  });

  test("a guest's attendance note shows in the Attendance tab", async ({ page, login }) => {
    db.delete(rsvps).run();
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("link", { name: "Let the family know you attended" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Memorial Service Attendance" })).toBeVisible();
    await page.getByLabel("Name *").fill("Aunt Rose");
    await page.getByLabel("Email *").fill("rose@example.com");
    await page.getByLabel("Number of guests, including you *").fill("3");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("The family will be glad to know you were there.")).toBeVisible();
    await expectNoAxeViolations(page);

    await login(page);
    await page.getByRole("link", { name: "Attendance (1)" }).click();
    await expect(page.getByText("Memorial Attendees")).toBeVisible();
    await expect(page.getByText("Confirmed attendees")).toBeVisible();
    await expect(page.getByText("Including all guests")).toBeVisible();
    const row = page.getByRole("row", { name: /Aunt Rose/ });
    await expect(row).toContainText("rose@example.com");
    await expect(row).toContainText("3");
    await expect(row).toContainText("No notes");
    await expectNoAxeViolations(page);
  });

  test("both exports download as CSV files, and everything as one ZIP", async ({ page, login }) => {
    addMemory({ name: "Éloïse", message: "=cmd|' /C calc'!A0 is not a formula here", status: "APPROVED", email: "eloise@example.com" });
    await login(page);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Exports" }).click();
    await expect(page.getByText("Download all approved memories as a CSV file.")).toBeVisible();
    await expect(page.getByText("Download contact information for thank-you notes.")).toBeVisible();
    for (const [name, header] of [
      ["Export Memories CSV", "Name,Email,Phone,Message,Submitted"],
      ["Export Contacts CSV", "Name,Email,Phone,Came from"],
    ] as const) {
      const link = page.getByRole("link", { name });
      await expect(link).toHaveAttribute("target", "_blank");
      const response = await page.request.get((await link.getAttribute("href"))!);
      expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="(memories|contacts)-\d{4}-\d{2}-\d{2}\.csv"$/);
      const text = (await response.body()).toString("utf8");
      expect(text.startsWith(`\uFEFF${header}\n`)).toBe(true);
      expect(text).toContain("Éloïse");
    }
    const memoriesCsv = (await (await page.request.get("/api/admin/export/memories.csv")).body()).toString("utf8");
    expect(memoriesCsv).toContain(",'=cmd|' /C calc'!A0 is not a formula here,");

    // Everything in one ZIP, saved by the browser as it arrives.
    const [archive] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download everything" }).click()]);
    expect(archive.suggestedFilename()).toMatch(/^memorial-\d{4}-\d{2}-\d{2}\.zip$/);
    const saved = await fs.readFile((await archive.path())!);
    expect(saved.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
    expect(saved.includes(Buffer.from("index.html"))).toBe(true);
    await expectNoAxeViolations(page);
  });
});

test.describe("the admin API", () => {
  const endpoints: [string, string][] = [
    ["GET", "/api/admin/pending-memories"],
    ["GET", "/api/admin/pending-uploads"],
    ["GET", "/api/admin/rsvps/stats"],
    ["PATCH", "/api/admin/memories/1"],
    ["PATCH", "/api/admin/uploads/1"],
    ["POST", "/api/admin/poems"],
    ["DELETE", "/api/admin/poems/1"],
    ["POST", "/api/admin/uploads/1/rotate"],
    ["GET", "/api/admin/export/memories.csv"],
    ["GET", "/api/admin/export/contacts.csv"],
  ];

  test("answers 401 without a session", async ({ request }) => {
    for (const [method, path] of endpoints) {
      const response = await request.fetch(path, { method, data: method === "GET" || method === "DELETE" ? undefined : {} });
      expect(response.status(), `${method} ${path}`).toBe(401);
    }
  });

  test("refuses changes from another site with 403, even with a session", async ({ page, login }) => {
    await login(page);
    for (const [method, path] of endpoints.filter(([method]) => method !== "GET")) {
      const response = await page.request.fetch(path, { method, data: {}, headers: { Origin: "https://evil.example" } });
      expect(response.status(), `${method} ${path}`).toBe(403);
    }
  });

  test("logs in with JSON and moderates through the calls of the spec", async ({ request }) => {
    const id = addMemory({ name: "API Friend" });
    const poem = addPoem({ title: "Via the API" });
    expect((await request.post("/api/admin/login", { data: { username: ADMIN.username, password: ADMIN.password } })).status()).toBe(200);
    const pending = (await (await request.get("/api/admin/pending-memories")).json()) as { id: number; email: string }[];
    expect(pending.map((m) => m.id)).toContain(id);
    expect((await request.patch(`/api/admin/memories/${id}`, { data: { status: "MAYBE" } })).status()).toBe(400);
    expect((await request.patch(`/api/admin/memories/${id}`, { data: { status: "APPROVED" } })).status()).toBe(200);
    expect(memoryStatus(id)).toBe("APPROVED");
    expect((await request.patch("/api/admin/memories/999999", { data: { status: "APPROVED" } })).status()).toBe(404);
    expect((await request.delete(`/api/admin/poems/${poem.id}`)).status()).toBe(204);
    expect((await request.delete(`/api/admin/poems/${poem.id}`)).status()).toBe(404);
    const stats = await (await request.get("/api/admin/rsvps/stats")).json();
    expect(Object.keys(stats).sort()).toEqual(["rsvps", "totalGuests", "totalRsvps"]);
  });
});
