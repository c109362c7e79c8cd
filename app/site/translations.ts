import { isLanguage, LANGUAGES, type Language } from "~/i18n/languages";
import { SettingsFields, type SettingField, type SiteSettings } from "./settings.schema";

// The family's own words in the site's other languages. The settings hold
// the main language's text; a translation is kept per language and field,
// and a visitor reading a language without one reads the main language's
// text. Client-safe (the Site tab's translation forms use these).

/** The settings the family writes in words, which may be given in each language (names, addresses, links and dates are not). */
export const TRANSLATABLE_FIELDS = [
  "siteTitle",
  "siteDescription",
  "heroTitle",
  "heroSubtitle",
  "heroImageAlt",
  "welcomeMessage",
  "welcomeMessageAfter",
  "serviceTitle",
  "venueName",
  "serviceNote",
  "privacyNote",
  "donationTitle",
  "donationText",
  "donationButtonLabel",
] as const satisfies readonly SettingField[];

export type TranslatableField = (typeof TRANSLATABLE_FIELDS)[number];

/** language → field → text: only what the family has written. */
export type Translations = Partial<Record<Language, Partial<Record<TranslatableField, string>>>>;

/** A change of translations: an empty text (or null) removes one, so visitors read the main language's text again. */
export type TranslationsPatch = Partial<Record<Language, Partial<Record<TranslatableField, string | null>>>>;

/** The Site tab's form of one language's translations: the `section` it posts, and its anchor. */
export const TRANSLATIONS_SECTION = "translations";
export const translationsAnchor = (language: Language) => `${TRANSLATIONS_SECTION}-${language}`;

/** A refused translations form, sent back with what was typed. */
export interface TranslationsReply {
  section: typeof TRANSLATIONS_SECTION;
  language: Language;
  values: Record<string, string>;
  errors: Record<string, string[]>;
}

const isTranslatableField = (value: string): value is TranslatableField => (TRANSLATABLE_FIELDS as readonly string[]).includes(value);

const NOT_A_LANGUAGE = `Each language must be one of ${LANGUAGES.join(", ")}`;
const NOT_TRANSLATABLE = "This setting is not written in words, so it has no translations";
const MAIN_LANGUAGE_TEXT = "This is the main language: its text is the setting itself";
const NOT_TEXT = "A translation must be text";
const NOT_AN_OBJECT = 'Translations must be an object such as {"es": {"welcomeMessage": "…"}}';

export type TranslationCheck = { ok: true; patch: TranslationsPatch } | { ok: false; errors: Record<string, string[]> };

/**
 * Checks one translation by the setting's own rules (errors named
 * `<field>.<language>`): an empty one is a removal.
 */
function checkOne(
  field: TranslatableField,
  language: Language,
  value: unknown,
  errors: Record<string, string[]>,
): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== "string") {
    errors[`${field}.${language}`] = [NOT_TEXT];
    return undefined;
  }
  if (value.trim() === "") return null;
  const parsed = SettingsFields.shape[field].safeParse(value);
  if (!parsed.success) {
    errors[`${field}.${language}`] = [...new Set(parsed.error.issues.map((issue) => issue.message))];
    return undefined;
  }
  return (parsed.data as string | undefined) || null;
}

/** `translations: { es: { welcomeMessage: "…" } }` as the API takes it, `main` being the main language after the change. */
export function checkTranslations(value: unknown, main: Language): TranslationCheck {
  if (value === undefined) return { ok: true, patch: {} };
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, errors: { translations: [NOT_AN_OBJECT] } };
  const errors: Record<string, string[]> = {};
  const patch: TranslationsPatch = {};
  for (const [language, texts] of Object.entries(value)) {
    if (!isLanguage(language)) {
      errors[`translations.${language}`] = [NOT_A_LANGUAGE];
      continue;
    }
    if (language === main) {
      errors[`translations.${language}`] = [MAIN_LANGUAGE_TEXT];
      continue;
    }
    if (!texts || typeof texts !== "object" || Array.isArray(texts)) {
      errors[`translations.${language}`] = [NOT_AN_OBJECT];
      continue;
    }
    for (const [field, text] of Object.entries(texts as Record<string, unknown>)) {
      if (!isTranslatableField(field)) {
        errors[`translations.${language}.${field}`] = [NOT_TRANSLATABLE];
        continue;
      }
      const checked = checkOne(field, language, text, errors);
      if (checked !== undefined) (patch[language] ??= {})[field] = checked;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, patch };
}

/**
 * A body's per-language settings, `{ "welcomeMessage": { "en": "…", "es": "…" } }`:
 * the main language's entry becomes the setting (left in `body`), the others
 * translations. Fields given as plain text are left as they are.
 */
export function splitLanguageObjects(
  body: Record<string, unknown>,
  main: Language,
): { body: Record<string, unknown>; translations: Record<string, Record<string, unknown>>; errors: Record<string, string[]> } {
  const rest: Record<string, unknown> = {};
  const translations: Record<string, Record<string, unknown>> = {};
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!isTranslatableField(key) || !value || typeof value !== "object" || Array.isArray(value)) {
      rest[key] = value;
      continue;
    }
    for (const [language, text] of Object.entries(value as Record<string, unknown>)) {
      if (!isLanguage(language)) errors[`${key}.${language}`] = [NOT_A_LANGUAGE];
      else if (language === main) rest[key] = text;
      else (translations[language] ??= {})[key] = text;
    }
  }
  return { body: rest, translations, errors };
}

/** Stored translations, each still valid by its setting's rules (anything else is dropped, as a stored setting falls back). */
export function storedTranslations(value: unknown): Translations {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const translations: Translations = {};
  for (const [language, texts] of Object.entries(value)) {
    if (!isLanguage(language) || !texts || typeof texts !== "object") continue;
    for (const [field, text] of Object.entries(texts as Record<string, unknown>)) {
      if (!isTranslatableField(field) || typeof text !== "string" || text === "") continue;
      const parsed = SettingsFields.shape[field].safeParse(text);
      if (parsed.success && parsed.data) (translations[language] ??= {})[field] = parsed.data as string;
    }
  }
  return translations;
}

/** `current` with `patch` applied: empty languages are left out. */
export function mergeTranslations(current: Translations, patch: TranslationsPatch): Translations {
  const next: Translations = structuredClone(current);
  for (const [language, texts] of Object.entries(patch) as [Language, Partial<Record<TranslatableField, string | null>>][]) {
    const entry = { ...next[language] };
    for (const [field, text] of Object.entries(texts) as [TranslatableField, string | null][]) {
      if (text) entry[field] = text;
      else delete entry[field];
    }
    if (Object.keys(entry).length > 0) next[language] = entry;
    else delete next[language];
  }
  return next;
}

/** For each of the site's languages other than the main one: the texts the family has written in the main language but not in it. */
export function missingTranslations(settings: SiteSettings, translations: Translations): Partial<Record<Language, TranslatableField[]>> {
  return Object.fromEntries(
    settings.languages
      .filter((language) => language !== settings.mainLanguage)
      .map((language) => [language, TRANSLATABLE_FIELDS.filter((field) => settings[field] && !translations[language]?.[field])]),
  );
}

/** The settings as read in `language`: each translation over the main language's text. */
export function translatedSettings<T extends SiteSettings>(settings: T, translations: Translations, language: Language): T {
  if (language === settings.mainLanguage) return settings;
  return { ...settings, ...translations[language] };
}
