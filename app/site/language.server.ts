import { chooseLanguage, languageAsked, languageCookieHeader, type LanguageChosen } from "~/i18n/language.server";
import type { Language } from "~/i18n/languages";
import { getSiteView } from "./settings.server";

// The language a visitor's request is answered in, among the family's
// languages (the Site tab): app/i18n/language.server.ts chooses.

const chosen = new WeakMap<Request, Promise<LanguageChosen>>();

function choice(request: Request): Promise<LanguageChosen> {
  let answer = chosen.get(request);
  if (!answer) {
    answer = chooseLanguage(getSiteView(), languageAsked(request));
    chosen.set(request, answer);
  }
  return answer;
}

/** The language to answer `request` in (asked once per request). */
export async function visitorLanguage(request: Request): Promise<Language> {
  return (await choice(request)).language;
}

/** The Set-Cookie header that remembers a language chosen by a link (`?lang=es`), or null. */
export async function rememberLanguageHeader(request: Request): Promise<string | null> {
  const { language, remember } = await choice(request);
  return remember ? languageCookieHeader(language) : null;
}

/** The language of a request from headers alone (the render cache asks before Remix makes a Request). */
export async function languageOfHeaders(url: string, cookieHeader: string | null, acceptLanguage: string | null): Promise<Language> {
  const param = new URL(url, "http://localhost").searchParams.get("lang");
  return (await chooseLanguage(getSiteView(), { param, cookieHeader, acceptLanguage })).language;
}
