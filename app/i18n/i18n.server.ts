import { setupI18n, type I18n, type Messages } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { CATALOGS } from "./catalogs/index.server";
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, type Language } from "./languages";
import type { Namespace, PageNamespace, PageWords } from "./words";

// The catalogs, compiled once (ICU MessageFormat, by Lingui's own compiler)
// and formatted by Lingui's runtime: on the server for what is sent whole
// (e-mails, toasts, the book, cards), and in the browser for what a page's
// components render, from the part of the catalog its loaders send
// (`pageWords`). A message missing from a language falls back to English,
// the spec's words.

type Catalog = Record<string, unknown>;

/** Every message of a catalog file, nested names joined with dots. */
function flatten(catalog: Catalog, prefix: string, into: Record<string, string>) {
  for (const [key, value] of Object.entries(catalog)) {
    const id = `${prefix}.${key}`;
    if (typeof value === "string") into[id] = value;
    else if (value && typeof value === "object") flatten(value as Catalog, id, into);
  }
  return into;
}

/** The source messages of one language and namespace (ids `<namespace>.<key>`). */
export function sourceMessages(language: Language, namespace: Namespace): Record<string, string> {
  return flatten((CATALOGS[namespace] as Record<Language, Catalog>)[language], namespace, {});
}

let compiled: Map<Language, Map<Namespace, Messages>> | undefined;

function compiledCatalogs() {
  if (compiled) return compiled;
  compiled = new Map();
  for (const language of LANGUAGES) {
    const namespaces = new Map<Namespace, Messages>();
    for (const namespace of Object.keys(CATALOGS) as Namespace[]) {
      const english = sourceMessages(DEFAULT_LANGUAGE, namespace);
      const own = sourceMessages(language, namespace);
      const messages: Messages = {};
      for (const [id, message] of Object.entries(english)) messages[id] = compileMessage(own[id] ?? message);
      namespaces.set(namespace, messages);
    }
    compiled.set(language, namespaces);
  }
  return compiled;
}

/** The compiled messages of `namespaces` in `language`, and its error messages by their English words. */
export function pageWords(language: Language, namespaces: readonly PageNamespace[]): PageWords {
  const catalogs = compiledCatalogs().get(language)!;
  const messages: Messages = {};
  const errors: Record<string, string> = {};
  for (const namespace of namespaces) {
    Object.assign(messages, catalogs.get(namespace));
    for (const [id, english] of Object.entries(sourceMessages(DEFAULT_LANGUAGE, namespace)))
      if (id.includes(".errors.")) errors[english] = id;
  }
  return { language, messages, errors };
}

const translators = new Map<Language, I18n>();

function translator(language: Language): I18n {
  let i18n = translators.get(language);
  if (!i18n) {
    const messages: Messages = {};
    for (const catalog of compiledCatalogs().get(language)!.values()) Object.assign(messages, catalog);
    i18n = setupI18n({ locale: LANGUAGE_TAGS[language], messages: { [LANGUAGE_TAGS[language]]: messages } });
    translators.set(language, i18n);
  }
  return i18n;
}

export type Translate = (id: string, values?: Record<string, unknown>) => string;

/** A message in `language`, for what the server sends whole: `t("mail.followConfirm.subject", { name })`. */
export function translate(language: Language): Translate {
  const i18n = translator(language);
  return (id, values) => i18n._(id, values);
}

/**
 * A visitor's error message (a schema's words, in English) in `language`:
 * the message with the same English words in any namespace's `errors`, or
 * the words as they are.
 */
export function translateError(language: Language, english: string): string {
  const id = englishErrors().get(english);
  return id ? translate(language)(id) : english;
}

let errorIds: Map<string, string> | undefined;
function englishErrors() {
  if (errorIds) return errorIds;
  errorIds = new Map();
  for (const namespace of Object.keys(CATALOGS) as Namespace[])
    for (const [id, english] of Object.entries(sourceMessages(DEFAULT_LANGUAGE, namespace)))
      if (id.includes(".errors.")) errorIds.set(english, id);
  return errorIds;
}
