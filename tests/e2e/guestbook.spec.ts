import { type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { memories } from "../../db/schema";
import { content } from "~/content";
import { db } from "~/platform/db.server";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { addMemory, latestMemory, removeAllMemories } from "./support/data";
import { expect, test } from "./support/fixtures";

/** The guest book's own form ("Leave a voice memory" beside it has a "Name *" and a permission box too). */
const memoryForm = (page: Page) => page.locator("form#guestbook");

const uniqueName = () => `Visitor ${Math.random().toString(36).slice(2, 8)}`;

async function fillForm(page: Page, values: { name: string; email: string; phone?: string; message: string }) {
  if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await memoryForm(page).getByLabel("Name *").fill(values.name);
  await page.getByLabel("Email *").fill(values.email);
  if (values.phone !== undefined) await page.getByLabel("Phone (Optional)").fill(values.phone);
  await page.getByLabel("Your Memory *").fill(values.message);
}

test.describe("guest book page", { tag: "@no-js" }, () => {
  test("shows the title, the form first and then the list, with the privacy note", async ({ page }) => {
    await page.goto("/guestbook");
    await expect(page.getByRole("heading", { level: 1, name: "Guest Book" })).toBeVisible();
    await expect(page.getByText("Share your memories and messages of love.")).toBeVisible();
    const sections = await page.locator("main h2").allTextContents();
    expect(sections).toEqual(["Write a Message", "Leave a voice memory", "Light a candle", "Voices", "Shared Memories"]);
    for (const label of ["Name *", "Email *", "Phone (Optional)", "Your Memory *"]) {
      await expect(memoryForm(page).getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel("Email *")).toHaveAttribute("type", "email");
    await expect(memoryForm(page).getByLabel("I give permission to display this memory publicly")).toBeChecked();
    await expect(page.getByText(content.privacyNote)).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guest Book" })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  test("Back after sending, and sending again, keeps the memory once", async ({ page }) => {
    removeAllMemories();
    const name = uniqueName();
    const message = `Sent once, then Back and Send again ${Math.random().toString(36).slice(2, 8)}.`;
    await page.goto("/guestbook");
    await fillForm(page, { name, email: "twice@example.com", message });
    await page.getByRole("button", { name: "Submit Memory" }).click();
    await expect(page.getByTestId("toast")).toContainText("Memory Submitted");
    await page.goto("/poems");
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1, name: "Guest Book" })).toBeVisible();
    // The page is fetched afresh (no-store); whatever the browser refills, sending it again stores nothing new.
    if ((await page.getByLabel("Your Memory *").inputValue()) !== message) {
      await fillForm(page, { name, email: "twice@example.com", message });
    }
    await page.getByRole("button", { name: "Submit Memory" }).click();
    await expect(page.getByTestId("toast")).toContainText("Memory Submitted");
    expect(db.select().from(memories).where(eq(memories.message, message)).all()).toHaveLength(1);
    const response = await page.request.get("/guestbook");
    expect(response.headers()["cache-control"]).toBe("no-store");
  });

  test("says so when no memories are shown yet", async ({ page }) => {
    removeAllMemories();
    addMemory({ status: "PENDING", message: "Still waiting for review here" });
    await page.goto("/guestbook");
    await expect(page.getByText("No memories have been shared yet. Be the first to share a memory!")).toBeVisible();
    await expect(page.getByRole("button", { name: "Load More Memories" })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test("a visitor signs the guest book and sees the confirmation; the memory waits for review", async ({ page }) => {
    const name = uniqueName();
    await page.goto("/guestbook");
    await fillForm(page, { name, email: "friend@example.com", phone: "555 0100", message: "We will always remember\nyour laugh." });
    await page.getByRole("button", { name: "Submit Memory" }).click();

    await expect(page.getByText("Memory Submitted")).toBeVisible();
    await expect(page.getByText("Thank you for sharing your memory. It will be reviewed before being published.")).toBeVisible();
    await expect(page).toHaveURL(/\/guestbook$/);
    // The form is ready for the next person.
    await expect(memoryForm(page).getByLabel("Name *")).toHaveValue("");
    await expect(page.getByLabel("Your Memory *")).toHaveValue("");
    // Pending memories are not shown.
    await expect(page.getByText(name)).toHaveCount(0);

    const stored = latestMemory();
    expect(stored).toMatchObject({
      name,
      email: "friend@example.com",
      phone: "555 0100",
      message: "We will always remember\nyour laugh.",
      canDisplay: true,
      status: "PENDING",
    });
    await expectNoAxeViolations(page);
  });

  test("unticking the permission box stores a memory that is never displayed", async ({ page }) => {
    const name = uniqueName();
    await page.goto("/guestbook");
    await fillForm(page, { name, email: "private@example.com", message: "Just for the family, please." });
    await memoryForm(page).getByLabel("I give permission to display this memory publicly").uncheck();
    await page.getByRole("button", { name: "Submit Memory" }).click();
    await expect(page.getByText("Memory Submitted")).toBeVisible();
    expect(latestMemory()).toMatchObject({ name, canDisplay: false });
  });

  test("each invalid field shows its message and everything typed is kept", async ({ page }) => {
    const before = latestMemory()?.id ?? 0;
    await page.goto("/guestbook");
    // Values the browser's own checks let through, so the server's rules answer.
    await fillForm(page, { name: "   ", email: "someone@nowhere", phone: "12345", message: "Too short " });
    await memoryForm(page).getByLabel("I give permission to display this memory publicly").uncheck();
    await page.getByRole("button", { name: "Submit Memory" }).click();

    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByText("Valid email is required")).toBeVisible();
    await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();
    await expect(memoryForm(page).getByLabel("Name *")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email *")).toHaveValue("someone@nowhere");
    await expect(page.getByLabel("Phone (Optional)")).toHaveValue("12345");
    await expect(page.getByLabel("Your Memory *")).toHaveValue(/Too short/);
    await expect(memoryForm(page).getByLabel("I give permission to display this memory publicly")).not.toBeChecked();
    await expect(page.getByText("Memory Submitted")).toHaveCount(0);
    expect(latestMemory()?.id ?? 0).toBe(before);
    await expectNoAxeViolations(page);
  });

  test("a memory sent without an e-mail is answered by a summary at the top that names the field, has the focus and links to it", async ({
    page,
  }) => {
    const before = latestMemory()?.id ?? 0;
    await page.goto("/guestbook");
    await hydrated(page);
    await memoryForm(page).getByLabel("Name *").fill(uniqueName());
    await page.getByLabel("Your Memory *").fill("We sang her favourite song at the lake.");
    await page.getByRole("button", { name: "Submit Memory" }).click();

    const summary = page.getByRole("alert").filter({ hasText: "Please check:" });
    await expect(summary).toBeFocused();
    // The summary comes first, then the spec's words, then the field's own message.
    await expect(summary).toHaveText(/^Please check:\s*Email\s*Error\s*Failed to submit memory\. Please try again\.$/);
    await expect(page.getByText("Valid email is required")).toBeVisible();
    const link = summary.getByRole("link", { name: "Email" });
    await expect(link).toHaveAttribute("href", "#guestbook-email");
    await link.click();
    await expect(page.getByLabel("Email *")).toBeFocused();
    expect(latestMemory()?.id ?? 0).toBe(before);
  });

  test("an approved memory appears with its avatar, name, time and line breaks", async ({ page }) => {
    removeAllMemories();
    addMemory({ name: "zoe Walker", message: "First line of love\nSecond line of love", status: "APPROVED" });
    addMemory({ name: "Hidden Person", message: "Rejected message text", status: "REJECTED" });
    addMemory({ name: "Private Person", message: "Approved but private", status: "APPROVED", canDisplay: false });
    await page.goto("/guestbook");
    const items = page.getByRole("list", { name: "Shared memories" }).getByRole("listitem");
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText("zoe Walker");
    await expect(items.first().locator("[aria-hidden=true]").first()).toHaveText("Z");
    await expect(items.first().locator("time")).toHaveText("less than a minute ago");
    expect(await items.first().getByText("First line of love").innerText()).toBe("First line of love\nSecond line of love");
    await expect(page.getByText("Hidden Person")).toHaveCount(0);
    await expect(page.getByText("Private Person")).toHaveCount(0);
    await expect(page.getByText("No memories have been shared yet.")).toHaveCount(0);
  });

  test("Load More Memories brings the next ten, then the last five", async ({ page }) => {
    removeAllMemories();
    for (let i = 1; i <= 25; i++) addMemory({ name: `Guest ${String(i).padStart(2, "0")}`, status: "APPROVED" });
    await page.goto("/guestbook");
    const items = page.getByRole("list", { name: "Shared memories" }).getByRole("listitem");
    await expect(items).toHaveCount(10);
    await expect(items.first()).toContainText("Guest 25");

    await page.getByRole("button", { name: "Load More Memories" }).click();
    await expect(items).toHaveCount(20);
    await expect(items.nth(10)).toContainText("Guest 15");
    await page.getByRole("button", { name: "Load More Memories" }).click();
    await expect(items).toHaveCount(25);
    await expect(items.last()).toContainText("Guest 01");
    await expect(page.getByRole("button", { name: "Load More Memories" })).toHaveCount(0);
  });

  test("past 100 memories the list goes on as pages: Earlier memories →, and back to the newest", async ({ page }) => {
    removeAllMemories();
    for (let i = 1; i <= 105; i++) addMemory({ name: `Guest ${String(i).padStart(3, "0")}`, status: "APPROVED" });
    // As after eight clicks on Load More without JavaScript: 90 memories.
    await page.goto("/guestbook?offset=80");
    const items = page.getByRole("list", { name: "Shared memories" }).getByRole("listitem");
    await expect(items).toHaveCount(90);
    if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.getByRole("button", { name: "Load More Memories" }).click();
    await expect(items).toHaveCount(100);
    await expect(items.last()).toContainText("Guest 006");
    await expect(page.getByRole("button", { name: "Load More Memories" })).toHaveCount(0);

    await page.getByRole("link", { name: "Earlier memories →" }).click();
    await expect(page).toHaveURL(/\/guestbook\?before=[\w-]+#memories-title$/);
    await expect(items).toHaveCount(5);
    await expect(items.first()).toContainText("Guest 005");
    await expect(items.last()).toContainText("Guest 001");
    await expect(page.getByRole("link", { name: "Earlier memories →" })).toHaveCount(0);

    await page.getByRole("link", { name: "← Newest memories" }).first().click();
    await expect(page).toHaveURL(/\/guestbook#memories-title$/);
    await expect(items).toHaveCount(10);
    await expect(items.first()).toContainText("Guest 105");
  });

  test("a memory with markup is shown as text, never run", async ({ page }) => {
    removeAllMemories();
    const message = `<script>document.title="hacked"</script><img src=x onerror="document.title='hacked'">`;
    addMemory({ name: "<b>Bold</b>", message, status: "APPROVED" });
    await page.goto("/guestbook");
    await expect(page.getByText(message)).toBeVisible();
    await expect(page.getByText("<b>Bold</b>")).toBeVisible();
    await expect(page).not.toHaveTitle("hacked");
    expect(await page.locator("main img[src=x]").count()).toBe(0);
  });

  test("the page never contains a submitter's email or phone", async ({ page }) => {
    removeAllMemories();
    addMemory({ name: "Contact Person", email: "secret.person@example.com", phone: "555-777-9999", status: "APPROVED" });
    const response = await page.goto("/guestbook");
    const html = (await response?.text()) ?? "";
    expect(html).toContain("Contact Person");
    expect(html).not.toContain("secret.person@example.com");
    expect(html).not.toContain("555-777-9999");
  });
});

test.describe("guest book with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "toasts and in-place loading need JavaScript");

  test("the confirmation is a toast, and the button says Submitting... while sending", async ({ page }) => {
    await page.goto("/guestbook");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/guestbook\?.*_data=/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await fillForm(page, { name: uniqueName(), email: "toast@example.com", message: "A message for the toast test." });
    await page.getByRole("button", { name: "Submit Memory" }).click();
    await expect(page.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    release();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Memory Submitted");
    await expect(toast).toContainText("Thank you for sharing your memory. It will be reviewed before being published.");
    await expect(page.getByRole("button", { name: "Submit Memory" })).toBeEnabled();
    await expect(toast).toHaveCount(0, { timeout: 8000 });
  });

  test("Load More appends in place without reloading the page", async ({ page }) => {
    removeAllMemories();
    for (let i = 1; i <= 12; i++) addMemory({ name: `Guest ${String(i).padStart(2, "0")}`, status: "APPROVED" });
    await page.goto("/guestbook");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const apiCall = page.waitForRequest((r) => /\/api\/guestbook\?limit=10&before=[\w-]+$/.test(r.url()));
    await page.getByRole("button", { name: "Load More Memories" }).click();
    await apiCall;
    const items = page.getByRole("list", { name: "Shared memories" }).getByRole("listitem");
    await expect(items).toHaveCount(12);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await expect(page.getByRole("button", { name: "Load More Memories" })).toHaveCount(0);
  });

  test("a Load More that fails keeps the memories shown and says to try again", async ({ page }) => {
    removeAllMemories();
    for (let i = 1; i <= 12; i++) addMemory({ name: `Guest ${String(i).padStart(2, "0")}`, status: "APPROVED" });
    await page.goto("/guestbook");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.route("**/api/guestbook**", (route) => route.fulfill({ status: 503, body: "" }));
    await page.getByRole("button", { name: "Load More Memories" }).click();
    await expect(page.getByText("Couldn't load more — try again")).toBeVisible();
    const items = page.getByRole("list", { name: "Shared memories" }).getByRole("listitem");
    await expect(items).toHaveCount(10);
    await expect(page.getByRole("heading", { level: 1, name: "Guest Book" })).toBeVisible();
    await page.unroute("**/api/guestbook**");
    await page.getByRole("button", { name: "Load More Memories" }).click();
    await expect(items).toHaveCount(12);
    await expect(page.getByText("Couldn't load more — try again")).toHaveCount(0);
  });

  test("the browser checks the fields before sending and shows the same messages", async ({ page }) => {
    await page.goto("/guestbook");
    await page.getByLabel("Email *").fill("not-an-email");
    await page.getByLabel("Your Memory *").fill("short");
    await page.getByRole("button", { name: "Submit Memory" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByText("Valid email is required")).toBeVisible();
    await expect(page.getByText("Message must be at least 10 characters")).toBeVisible();
  });

  test("a refused submission comes back in place, without a reload, with focus on the summary of refused fields", async ({ page }) => {
    await page.goto("/guestbook");
    await fillForm(page, { name: uniqueName(), email: "someone@nowhere", message: "A message long enough to pass." });
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    await page.getByRole("button", { name: "Submit Memory" }).click();
    await expect(page.getByText("Valid email is required")).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "Please check:" })).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
    await expect(page.getByLabel("Your Memory *")).toHaveValue("A message long enough to pass.");
  });

  test("a failed submission shows the error toast", async ({ page }) => {
    await page.goto("/guestbook");
    await page.route(/\/guestbook\?.*_data=/, (route) =>
      route.request().method() === "POST"
        ? // What the server answers when it refuses a submission (Remix marks its data responses).
          route.fulfill({
            status: 400,
            contentType: "application/json",
            headers: { "X-Remix-Response": "yes" },
            body: JSON.stringify({ failed: true }),
          })
        : route.continue(),
    );
    await fillForm(page, { name: uniqueName(), email: "fail@example.com", message: "This one will not go through." });
    await page.getByRole("button", { name: "Submit Memory" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Error");
    await expect(toast).toContainText("Failed to submit memory. Please try again.");
    await expect(toast).toHaveAttribute("data-type", "destructive");
  });

  test("a dropped connection keeps what was typed and shows the error toast", async ({ page }) => {
    await page.goto("/guestbook");
    await page.route(/\/guestbook\?.*_data=/, (route) =>
      route.request().method() === "POST" ? route.abort("internetdisconnected") : route.continue(),
    );
    const name = uniqueName();
    await fillForm(page, { name, email: "offline@example.com", message: "Written while the connection dropped." });
    await page.getByRole("button", { name: "Submit Memory" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Failed to submit memory. Please try again.");
    await expect(memoryForm(page).getByLabel("Name *")).toHaveValue(name);
    await expect(page.getByLabel("Your Memory *")).toHaveValue("Written while the connection dropped.");
    await expect(page.getByRole("button", { name: "Submit Memory" })).toBeEnabled();
  });

  test("F8 moves focus to the notifications and a swipe right dismisses the toast", async ({ page }) => {
    await page.goto("/guestbook");
    await fillForm(page, { name: uniqueName(), email: "swipe@example.com", message: "Swipe this toast away please." });
    await page.getByRole("button", { name: "Submit Memory" }).click();
    const toast = page.getByTestId("toast");
    await expect(toast).toBeVisible();
    await page.keyboard.press("F8");
    await expect(page.getByRole("region", { name: "Notifications (F8)" })).toBeFocused();
    const box = (await toast.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 100, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(toast).toHaveCount(0);
  });
});

test.describe("guest book API", () => {
  test("POST /api/guestbook stores a pending memory and answers 201 with its id", async ({ request }) => {
    const response = await request.post("/api/guestbook", {
      data: { name: "Api Person", email: "api@example.com", phone: "", message: "Sent through the API.", canDisplay: true },
    });
    expect(response.status()).toBe(201);
    const body = await response.json();
    expect(typeof body.id).toBe("number");
    expect(latestMemory()).toMatchObject({ id: body.id, name: "Api Person", status: "PENDING", phone: null });
  });

  test("invalid input answers 400 with the field messages", async ({ request }) => {
    const response = await request.post("/api/guestbook", { data: { name: " ", email: "x", message: "short" } });
    expect(response.status()).toBe(400);
    expect(await response.json()).toEqual({
      errors: {
        name: ["Name is required"],
        email: ["Valid email is required"],
        message: ["Message must be at least 10 characters"],
      },
    });
  });

  test("GET /api/guestbook pages approved memories without contact details", async ({ request }) => {
    removeAllMemories();
    for (let i = 1; i <= 12; i++) addMemory({ name: `Page ${i}`, email: `p${i}@example.com`, status: "APPROVED" });
    const first = await request.get("/api/guestbook?limit=10&offset=0");
    expect(first.status()).toBe(200);
    const body = await first.json();
    expect(body).toHaveLength(10);
    expect(Object.keys(body[0]).sort()).toEqual(["createdAt", "id", "message", "name"]);
    expect(JSON.stringify(body)).not.toContain("@example.com");
    const second = await (await request.get("/api/guestbook?limit=10&offset=10")).json();
    expect(second).toHaveLength(2);
    expect((await request.get("/api/guestbook?limit=nope")).status()).toBe(400);
  });
});
