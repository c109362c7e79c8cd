import { setupI18n, type Messages } from "@lingui/core";
import { LANGUAGE_TAGS, type Language } from "./languages";

// Client-safe: the part of the catalogs a page's loaders send (`pageWords`
// in i18n.server.ts) and the translator its components use, the same on the
// server's render and in the browser, so hydration finds the same words.

/** The catalogs' namespaces (folders of app/i18n/catalogs). */
export const NAMESPACES = [
  "book",
  "candles",
  "cards",
  "common",
  "follow",
  "forms",
  "gallery",
  "guestbook",
  "home",
  "keepsake",
  "life",
  "mail",
  "poems",
  "rsvp",
  "share",
  "slideshow",
  "voices",
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** What a loader sends as `words`: compiled messages, and the ids of error messages by their English words. */
export interface PageWords {
  language: Language;
  messages: Messages;
  errors: Record<string, string>;
}

export type MessageValues = Record<string, unknown>;

export interface Translator {
  language: Language;
  /** A message by its id (`guestbook.form.name`), formatted with `values`. */
  t: (id: string, values?: MessageValues) => string;
  /** An error message a schema gave in English, in the page's language (the words as they are if no catalog has them). */
  tError: (english: string) => string;
}

/** One translator over every `words` of a page (the root's and its route's). */
export function makeTranslator(language: Language, words: readonly PageWords[]): Translator {
  const messages: Messages = {};
  const errors: Record<string, string> = {};
  for (const part of words) {
    Object.assign(messages, part.messages);
    Object.assign(errors, part.errors);
  }
  const tag = LANGUAGE_TAGS[language];
  const i18n = setupI18n({ locale: tag, messages: { [tag]: messages } });
  const t = (id: string, values?: MessageValues) => i18n._(id, values);
  return { language, t, tError: (english) => (errors[english] ? t(errors[english]) : english) };
}
