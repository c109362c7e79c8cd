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

interface Compiled {
  /** Each language's compiled messages, by namespace (English standing in for a message a language lacks). */
  messages: Map<Language, Map<Namespace, Messages>>;
  /** Each namespace's error messages: the id of each, by its English words. */
  errors: Map<Namespace, Record<string, string>>;
}

let compiled: Compiled | undefined;

/** The catalogs compiled, once: English is read once per namespace. */
function compiledCatalogs(): Compiled {
  if (compiled) return compiled;
  const messages = new Map(LANGUAGES.map((language) => [language, new Map<Namespace, Messages>()]));
  const errors = new Map<Namespace, Record<string, string>>();
  for (const namespace of Object.keys(CATALOGS) as Namespace[]) {
    const english = sourceMessages(DEFAULT_LANGUAGE, namespace);
    for (const language of LANGUAGES) {
      const own = language === DEFAULT_LANGUAGE ? english : sourceMessages(language, namespace);
      const compiledOwn: Messages = {};
      for (const [id, message] of Object.entries(english)) compiledOwn[id] = compileMessage(own[id] ?? message);
      messages.get(language)!.set(namespace, compiledOwn);
    }
    errors.set(
      namespace,
      Object.fromEntries(Object.entries(english).flatMap(([id, words]) => (id.includes(".errors.") ? [[words, id]] : []))),
    );
  }
  compiled = { messages, errors };
  return compiled;
}

/** The compiled messages of `namespaces` in `language`, and its error messages by their English words. */
export function pageWords(language: Language, namespaces: readonly PageNamespace[]): PageWords {
  const { messages: catalogs, errors: errorsOf } = compiledCatalogs();
  const messages: Messages = {};
  const errors: Record<string, string> = {};
  for (const namespace of namespaces) {
    Object.assign(messages, catalogs.get(language)!.get(namespace));
    Object.assign(errors, errorsOf.get(namespace));
  }
  return { language, messages, errors };
}

const translators = new Map<Language, I18n>();

function translator(language: Language): I18n {
  let i18n = translators.get(language);
  if (!i18n) {
    const messages: Messages = {};
    for (const catalog of compiledCatalogs().messages.get(language)!.values()) Object.assign(messages, catalog);
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
  errorIds ??= new Map([...compiledCatalogs().errors.values()].flatMap((errors) => Object.entries(errors)));
  return errorIds;
}
