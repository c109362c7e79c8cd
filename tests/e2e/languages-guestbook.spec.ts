// The guest book and the poems page in the visitor's language: a visitor who
// chose Spanish signs the guest book on a phone, with and without JavaScript,
// reads what to change in Spanish beside the field, and is thanked in
// Spanish; the memory keeps her language. Arabic reads right to left.
import { type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { hydrated } from "./support/admin";
import { addPoem, chooseLanguages, latestMemory, removeAllMemories, removeAllPoems, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

const memoryForm = (page: Page) => page.locator("form#guestbook");

const DAY = 24 * 60 * 60 * 1000;

async function noHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe("the guest book in the visitor's language", { tag: "@no-js" }, () => {
  test.describe.configure({ mode: "serial" });
  test.use({ viewport: { width: 320, height: 800 } });

  test.beforeEach(async () => {
    await chooseLanguages(["en", "es", "ar"]);
  });
  test.afterEach(() => {
    resetSiteSettings();
    removeAllPoems();
  });

  test("a visitor signs in Spanish, corrects a mistake in Spanish, and is thanked in Spanish", async ({ page }) => {
    removeAllMemories();
    const javaScript = test.info().project.use.javaScriptEnabled !== false;
    await page.goto("/guestbook?lang=es");
    if (javaScript) await hydrated(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1, name: "Libro de visitas" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Escriba un mensaje" })).toBeVisible();

    const message = `Siempre nos recibía con una sonrisa ${Math.random().toString(36).slice(2, 8)}.`;
    await memoryForm(page).getByLabel("Correo electrónico *").fill("maria@example.com");
    await memoryForm(page).getByLabel("Su recuerdo *").fill(message);
    await memoryForm(page).getByRole("button", { name: "Enviar recuerdo" }).click();

    // The name was left out: said in Spanish beside the field, and named in the summary above the form.
    await expect(page.locator("#guestbook-name-error")).toHaveText("El nombre es obligatorio");
    await expect(memoryForm(page).getByLabel("Nombre *")).toHaveAttribute("aria-invalid", "true");
    await expect(memoryForm(page).getByRole("alert")).toContainText("Por favor, revise:");
    await expect(memoryForm(page).getByRole("alert").getByRole("link", { name: "Nombre" })).toBeVisible();
    // What she typed is kept.
    await expect(memoryForm(page).getByLabel("Su recuerdo *")).toHaveValue(message);
    await expect(memoryForm(page).getByLabel("Correo electrónico *")).toHaveValue("maria@example.com");
    await noHorizontalOverflow(page);
    await expectNoAxeViolations(page);

    await memoryForm(page).getByLabel("Nombre *").fill("María");
    await memoryForm(page).getByRole("button", { name: "Enviar recuerdo" }).click();
    await expect(page.getByTestId("toast")).toContainText("Recuerdo enviado");
    await expect(page.getByTestId("toast")).toContainText("Gracias por compartir su recuerdo.");
    const stored = latestMemory();
    expect(stored?.message).toBe(message);
    expect(stored?.language).toBe("es");
  });

  test("the guest book reads right to left in Arabic on a phone", async ({ page }) => {
    await page.goto("/guestbook?lang=ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.getByRole("heading", { level: 1, name: "سجل الزوار" })).toBeVisible();
    await expect(memoryForm(page).getByRole("button", { name: "إرسال الذكرى" })).toBeVisible();
    await noHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });

  test("the poems page says in Spanish when each poem was added", async ({ page }) => {
    removeAllPoems();
    addPoem({ title: "Cruzando la barra", author: "Alfred Tennyson", addedAt: Date.now() - 3 * DAY - 60 * 60 * 1000 });
    await page.goto("/poems?lang=es");
    await expect(page.getByRole("heading", { level: 1, name: "Poemas y escritos" })).toBeVisible();
    await expect(page.getByText("De Alfred Tennyson")).toBeVisible();
    await expect(page.getByText("Añadido hace 3 días")).toBeVisible();
    await noHorizontalOverflow(page);
    await expectNoAxeViolations(page);
  });

  test("the poems page reads right to left in Arabic", async ({ page }) => {
    removeAllPoems();
    addPoem({ title: "قصيدة", addedAt: Date.now() - 3 * DAY - 60 * 60 * 1000 });
    await page.goto("/poems?lang=ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByText(new Intl.RelativeTimeFormat("ar").format(-3, "day"))).toBeVisible();
    await noHorizontalOverflow(page);
  });
});
