// The site's shell (header, footer, skip link, not-found and passcode pages)
// in the family's languages, on a 320 px phone, with JavaScript on and off:
// the language list in the header switches, the lang cookie keeps the
// choice, a first visit follows the browser's languages, and Arabic reads
// right to left without widening the page.
import { type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, chooseLanguages, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

test.use({ viewport: { width: 320, height: 640 } });

test.beforeEach(async () => {
  await chooseLanguages(["en", "es", "ar"]);
  await changeSiteSettings({ contactEmail: "family@example.org" });
});

test.afterEach(() => {
  resetSiteSettings();
});

const headerLanguages = (page: Page) => page.locator("header").getByRole("navigation", { name: /^(Languages|Idiomas|اللغات)$/ });

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

async function expectSpanishShell(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  await expect(page.locator('a[href="#main"]')).toHaveText("Saltar al contenido");
  await expect(page.locator("header summary")).toHaveText("Menú");
  const footer = page.getByRole("navigation", { name: "Pie de página" });
  await expect(footer.getByRole("link", { name: "Libro de condolencias", exact: true })).toHaveAttribute("href", "/guestbook");
  await expect(footer.getByRole("link", { name: "Administración", exact: true })).toBeVisible();
  await expect(page.locator("footer")).toContainText("¿Tiene preguntas? Escriba a la familia a");
}

test.describe("the language list", { tag: "@no-js" }, () => {
  test("names each language in itself, links to this page in it and marks the one being read", async ({ page }) => {
    await page.goto("/guestbook");
    const list = headerLanguages(page);
    await expect(list).toBeVisible();
    await expect(list.locator('[aria-current="true"]')).toHaveText("English");
    await expect(list.locator('[aria-current="true"]')).not.toHaveAttribute("href");
    const spanish = list.getByRole("link", { name: "Español" });
    await expect(spanish).toHaveAttribute("href", "/guestbook?lang=es");
    await expect(spanish).toHaveAttribute("lang", "es");
    await expect(spanish).toHaveAttribute("hreflang", "es");
    await expect(list.getByRole("link", { name: "العربية" })).toHaveAttribute("lang", "ar");
    await expect(list.getByRole("link")).toHaveCount(2);
    // The footer has the same list, under a name of its own.
    await expect(page.getByRole("navigation", { name: "Languages of this site" }).getByRole("link", { name: "Español" })).toBeVisible();
    // The header still fits the phone: the list is a small row of its own.
    await expectNoSidewaysScroll(page);
  });

  test("switches the header, footer and skip link to Spanish, and the cookie keeps it on the next page", async ({ page }) => {
    await page.goto("/");
    await headerLanguages(page).getByRole("link", { name: "Español" }).click();
    await expect(page).toHaveURL(/\/\?lang=es$/);
    await expectSpanishShell(page);
    await expect(headerLanguages(page).locator('[aria-current="true"]')).toHaveText("Español");
    await expectNoSidewaysScroll(page);
    // The next page, by a link without ?lang=, is still in Spanish.
    await page.getByRole("navigation", { name: "Pie de página" }).getByRole("link", { name: "Libro de condolencias", exact: true }).click();
    await expect(page).toHaveURL(/\/guestbook$/);
    await expectSpanishShell(page);
    // And back to English the same way.
    await headerLanguages(page).getByRole("link", { name: "English" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.locator('a[href="#main"]')).toHaveText("Skip to content");
  });

  test("is not shown when the family chose one language", async ({ page }) => {
    await chooseLanguages(["en"]);
    await page.goto("/?lang=es");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("navigation", { name: /Languages/ })).toHaveCount(0);
  });
});

test.describe("a first visit from a Spanish browser", { tag: "@no-js" }, () => {
  test.use({ locale: "es-ES" });

  test("is answered in Spanish", async ({ page }) => {
    await page.goto("/");
    await expectSpanishShell(page);
  });
});

test.describe("Arabic", { tag: "@no-js" }, () => {
  test("reads right to left without widening a 320 px page", async ({ page }) => {
    await page.goto("/?lang=ar");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator('a[href="#main"]')).toHaveText("انتقل إلى المحتوى");
    await expect(page.locator("header summary")).toHaveText("القائمة");
    await expectNoSidewaysScroll(page);
    await page.goto("/guestbook");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expectNoSidewaysScroll(page);
  });
});

test.describe("the not-found and passcode pages", { tag: "@no-js" }, () => {
  test("the not-found page speaks Spanish", async ({ page }) => {
    const response = await page.goto("/no-such-page?lang=es");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404 Página no encontrada");
    await expect(page).toHaveTitle("404 Página no encontrada");
    await expect(page.getByRole("link", { name: "Ir a la página de inicio" })).toHaveAttribute("href", "/");
    await expectNoSidewaysScroll(page);
  });

  test("the passcode page and its errors speak Spanish", async ({ page }) => {
    await changeSiteSettings({ visibility: "private", visitorPasscode: "Blue Heron" });
    const response = await page.goto("/gallery?lang=es");
    expect(response?.status()).toBe(401);
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByText("La familia comparte este homenaje en privado")).toBeVisible();
    await page.getByLabel("Código de acceso").fill("wrong words");
    await page.getByRole("button", { name: "Abrir el homenaje" }).click();
    await expect(page.getByText("Ese código de acceso no es correcto. Confírmelo con la familia y vuelva a intentarlo.")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expectNoSidewaysScroll(page);
  });
});

test.describe("accessibility in other languages", { tag: "@no-js" }, () => {
  for (const language of ["es", "ar"]) {
    test(`the home page in ${language} has no axe violations`, async ({ page }) => {
      await page.goto(`/?lang=${language}`);
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await expectNoAxeViolations(page);
    });
  }
});
