import { parseWithZod } from "@conform-to/zod/v4";
import { type Page } from "@playwright/test";
import { MemoryFormSchema } from "~/guestbook/memory.schema";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { TOO_MANY_SUBMISSIONS } from "~/platform/submission-limit.server";
import { expectNoAxeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";

// The server's refusals (too many from one network, storage full) must reach
// the visitor: in the toast, in the form, with focus on the message. With
// JavaScript the answer arrives in place, so these stand in for the server's
// own 429 (its rule is tested in vitest) to keep other tests' allowance whole.

/** Answers the page's next form submission with the server's refusal, exactly as the action would. */
async function refuseNextSubmission(
  page: Page,
  path: string,
  schema: Parameters<typeof parseWithZod>[1]["schema"],
  fields: Record<string, string>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const result = parseWithZod(form, { schema }).reply({ formErrors: [TOO_MANY_SUBMISSIONS] });
  await page.route(`**${path}?_data=*`, (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 429,
          headers: { "Content-Type": "application/json", "Retry-After": "60", "X-Remix-Response": "yes" },
          body: JSON.stringify({ result, failed: true }),
        })
      : route.fallback(),
  );
}

const toast = (page: Page) => page.getByTestId("toast");

test.describe("refusals the visitor can see", () => {
  test.skip(
    ({ javaScriptEnabled }) => !javaScriptEnabled,
    "without JavaScript the refusal is a page of its own, with the message above the form",
  );

  test("a refused attendance note shows its reason in the toast and the form, and focus moves to it", async ({ page }) => {
    const fields = { name: "Aunt Rose", email: "rose@example.com", guestCount: "2", notes: "We sat at the back." };
    await page.goto("/rsvp");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await refuseNextSubmission(page, "/rsvp", RsvpSchema, fields);
    await page.getByLabel("Name *").fill(fields.name);
    await page.getByLabel("Email *").fill(fields.email);
    await page.getByRole("button", { name: "Send" }).click();

    await expect(toast(page)).toContainText(TOO_MANY_SUBMISSIONS);
    const alert = page.locator("form").getByRole("alert");
    await expect(alert).toContainText(TOO_MANY_SUBMISSIONS);
    await expect(alert).toBeFocused();
    await expect(alert).toBeInViewport();
    await expect(page.getByLabel("Name *")).toHaveValue(fields.name);
    await expectNoAxeViolations(page);
  });

  test("a refused memory says why in the toast, not only that it failed", async ({ page }) => {
    const fields = { name: "Ben", email: "ben@example.com", message: "The summer at the lake, always.", canDisplay: "on" };
    await page.goto("/guestbook");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await refuseNextSubmission(page, "/guestbook", MemoryFormSchema, fields);
    // The guest book's own form: "Leave a voice memory" beside it has a "Name *" too.
    await page.locator("form#guestbook").getByLabel("Name *").fill(fields.name);
    await page.getByLabel("Email *").fill(fields.email);
    await page.getByLabel("Your Memory *").fill(fields.message);
    await page.getByRole("button", { name: "Submit Memory" }).click();

    await expect(toast(page)).toContainText("Error");
    await expect(toast(page)).toContainText(TOO_MANY_SUBMISSIONS);
    const alert = page.locator("form").getByRole("alert");
    await expect(alert).toContainText(TOO_MANY_SUBMISSIONS);
    await expect(alert).toBeFocused();
    await expect(page.getByLabel("Your Memory *")).toHaveValue(fields.message);
  });
});
