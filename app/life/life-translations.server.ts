import type { Actor } from "~/platform/actor.server";
import { db, type Transaction } from "~/platform/db.server";
import type { Language } from "~/i18n/languages";
import { getSiteSettings, getStoredValue, setStoredValue, STORED_KEYS } from "~/site/settings.server";
import { mergeStoryTranslations, storedStoryTranslations, type StoryTranslations, type StoryTranslationsPatch } from "./life-translations";

// The life story in the site's other languages, kept beside the settings
// (a row of site_settings): see app/life/life-translations.ts.

export const getStoryTranslations = (tx: Pick<Transaction, "select"> = db): StoryTranslations =>
  storedStoryTranslations(getStoredValue(STORED_KEYS.lifeTranslations, tx));

/** Applies `patch` inside the caller's commit, by `by`. */
export function writeStoryTranslations(tx: Transaction, patch: StoryTranslationsPatch, by: string | null) {
  if (Object.keys(patch).length === 0) return;
  const next = mergeStoryTranslations(getStoryTranslations(tx), patch);
  setStoredValue(tx, STORED_KEYS.lifeTranslations, Object.keys(next).length > 0 ? next : null, by);
}

export function saveStoryTranslations(patch: StoryTranslationsPatch, by: Actor) {
  by.commit((tx) => writeStoryTranslations(tx, patch, by.username));
}

/** The story as read in `language`: the family's own in it, or the main language's (`story`). */
export function storyIn(story: string, language: Language | undefined): string {
  if (!language || language === getSiteSettings().mainLanguage) return story;
  return getStoryTranslations()[language]?.story ?? story;
}

/** For each of the site's languages but the main one: whether the story is missing in it (the main language has one). */
export function missingStories(story: string): Language[] {
  const { languages, mainLanguage } = getSiteSettings();
  const translations = getStoryTranslations();
  return story ? languages.filter((language) => language !== mainLanguage && !translations[language]) : [];
}
