import { type Page } from "@playwright/test";
import { content } from "~/content";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, chooseLanguages, publishLifeStory, removeLifeStory, resetSiteSettings } from "./support/data";
import { operator } from "~/platform/actor.server";
import { saveStoryTranslations } from "~/life/life-translations.server";
import { expect, test } from "./support/fixtures";

// The family chooses the site's languages in the Site tab and writes their
// own words in them, with JavaScript on and off (both projects run these);
// a visitor reading Spanish sees the family's Spanish, and the main
// language's text where there is no Spanish yet.

test.use({ viewport: { width: 390, height: 844 } });

test.beforeEach(() => resetSiteSettings());
test.afterEach(() => {
  removeLifeStory();
  resetSiteSettings();
});

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const SPANISH = "Translations: Español (Spanish)";
const ARABIC = "Translations: العربية (Arabic)";
const WELCOME_ES = "Gracias por acompañarnos en este día.";

test(
  "the family chooses English, Spanish and Arabic, writes the Spanish welcome, and a Spanish reader sees it",
  { tag: "@no-js" },
  async ({ page, login }) => {
    // Before the service, the home page shows the welcome message.
    await changeSiteSettings({ serviceStartsAt: "2099-06-01T15:00", serviceEndsAt: "2099-06-01T17:00" });
    await login(page, "/admin/site");
    await hydrated(page);
    const languages = section(page, "Languages");
    await expect(languages.getByRole("checkbox", { name: "English" })).toBeChecked();
    await expect(languages.getByRole("radio", { name: "English" })).toBeChecked();
    await expect(section(page, SPANISH)).toHaveCount(0);
    await languages.getByRole("checkbox", { name: "Español (Spanish)" }).check();
    await languages.getByRole("checkbox", { name: "العربية (Arabic)" }).check();
    await languages.getByRole("button", { name: "Save languages" }).click();
    await expect(section(page, "Languages").getByRole("status")).toContainText("Settings Saved.");
    await expect(section(page, "Languages").getByRole("checkbox", { name: "العربية (Arabic)" })).toBeChecked();

    // A form for each language other than the main one, every text marked missing.
    const spanish = section(page, SPANISH);
    await expect(spanish).toContainText("visitors read the English text instead");
    await expect(spanish.getByText("Missing: visitors read the English text.").first()).toBeVisible();
    await expect(spanish.getByText(`English: “${content.heroTitle}”`).first()).toBeVisible();
    await expect(section(page, ARABIC).getByLabel("Welcome message", { exact: true })).toHaveAttribute("dir", "rtl");
    const missingInArabic = await section(page, ARABIC).getByText("Missing: visitors read the English text.").count();

    await spanish.getByLabel("Welcome message", { exact: true }).fill(WELCOME_ES);
    await spanish.getByRole("button", { name: "Save the Spanish texts" }).click();
    await expect(section(page, SPANISH).getByRole("status")).toContainText("Settings Saved.");
    await expect(section(page, SPANISH).getByLabel("Welcome message", { exact: true })).toHaveValue(WELCOME_ES);
    // One text fewer is missing in Spanish; Arabic is as it was.
    await expect(section(page, SPANISH).getByText("Missing: visitors read the English text.")).toHaveCount(missingInArabic - 1);
    await expect(section(page, ARABIC).getByText("Missing: visitors read the English text.")).toHaveCount(missingInArabic);
    await expectNoAxeViolations(page);

    await page.goto("/?lang=es");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByText(WELCOME_ES)).toBeVisible();
    // Not translated: the family's English stands.
    await expect(page.getByText(content.serviceTitle, { exact: true }).first()).toBeVisible();
    await page.goto("/?lang=ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByText(WELCOME_ES)).toHaveCount(0);
    await expect(page.getByText(content.welcomeMessage.split("\n")[0]!)).toBeVisible();
  },
);

test("a bad translation is refused beside its field, and the family's typing is kept", { tag: "@no-js" }, async ({ page, login }) => {
  await login(page, "/admin/site");
  await hydrated(page);
  const languages = section(page, "Languages");
  await languages.getByRole("checkbox", { name: "Español (Spanish)" }).check();
  await languages.getByRole("button", { name: "Save languages" }).click();
  await expect(section(page, "Languages").getByRole("status")).toContainText("Settings Saved.");
  const spanish = section(page, SPANISH);
  await spanish.getByLabel("Button label", { exact: true }).fill("Donar ".repeat(20));
  await spanish.getByLabel("Welcome message", { exact: true }).fill(WELCOME_ES);
  await spanish.getByRole("button", { name: "Save the Spanish texts" }).click();
  await expect(section(page, SPANISH).getByText("Button label must be at most 100 characters").first()).toBeVisible();
  await expect(section(page, SPANISH).getByLabel("Welcome message", { exact: true })).toHaveValue(WELCOME_ES);
  await page.goto("/?lang=es");
  await expect(page.getByText(WELCOME_ES)).toHaveCount(0);
});

test.describe("the life story in Spanish and Arabic, at 320 px", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test(
    "a visitor reads the page's words in their language, and the family's story in it or in English",
    { tag: "@no-js" },
    async ({ page }) => {
      await chooseLanguages(["en", "es", "ar"]);
      publishLifeStory("She loved the sea and every boat on it.", [{ date: "1970", title: "Married in Cork", text: "A long summer." }]);
      saveStoryTranslations({ es: "Amaba el mar y cada barco que lo surcaba." }, operator("admin"));
      const fits = async () => {
        const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
        expect(scroll).toBeLessThanOrEqual(client!);
      };

      await page.goto("/life?lang=es");
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
      await expect(page.getByRole("heading", { level: 1, name: "Historia de vida" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "Cronología" })).toBeVisible();
      await expect(page.getByText("Amaba el mar y cada barco que lo surcaba.")).toBeVisible();
      await expect(page).toHaveTitle(/^Historia de vida \| /);
      await fits();
      await expectNoAxeViolations(page);

      await page.goto("/life?lang=ar");
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByRole("heading", { level: 1, name: "قصة الحياة" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "الخط الزمني" })).toBeVisible();
      // No Arabic story yet: the family's English.
      await expect(page.getByText("She loved the sea and every boat on it.")).toBeVisible();
      await fits();
      await expectNoAxeViolations(page);
    },
  );
});
