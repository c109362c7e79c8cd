// The browser's formatter of the catalogs' compiled messages (app/i18n/words.ts)
// gives exactly what Lingui's runtime gives (the server's e-mails and
// toasts use Lingui), in every plural form of the site's languages, and
// never throws where a browser lacks Intl.PluralRules.
import { setupI18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LANGUAGE_TAGS, LANGUAGES } from "~/i18n/languages";
import { makeTranslator } from "~/i18n/words";

const MESSAGES = [
  "Home",
  "Hi {name}!",
  "{count, plural, =0 {none} one {# photo} other {# photos}}",
  "{count, plural, one {{name}} other {{name} and # others}}",
  "{count, plural, zero {z} one {o} two {t} few {# f} many {# m} other {# x}}",
  "{count, plural, one {# photo from {name}} other {# things, {name}}}",
];
const messages = Object.fromEntries(MESSAGES.map((message, index) => [`test.m${index}`, compileMessage(message)]));

describe("the page's translator", () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each(LANGUAGES)("formats %s as Lingui does", (language) => {
    const tag = LANGUAGE_TAGS[language];
    const lingui = setupI18n({ locale: tag, messages: { [tag]: messages } });
    const { t } = makeTranslator(language, [{ language, messages, errors: {} }]);
    for (const count of [0, 1, 2, 3, 4, 5, 11, 12, 22, 101, 1000, 1234567, 1.5])
      for (const kind of ["photo", "video"])
        for (const id of Object.keys(messages)) {
          const values = { name: "Ann", count, kind };
          expect(t(id, values), `${id} ${count} ${kind}`).toBe(lingui._(id, values));
        }
    expect(t("test.missing")).toBe(lingui._("test.missing"));
  });

  it("finds an error message by its English words", () => {
    const { tError } = makeTranslator("es", [
      { language: "es", messages: { "x.errors.a": compileMessage("Hola") }, errors: { Hello: "x.errors.a" } },
    ]);
    expect(tError("Hello")).toBe("Hola");
    expect(tError("Something else")).toBe("Something else");
  });

  it("does not throw without Intl.PluralRules (Safari 12)", () => {
    vi.stubGlobal("Intl", Object.assign(Object.create(Intl) as typeof Intl, { PluralRules: undefined }));
    const { t } = makeTranslator("ar", [{ language: "ar", messages, errors: {} }]);
    expect(t("test.m2", { count: 1 })).toBe("1 photo");
    expect(t("test.m2", { count: 5 })).toMatch(/ photos$/);
  });
});
