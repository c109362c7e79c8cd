import type { Messages } from "@lingui/core";
import { LANGUAGE_TAGS, type Language } from "./languages";

// Client-safe: the part of the catalogs a page's loaders send (`pageWords`
// in i18n.server.ts) and the translator its components use, the same on the
// server's render and in the browser, so hydration finds the same words.
//
// The messages come compiled by Lingui's compiler (i18n.server.ts); they are
// formatted here as Lingui's runtime formats them (its `interpolate`), in a
// few lines instead of its 2.4 KB: every page loads this code first, within
// the JavaScript budget. What the catalogs use: `{value}`, plural (`=0`,
// `offset`, `#`), selectordinal, select and number; a date is formatted
// before it goes into a message (docs/translations.md).

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
  // As Lingui asks Intl: the language, then English.
  const locales = [LANGUAGE_TAGS[language], "en"];
  const t = (id: string, values: MessageValues = {}) => {
    const message = messages[id];
    return message === undefined ? id : format(message as Token[] | string, values, locales);
  };
  return { language, t, tError: (english) => (errors[english] ? t(errors[english]) : english) };
}

/** A compiled message's part: words, `["name"]`, or `["name", "plural" | "select" | …, cases or style]`. */
type Token = string | [string, string?, unknown?];

/** Intl.PluralRules, where the browser has it (Safari before 13 has not: there "one" for 1, else "other"). */
function pluralForm(locales: string[], type: "cardinal" | "ordinal", count: number): string {
  if (typeof Intl.PluralRules !== "function") return count === 1 ? "one" : "other";
  return new Intl.PluralRules(locales, { type }).select(count);
}

function format(message: Token[] | string, values: MessageValues, locales: string[], number?: string): string {
  if (!Array.isArray(message)) return message;
  let text = "";
  for (const token of message) {
    if (typeof token === "string") {
      text += token === "#" && number !== undefined ? number : token;
      continue;
    }
    const [name, type, style] = token;
    const value = values[name];
    let part: unknown = value;
    if (type === "plural" || type === "selectordinal") {
      const cases = style as Record<string, Token[]> & { offset?: number };
      const count = Number(value) - (cases.offset ?? 0);
      const form = pluralForm(locales, type === "plural" ? "cardinal" : "ordinal", count);
      const chosen = cases[String(value)] ?? cases[form] ?? cases.other;
      part = format(chosen ?? "", values, locales, new Intl.NumberFormat(locales).format(count));
    } else if (type === "select") {
      const cases = style as Record<string, Token[]>;
      part = format(cases[String(value)] ?? cases.other ?? "", values, locales);
    } else if (type === "number") {
      part = new Intl.NumberFormat(
        locales,
        typeof style === "object" ? (style as Intl.NumberFormatOptions) : { style: style as "decimal" },
      ).format(value as number);
    }
    if (part != null) text += String(part);
  }
  return text;
}
