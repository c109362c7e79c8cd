import { type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { rsvps } from "../../db/schema";
import { db } from "~/platform/db.server";
import { expectNoAxeViolations } from "./support/axe";
import { chooseLanguages, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

// The attendance page in the visitor's language, with JavaScript and without:
// its words, a refused answer's errors, the thanks, and the language kept with
// the answer (the e-mails to the guest are written in it). Arabic reads right
// to left and fits a 320 px phone.

const rsvpsBy = (email: string) => db.select().from(rsvps).where(eq(rsvps.email, email)).all();
const uniqueEmail = () => `invitado-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function open(page: Page, language: string) {
  await page.setViewportSize({ width: 320, height: 720 });
  await page.goto(`/rsvp?lang=${language}`);
  if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

const noOverflow = (page: Page) =>
  expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

test.describe("the attendance page in the visitor's language", { tag: "@no-js" }, () => {
  test.beforeEach(() => chooseLanguages(["en", "es", "ar"]));
  test.afterEach(() => resetSiteSettings());

  test("in Spanish at 320 px: the words, a mistake's error, the thanks, and es kept with the answer", async ({ page }) => {
    await open(page, "es");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Asistencia al servicio conmemorativo");
    await expect(page).toHaveTitle(/^Asistencia al servicio conmemorativo \| /);
    await noOverflow(page);

    const email = uniqueEmail();
    await page.getByLabel("Nombre *").fill("   ");
    await page.getByLabel("Correo electrónico *").fill(email);
    await page.getByLabel("Número de personas, contándole a usted *").fill("11");
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(page.getByText("El nombre es obligatorio").first()).toBeVisible();
    await expect(page.getByText("El número de personas debe ser como máximo 10").first()).toBeVisible();
    await expect(page.getByText("Name is required")).toHaveCount(0);
    await expectNoAxeViolations(page);

    await page.getByLabel("Nombre *").fill("Tío Tomás");
    await page.getByLabel("Número de personas, contándole a usted *").fill("2");
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(page.getByTestId("toast").locator("p").first()).toHaveText("Gracias");
    await expect(page.getByTestId("toast")).toContainText(/La familia se alegrará de saber que (estuvo allí|vendrá)\./);
    expect(rsvpsBy(email)).toMatchObject([{ name: "Tío Tomás", guestCount: 2, language: "es" }]);
    await noOverflow(page);
    await expectNoAxeViolations(page);
  });

  test("in Arabic: right to left, without sideways scrolling at 320 px, errors in Arabic", async ({ page }) => {
    await open(page, "ar");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("حضور مراسم التأبين");
    await noOverflow(page);
    await expectNoAxeViolations(page);
    await page.getByLabel("البريد الإلكتروني *").fill("someone@nowhere");
    await page.getByRole("button", { name: "إرسال" }).click();
    await expect(page.getByText("يلزم بريد إلكتروني صالح").first()).toBeVisible();
    await noOverflow(page);
    await expectNoAxeViolations(page);
  });

  test("in English, as it always was, and en kept with the answer", async ({ page }) => {
    await open(page, "en");
    const email = uniqueEmail();
    await page.getByLabel("Name *").fill("Uncle Tom");
    await page.getByLabel("Email *").fill(email);
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByTestId("toast").locator("p").first()).toHaveText("Thank You");
    expect(rsvpsBy(email)).toMatchObject([{ language: "en" }]);
  });
});
