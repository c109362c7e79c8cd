import { lookForDueMail } from "~/mail/outbox.server";
import type { Transaction } from "~/platform/db.server";
import { getSiteSettings, getStoredValue, setStoredValue, STORED_KEYS } from "~/site/settings.server";
import type { Language } from "~/i18n/languages";
import {
  remembranceFrom,
  wordsTranslationsFrom,
  type Remembrance,
  type RemembrancePatch,
  type WordsTranslations,
  type WordsTranslationsPatch,
} from "./remembrance.schema";

// The family's yearly reminders, kept with the settings (one row of
// site_settings); read by the reminders, the calendar feed and the settings API.

/** The reminders as the family set them (each field still valid), over the defaults. */
export const getRemembrance = (tx?: Pick<Transaction, "select">): Remembrance =>
  remembranceFrom(getStoredValue(STORED_KEYS.remembrance, tx));

/** Writes a change to the reminders inside the caller's commit, returning what they become. */
export function writeRemembrance(tx: Transaction, patch: RemembrancePatch, by: string | null): Remembrance {
  const next = { ...getRemembrance(tx), ...patch };
  setStoredValue(tx, STORED_KEYS.remembrance, next, by);
  // A reminder due today may be due now: the sender looks once this commits.
  lookForDueMail();
  return next;
}

/** The reminders' words in the site's other languages (language → words), read inside `tx` when given. */
export const getRemembranceTranslations = (tx?: Pick<Transaction, "select">): WordsTranslations =>
  wordsTranslationsFrom(getStoredValue(STORED_KEYS.remembranceTranslations, tx));

/** Applies a change of the words' translations inside the caller's commit. */
export function writeRemembranceTranslations(tx: Transaction, patch: WordsTranslationsPatch, by: string | null) {
  if (Object.keys(patch).length === 0) return;
  const next: WordsTranslations = { ...getRemembranceTranslations(tx) };
  for (const [language, words] of Object.entries(patch) as [Language, string | null][]) {
    if (words) next[language] = words;
    else delete next[language];
  }
  setStoredValue(tx, STORED_KEYS.remembranceTranslations, Object.keys(next).length > 0 ? next : null, by);
}

/**
 * The family's words for a reminder to a follower reading `language`: theirs
 * in it, else the main language's (`""` when the family wrote none). For the
 * reminders' e-mails.
 */
export function remembranceText(language: Language, tx?: Pick<Transaction, "select">): string {
  const { words } = getRemembrance(tx);
  if (language === getSiteSettings().mainLanguage) return words;
  return getRemembranceTranslations(tx)[language] ?? words;
}

/** The site's languages but the main one that lack the family's words, when there are words in the main language. */
export function missingRemembranceWords(): Language[] {
  const { languages, mainLanguage } = getSiteSettings();
  const translations = getRemembranceTranslations();
  return getRemembrance().words ? languages.filter((language) => language !== mainLanguage && !translations[language]) : [];
}
