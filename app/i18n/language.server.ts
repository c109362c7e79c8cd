import { createCookie } from "@remix-run/node";
import Negotiator from "negotiator";
import { config } from "~/platform/config.server";
import { isLanguage, LANGUAGE_COOKIE, LANGUAGE_PARAM, LANGUAGE_TAGS, type Language } from "./languages";

// Which of the family's languages a visitor reads: the one a link names
// (`?lang=es`, as the printed cards and the language list give), else the
// one they chose before (a cookie, kept a year), else the best their
// browser asks for (Accept-Language), else the family's main language.

export interface SiteLanguages {
  languages: readonly Language[];
  mainLanguage: Language;
}

/** The visitor's choice, remembered in their browser only. */
const languageCookie = createCookie(LANGUAGE_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: config.NODE_ENV === "production",
  maxAge: 365 * 24 * 60 * 60,
});

export interface LanguageAsked {
  /** The `lang` parameter of the address, if any. */
  param: string | null;
  cookieHeader: string | null;
  acceptLanguage: string | null;
}

export interface LanguageChosen {
  language: Language;
  /** The address named a language the visitor had not chosen before: remember it. */
  remember: boolean;
}

export async function chooseLanguage(site: SiteLanguages, asked: LanguageAsked): Promise<LanguageChosen> {
  const offered = (code: unknown): code is Language => isLanguage(code) && site.languages.includes(code);
  const remembered = asked.cookieHeader?.includes("lang=") ? ((await languageCookie.parse(asked.cookieHeader)) as unknown) : null;
  if (offered(asked.param)) return { language: asked.param, remember: asked.param !== remembered };
  if (offered(remembered)) return { language: remembered, remember: false };
  return { language: browserLanguage(site, asked.acceptLanguage) ?? site.mainLanguage, remember: false };
}

/** The family's language the browser prefers most (`zh-CN` or `zh` asks for Chinese, `es-MX` for Spanish). */
function browserLanguage(site: SiteLanguages, acceptLanguage: string | null): Language | undefined {
  if (!acceptLanguage || site.languages.length < 2) return undefined;
  // Every tag a family language answers to: its own code, and its Intl tag.
  const answers = new Map<string, Language>();
  for (const language of site.languages) {
    answers.set(language, language);
    answers.set(LANGUAGE_TAGS[language].toLowerCase(), language);
  }
  const asked = new Negotiator({ headers: { "accept-language": acceptLanguage } }).languages();
  for (const tag of asked) {
    const lower = tag.toLowerCase();
    const match = answers.get(lower) ?? answers.get(lower.split("-")[0]!);
    if (match) return match;
    if (lower === "*") return undefined;
  }
  return undefined;
}

/** What a request asks of the language, from its address and headers. */
export function languageAsked(request: Request): LanguageAsked {
  return {
    param: new URL(request.url).searchParams.get(LANGUAGE_PARAM),
    cookieHeader: request.headers.get("Cookie"),
    acceptLanguage: request.headers.get("Accept-Language"),
  };
}

/** The Set-Cookie header that remembers a visitor's language. */
export const languageCookieHeader = (language: Language) => languageCookie.serialize(language);
