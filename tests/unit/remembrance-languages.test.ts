// The yearly reminders' words in each of the site's languages: a follower
// reading Spanish or Arabic gets the family's words in it, or the main
// language's where the family wrote none (for the reminders' e-mails).
import { beforeEach, describe, expect, it } from "vitest";
import { siteSettings } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { splitRemembranceLanguages } from "~/remembrance/remembrance.schema";
import { missingRemembranceWords, remembranceText, writeRemembrance, writeRemembranceTranslations } from "~/remembrance/remembrance.server";
import { chooseLanguages } from "../e2e/support/data";

beforeEach(() => {
  db.delete(siteSettings).run();
});

describe("remembranceText", () => {
  it("gives the family's words in the follower's language, else the main language's", async () => {
    await chooseLanguages(["en", "es", "ar"]);
    const keeper = operator("keeper");
    keeper.commit((tx) => writeRemembrance(tx, { words: "Light a candle with us." }, "keeper"));
    expect(missingRemembranceWords()).toEqual(["es", "ar"]);
    keeper.commit((tx) => writeRemembranceTranslations(tx, { es: "Encienda una vela con nosotros." }, "keeper"));
    expect(remembranceText("es")).toBe("Encienda una vela con nosotros.");
    expect(remembranceText("ar")).toBe("Light a candle with us.");
    expect(remembranceText("en")).toBe("Light a candle with us.");
    expect(missingRemembranceWords()).toEqual(["ar"]);
    keeper.commit((tx) => writeRemembranceTranslations(tx, { ar: "أشعلوا شمعة معنا.", es: null }, "keeper"));
    expect(remembranceText("ar")).toBe("أشعلوا شمعة معنا.");
    expect(remembranceText("es")).toBe("Light a candle with us.");
  });

  it("reads the main language's words as the words themselves, whichever it is", async () => {
    await chooseLanguages(["en", "es"], "es");
    operator("keeper").commit((tx) => {
      writeRemembrance(tx, { words: "Encienda una vela." }, "keeper");
      writeRemembranceTranslations(tx, { en: "Light a candle." }, "keeper");
    });
    expect(remembranceText("es")).toBe("Encienda una vela.");
    expect(remembranceText("en")).toBe("Light a candle.");
  });
});

describe("the words per language in a change", () => {
  it("takes words as language → text and translations, and refuses an unknown language or the main one", () => {
    const split = splitRemembranceLanguages(
      { words: { en: "Always.", es: "Siempre." }, translations: { ar: { words: "دائماً." } }, sendAt: "09:00" },
      "en",
    );
    expect(split).toEqual({ rest: { words: "Always.", sendAt: "09:00" }, patch: { es: "Siempre.", ar: "دائماً." }, errors: {} });
    const refused = splitRemembranceLanguages({ words: { xx: "?", es: "a".repeat(1001) }, translations: { en: { words: "x" } } }, "en");
    expect(refused.errors).toEqual({
      "words.xx": ["Each language must be one of en, es, fr, de, pt, pl, zh, ar"],
      "words.es": ["Your words must be at most 1,000 characters"],
      "translations.en": ["This is the main language: its words are the words themselves"],
    });
  });
});
