import { useMatches } from "@remix-run/react";
import { Fragment, useMemo, type ReactNode } from "react";
import { DEFAULT_LANGUAGE, textDirection, type Language, type LanguageChoice } from "~/i18n/languages";
import { makeTranslator, type MessageValues, type PageWords, type Translator } from "~/i18n/words";

// The page's words for its components: every loader of the page may send
// `words` (app/i18n/i18n.server.ts `pageWords`), the root those of the
// header, footer and toasts; `useT` formats them, the same on the server and
// in the browser.

interface RootLanguage {
  language?: Language;
  languages?: LanguageChoice[];
}

type MatchLike = { id: string; data?: unknown };

/** A translator over the words of `matches` (for `meta` functions, which cannot use hooks). */
export function translatorFromMatches(matches: readonly MatchLike[]): Translator {
  const root = matches.find((match) => match.id === "root")?.data as RootLanguage | undefined;
  const words = matches.flatMap((match) => {
    const part = (match.data as { words?: PageWords } | null | undefined)?.words;
    return part ? [part] : [];
  });
  return makeTranslator(root?.language ?? DEFAULT_LANGUAGE, words);
}

/** `{ t, tError, language }` for the page being rendered. */
export function useT(): Translator {
  const matches = useMatches();
  // The router gives the same matches until a page's data changes: one translator per page's data.
  return useMemo(() => translatorFromMatches(matches), [matches]);
}

/** The page's language, its direction, and the family's languages a visitor may choose. */
export function useLanguage(): { language: Language; dir: "ltr" | "rtl"; languages: LanguageChoice[] } {
  const root = useMatches()[0]?.data as RootLanguage | undefined;
  const language = root?.language ?? DEFAULT_LANGUAGE;
  return { language, dir: textDirection(language), languages: root?.languages ?? [] };
}

const SLOT = "\u0000";

/**
 * A message whose values include elements (a link, a strong name): the
 * message is formatted with a marker for each and the elements are put in
 * its place, so each language orders the sentence its own way.
 */
export function tWith(t: Translator["t"], id: string, values: Record<string, ReactNode>): ReactNode {
  const nodes: ReactNode[] = [];
  const marked: MessageValues = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === "string" || typeof value === "number") marked[name] = value;
    else {
      marked[name] = `${SLOT}${nodes.length}${SLOT}`;
      nodes.push(value);
    }
  }
  const pieces = t(id, marked).split(SLOT);
  return pieces.map((piece, index) => <Fragment key={index}>{index % 2 === 1 ? nodes[Number(piece)] : piece}</Fragment>);
}
