import { isLanguage, type Language } from "~/i18n/languages";
import { StoryInput } from "./life.schema";

// The family's life story in the site's other languages: the story itself
// is the main language's; a visitor reading a language without its own
// reads the main language's. Client-safe (the Life Story tab's forms).

/** language → the story in it: only what the family has written. */
export type StoryTranslations = Partial<Record<Language, { story: string }>>;
/** A change: an empty story (or null) removes a language's, so visitors read the main language's again. */
export type StoryTranslationsPatch = Partial<Record<Language, string | null>>;

export const STORY_TRANSLATION_INTENT = "story-translation";
export const storyTranslationAnchor = (language: Language) => `story-${language}`;

const NOT_A_LANGUAGE = "Each language must be one of en, es, fr, de, pt, pl, zh, ar";
const MAIN_LANGUAGE_STORY = "This is the main language: its text is the story itself";
const NOT_AN_OBJECT = 'Translations must be an object such as {"es": {"story": "…"}}';
const NOT_TEXT = "A translation must be text";

export type StoryTranslationsCheck = { ok: true; patch: StoryTranslationsPatch } | { ok: false; errors: Record<string, string[]> };

/** One language's story by the story's own rules; errors named `story.<language>`. */
function checkStory(language: Language, value: unknown, errors: Record<string, string[]>): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== "string") {
    errors[`story.${language}`] = [NOT_TEXT];
    return undefined;
  }
  const parsed = StoryInput.shape.story.safeParse(value);
  if (!parsed.success) {
    errors[`story.${language}`] = parsed.error.issues.map((issue) => issue.message);
    return undefined;
  }
  return parsed.data || null;
}

/**
 * A life story change's languages, `main` being the main language: `story`
 * may be language → text (the main language's entry is the story itself,
 * given back as `story`), and `translations: { es: { story: "…" } }`.
 */
export function splitStoryLanguages(
  story: unknown,
  translations: unknown,
  main: Language,
): { story: unknown; check: StoryTranslationsCheck } {
  const errors: Record<string, string[]> = {};
  const patch: StoryTranslationsPatch = {};
  let mainStory = story;
  if (story && typeof story === "object" && !Array.isArray(story)) {
    mainStory = undefined;
    for (const [language, text] of Object.entries(story)) {
      if (!isLanguage(language)) errors[`story.${language}`] = [NOT_A_LANGUAGE];
      else if (language === main) mainStory = text;
      else {
        const checked = checkStory(language, text, errors);
        if (checked !== undefined) patch[language] = checked;
      }
    }
  }
  if (translations !== undefined) {
    if (!translations || typeof translations !== "object" || Array.isArray(translations)) errors.translations = [NOT_AN_OBJECT];
    else
      for (const [language, texts] of Object.entries(translations)) {
        if (!isLanguage(language)) errors[`translations.${language}`] = [NOT_A_LANGUAGE];
        else if (language === main) errors[`translations.${language}`] = [MAIN_LANGUAGE_STORY];
        else if (!texts || typeof texts !== "object" || Array.isArray(texts)) errors[`translations.${language}`] = [NOT_AN_OBJECT];
        else {
          const { story: text, ...others } = texts as Record<string, unknown>;
          for (const name of Object.keys(others))
            errors[`translations.${language}.${name}`] = ["Only the story is written in each language"];
          if (text !== undefined) {
            const checked = checkStory(language, text, errors);
            if (checked !== undefined) patch[language] = checked;
          }
        }
      }
  }
  return { story: mainStory, check: Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, patch } };
}

/** Stored translations, each a story still within the rules. */
export function storedStoryTranslations(value: unknown): StoryTranslations {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const translations: StoryTranslations = {};
  for (const [language, entry] of Object.entries(value)) {
    const story = (entry as { story?: unknown } | null)?.story;
    if (!isLanguage(language) || typeof story !== "string" || !story) continue;
    const parsed = StoryInput.shape.story.safeParse(story);
    if (parsed.success && parsed.data) translations[language] = { story: parsed.data };
  }
  return translations;
}

export function mergeStoryTranslations(current: StoryTranslations, patch: StoryTranslationsPatch): StoryTranslations {
  const next: StoryTranslations = { ...current };
  for (const [language, story] of Object.entries(patch) as [Language, string | null][]) {
    if (story) next[language] = { story };
    else delete next[language];
  }
  return next;
}
