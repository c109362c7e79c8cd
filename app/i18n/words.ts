import type { Messages } from "@lingui/core";
import { LANGUAGE_TAGS, type Language } from "./languages";

// Client-safe: the part of the catalogs a page's loaders send (`pageWords`
// in i18n.server.ts) and the translator its components use, the same on the
// server's render and in the browser, so hydration finds the same words.
//
// The messages come compiled by Lingui's compiler (i18n.server.ts); they are
// formatted here as Lingui's runtime formats them (its `interpolate`), in a
// few lines instead of its 2.4 KB: every page loads this code first, within
// the JavaScript budget. What a page's messages may use: `{value}` and
// plural (`=0`, `#`); a date or a number is formatted before it goes into a
// message (docs/translations.md). Messages the server alone sends (e-mails,
// the book, the keepsake, the cards) may use all of ICU: Lingui formats them.

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

/** The namespaces a page's loaders may send (their messages use `{value}` and plural alone). */
export const PAGE_NAMESPACES = [
  "candles",
  "common",
  "follow",
  "forms",
  "gallery",
  "guestbook",
  "home",
  "life",
  "poems",
  "rsvp",
  "share",
  "slideshow",
  "voices",
] as const satisfies readonly Namespace[];
export type PageNamespace = (typeof PAGE_NAMESPACES)[number];

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
  // As Lingui asks Intl: the language, then English.
  const locales = [LANGUAGE_TAGS[language], "en"];
  const t = (id: string, values: MessageValues = {}) => {
    const message = messages[id];
    return message === undefined ? id : format(message as Token[] | string, values, locales);
  };
  return { language, t, tError: (english) => (errors[english] ? t(errors[english]) : english) };
}

/** A compiled message's part: words, `["name"]`, or `["name", "plural", cases]`. */
type Token = string | [string, string?, Record<string, Token[]>?];

/** Intl.PluralRules, where the browser has it (Safari before 13 has not: there "one" for 1, else "other"). */
function pluralForm(locales: string[], count: number): string {
  if (typeof Intl.PluralRules !== "function") return count === 1 ? "one" : "other";
  return new Intl.PluralRules(locales).select(count);
}

function format(message: Token[] | string, values: MessageValues, locales: string[], number?: string): string {
  if (!Array.isArray(message)) return message;
  let text = "";
  for (const token of message) {
    if (typeof token === "string") {
      text += token === "#" && number !== undefined ? number : token;
      continue;
    }
    const [name, type, cases] = token;
    const value = values[name];
    if (type === "plural") {
      const count = Number(value);
      const chosen = cases![String(value)] || cases![pluralForm(locales, count)] || cases!.other;
      text += format(chosen || "", values, locales, new Intl.NumberFormat(locales).format(count));
    } else if (value != null) text += String(value);
  }
  return text;
}
