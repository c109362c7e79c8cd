// The languages the site can speak, and how each is written. Client-safe:
// the header's language list and <html lang dir> read these.

/** Every language with a catalog (app/i18n/catalogs), English first: the spec's words. */
export const LANGUAGES = ["en", "es", "fr", "de", "pt", "pl", "zh", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "en";

/** Each language named in itself, as the language list shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  de: "Deutsch",
  pt: "Português",
  pl: "Polski",
  zh: "简体中文",
  ar: "العربية",
};

/** The BCP 47 tag for `lang=""`, `hreflang` and `Intl` (Chinese is written in simplified characters). */
export const LANGUAGE_TAGS: Record<Language, string> = {
  en: "en",
  es: "es",
  fr: "fr",
  de: "de",
  pt: "pt",
  pl: "pl",
  zh: "zh-Hans",
  ar: "ar",
};

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set<Language>(["ar"]);

export const textDirection = (language: Language): "ltr" | "rtl" => (RIGHT_TO_LEFT.has(language) ? "rtl" : "ltr");

export const isLanguage = (value: unknown): value is Language =>
  typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);

/** The query parameter of a language link (`/?lang=es`) and the cookie that remembers the choice. */
export const LANGUAGE_PARAM = "lang";
export const LANGUAGE_COOKIE = "lang";

/** The languages a visitor may choose, as the root loader sends them. */
export interface LanguageChoice {
  code: Language;
  name: string;
  tag: string;
}

export const languageChoices = (languages: readonly Language[]): LanguageChoice[] =>
  languages.map((code) => ({ code, name: LANGUAGE_NAMES[code], tag: LANGUAGE_TAGS[code] }));
