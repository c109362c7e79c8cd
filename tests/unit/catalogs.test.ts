// Every catalog (app/i18n/catalogs) against English, the spec's words: the
// same messages, each a valid ICU message with the same values, the plural
// forms its language needs, and translated (docs/translations.md).
import { parse, type Token } from "@messageformat/parser";
import { describe, expect, it } from "vitest";
import { pageWords, sourceMessages, translate } from "~/i18n/i18n.server";
import { LANGUAGES, LANGUAGE_TAGS, type Language } from "~/i18n/languages";
import { makeTranslator, NAMESPACES, PAGE_NAMESPACES } from "~/i18n/words";

const OTHERS = LANGUAGES.filter((language) => language !== "en");

/**
 * Words a translation may keep as English spells them, by language ("*":
 * all), each with its reason: names, and words these languages share with
 * English. A message may stay as it is when every word in it is one of these.
 */
const SAME_WORDS: Record<string, { languages: "*" | Language[]; why: string }> = {
  Karen: { languages: "*", why: "Karen Mode is the family's own name for the party mode" },
  Mode: { languages: "*", why: "Karen Mode is a name" },
  OK: { languages: "*", why: "understood everywhere" },
  Menu: { languages: ["fr", "pt", "pl"], why: "the word in French, Portuguese and Polish" },
  Notifications: { languages: ["fr"], why: "the French word" },
  F8: { languages: "*", why: "a key's name" },
  Name: { languages: ["de"], why: "the German word" },
  Video: { languages: ["es", "de"], why: "the Spanish (Latin American) and German word" },
  Videos: { languages: ["es", "de"], why: "the Spanish (Latin American) and German plural" },
  video: { languages: ["es"], why: "the Spanish word" },
  videos: { languages: ["es"], why: "the Spanish plural" },
  Photo: { languages: ["fr"], why: "the French word" },
  Photos: { languages: ["fr"], why: "the French plural" },
  photo: { languages: ["fr"], why: "the French word" },
  photos: { languages: ["fr"], why: "the French plural" },
  Error: { languages: ["es"], why: "the Spanish word" },
  Pause: { languages: ["fr", "de"], why: "the French and German word" },
  slide: { languages: ["pt"], why: "the word Brazilian Portuguese uses" },
};

/** The words a person reads in a message (its text, its plural and select cases), not its values' names. */
function readWords(tokens: Token[], into: string[] = []): string[] {
  for (const token of tokens) {
    if (token.type === "content") into.push(...(token.value.match(/[\p{L}\p{N}]+/gu) ?? []));
    if (token.type === "plural" || token.type === "select" || token.type === "selectordinal")
      for (const c of token.cases) readWords(c.tokens, into);
  }
  return into;
}

const mayStayEnglish = (language: Language, english: string) =>
  readWords(parsed(english, "en"))
    .filter((word) => /\p{L}{2,}/u.test(word))
    .every((word) => {
      const allowed = SAME_WORDS[word];
      return allowed !== undefined && (allowed.languages === "*" || allowed.languages.includes(language));
    });

/** The names of a message's values, and each plural or select's cases, found anywhere in it. */
function shape(tokens: Token[], into = { values: new Set<string>(), plurals: [] as { arg: string; keys: string[] }[] }) {
  for (const token of tokens) {
    if (token.type === "argument" || token.type === "function") into.values.add(token.arg);
    if (token.type === "plural" || token.type === "select" || token.type === "selectordinal") {
      into.values.add(token.arg);
      if (token.type !== "select") into.plurals.push({ arg: token.arg, keys: token.cases.map((c) => String(c.key)) });
      for (const c of token.cases) shape(c.tokens, into);
    }
  }
  return into;
}

/** A message parsed as `language` reads it (a plural case the language does not have is an error). */
const parsed = (message: string, language: Language) => {
  const cardinal = new Intl.PluralRules(LANGUAGE_TAGS[language]).resolvedOptions().pluralCategories;
  const ordinal = new Intl.PluralRules(LANGUAGE_TAGS[language], { type: "ordinal" }).resolvedOptions().pluralCategories;
  return parse(message, { cardinal, ordinal, strict: false });
};

/**
 * The plural forms a message in `language` must give. Spanish, French and
 * Portuguese have a "many" form for a million and more, which no count on
 * this site reaches: their "other" serves.
 */
const pluralCategories = (language: Language): string[] =>
  new Intl.PluralRules(LANGUAGE_TAGS[language])
    .resolvedOptions()
    .pluralCategories.filter((category) => !(category === "many" && ["es", "fr", "pt"].includes(language)));

const english = Object.fromEntries(NAMESPACES.map((namespace) => [namespace, sourceMessages("en", namespace)]));
const englishCount = Object.values(english).reduce((sum, messages) => sum + Object.keys(messages).length, 0);

it("the catalogs hold the site's words (a site this size has hundreds)", () => {
  expect(englishCount).toBeGreaterThan(300);
});

describe.each(NAMESPACES)("the %s catalog", (namespace) => {
  it("English messages are valid ICU MessageFormat", () => {
    for (const [id, message] of Object.entries(english[namespace]!)) expect(() => parsed(message, "en"), id).not.toThrow();
  });

  it.each(OTHERS)("%s has every English message and no other", (language) => {
    const own = sourceMessages(language, namespace);
    expect(Object.keys(own).sort(), `${namespace} in ${language}`).toEqual(Object.keys(english[namespace]!).sort());
  });

  it.each(OTHERS)("%s: each message is valid, keeps every value and gives the plural forms the language has", (language) => {
    const own = sourceMessages(language, namespace);
    const categories = pluralCategories(language);
    for (const [id, source] of Object.entries(english[namespace]!)) {
      const message = own[id];
      if (message === undefined) continue; // the test above names it
      expect(message.trim(), `${id} in ${language} is empty`).not.toBe("");
      expect(message, `${id} in ${language} is a placeholder`).not.toMatch(/\b(TODO|FIXME|TBD|XXX)\b|^\[.*\]$/);
      let translated;
      expect(() => (translated = shape(parsed(message, language))), `${id} in ${language}`).not.toThrow();
      const original = shape(parsed(source, "en"));
      expect([...translated!.values].sort(), `the values of ${id} in ${language}`).toEqual([...original.values].sort());
      for (const plural of translated!.plurals) {
        expect(plural.keys, `${id} in ${language}: a plural needs its "other" form`).toContain("other");
        const missing = categories.filter((category) => category !== "other" && !plural.keys.includes(category));
        // `=0`/`=1` cases may stand in for "zero"/"one".
        const covered = missing.filter(
          (category) => !(category === "zero" && plural.keys.includes("=0")) && !(category === "one" && plural.keys.includes("=1")),
        );
        expect(covered, `${id} in ${language}: the plural forms ${language} needs`).toEqual([]);
      }
    }
  });

  it.each(OTHERS)("%s: nothing is left in English", (language) => {
    const own = sourceMessages(language, namespace);
    const untranslated = Object.entries(english[namespace]!)
      .filter(([id, source]) => own[id] === source && !mayStayEnglish(language, source))
      .map(([id]) => id);
    expect(untranslated, `left in English in ${language}`).toEqual([]);
  });
});

describe("the browser's formatter (app/i18n/words.ts) against Lingui's runtime", () => {
  it("a page's messages use values and plurals alone, all the browser reads", () => {
    const kinds = (tokens: Token[]): string[] =>
      tokens.flatMap((token) =>
        token.type === "plural" || token.type === "select" || token.type === "selectordinal"
          ? [token.type, ...(token.pluralOffset ? ["offset"] : []), ...token.cases.flatMap((c) => kinds(c.tokens))]
          : token.type === "function"
            ? [token.key]
            : [],
      );
    for (const language of LANGUAGES)
      for (const namespace of PAGE_NAMESPACES)
        for (const [id, message] of Object.entries(sourceMessages(language, namespace)))
          expect(
            kinds(parsed(message, language)).filter((kind) => kind !== "plural"),
            `${id} in ${language}`,
          ).toEqual([]);
  });

  it.each(LANGUAGES)("every page message in %s reads the same from both, for every count", (language) => {
    const words = pageWords(language, PAGE_NAMESPACES);
    const { t } = makeTranslator(language, [words]);
    const lingui = translate(language);
    for (const namespace of PAGE_NAMESPACES)
      for (const [id, source] of Object.entries(english[namespace]!)) {
        const { values, plurals } = shape(parsed(source, "en"));
        const counted = new Set(plurals.map((plural) => plural.arg));
        for (const count of [0, 1, 2, 3, 5, 11, 22, 101, 1000]) {
          const sample = Object.fromEntries([...values].map((name) => [name, counted.has(name) ? count : `‹${name}›`]));
          expect(t(id, sample), `${id} in ${language} with ${count}`).toBe(lingui(id, sample));
        }
      }
  });
});
