import { useLocation } from "@remix-run/react";
import { LANGUAGE_PARAM, type Language } from "~/i18n/languages";
import { useLanguage, useT } from "./useT";
import * as s from "./LanguageList.css";

/** The page being read, in another language: its address with `?lang=xx` (the server remembers the choice). */
function inLanguage(pathname: string, search: string, code: Language) {
  const params = new URLSearchParams(search);
  params.set(LANGUAGE_PARAM, code);
  return `${pathname}?${params.toString()}`;
}

/**
 * The family's languages, each named in itself: plain links to this page in
 * that language (a new document, so every word and the page's direction
 * change together, with or without JavaScript). Nothing when the family
 * chose one language. `footer`: the footer's copy, a landmark of its own name.
 */
export function LanguageList({ footer = false }: { footer?: boolean }) {
  const { language, languages } = useLanguage();
  const { t } = useT();
  const { pathname, search } = useLocation();
  if (languages.length < 2) return null;
  return (
    <nav aria-label={t(footer ? "common.languages.footerLabel" : "common.languages.label")} className={footer ? s.footerNav : s.headerNav}>
      <ul className={s.list}>
        {languages.map((choice) => (
          <li key={choice.code}>
            {choice.code === language ? (
              <span lang={choice.tag} aria-current="true" className={s.current}>
                {choice.name}
              </span>
            ) : (
              <a href={inLanguage(pathname, search, choice.code)} lang={choice.tag} hrefLang={choice.tag} className={s.link}>
                {choice.name}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
