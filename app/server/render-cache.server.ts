import { getPrivacy } from "~/site/privacy.server";
import { isKarenModeOnIn } from "~/site/karen-mode.server";
import { languageOfHeaders } from "~/site/language.server";
import { ROBOTS_NOINDEX } from "~/server/visitor-gate.server";
import { isTextBrowser } from "~/utils/text-browser";

import { contentVersion } from "~/platform/db.server";
import { CANDLE_VISITOR_COOKIE } from "~/candles/candle-visitor.server";

// What the render cache in front of Remix (server/render-cache/,
// docs/decisions/015-render-cache.md) must know of the app: which requests
// may share a rendered answer, and what in them changes it. Everything else
// a page shows comes from the database and media storage, whose every change
// moves `contentVersion`, or from the clock (a cached answer lives at most a
// minute).

/**
 * Cookies whose effect the variant below names. Any other cookie (an admin
 * session, a flash message, the share page's recent uploads, one this code
 * has never heard of) may personalise the answer, so it keeps the request
 * out of the cache.
 */
const COOKIES_IN_VARIANT: ReadonlySet<string> = new Set(["karen_mode", "memorial_passcode", "lang"]);

/** Cookies no page or public answer reads: a visitor who has lit a candle still gets the shared copies. */
const COOKIES_NO_ANSWER_READS: ReadonlySet<string> = new Set([CANDLE_VISITOR_COOKIE]);

type CacheRequest = { url?: string; originalUrl?: string; headers: Record<string, string | string[] | undefined> };
type CacheResponse = { locals: Record<string, unknown> };

const header = (req: CacheRequest, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join("; ") : (value ?? "");
};

function onlyCookiesInVariant(cookieHeader: string) {
  for (const pair of cookieHeader.split(";")) {
    const name = pair.slice(0, pair.includes("=") ? pair.indexOf("=") : undefined).trim();
    if (name && !COOKIES_IN_VARIANT.has(name) && !COOKIES_NO_ANSWER_READS.has(name)) return false;
  }
  return true;
}

/**
 * Everything in this request, besides its address and the content version,
 * that changes what the site answers: whether the visitor of a private
 * memorial is let in (the visitor gate decided, from the passcode cookie of
 * the current passcode), Karen Mode, and a text browser (the root leaves the
 * spam trap and the audio fallback out for them), and the language it is
 * answered in (from the address, the visitor's choice and their browser's
 * languages, app/site/language.server.ts). Null when the answer may
 * be this visitor's own: it is rendered for them alone and never kept.
 */
export async function renderCacheVariant(req: CacheRequest, res: CacheResponse): Promise<string | null> {
  // The passcode page standing in for the page asked for names that page.
  if (res.locals.passcodeAskedFor !== undefined) return null;
  return variantOf(req, res.locals.visitorLocked === true);
}

async function variantOf(req: CacheRequest, locked: boolean): Promise<string | null> {
  const cookies = header(req, "cookie");
  if (cookies && !onlyCookiesInVariant(cookies)) return null;
  const karen = cookies.includes("karen_mode=") && (await isKarenModeOnIn(cookies));
  const text = isTextBrowser(header(req, "user-agent"));
  const language = await languageOfHeaders(req.originalUrl ?? req.url ?? "/", cookies || null, header(req, "accept-language") || null);
  return `${locked ? "locked" : "in"}${karen ? " karen" : ""}${text ? " text" : ""} ${language}`;
}

/** Where the visitor gate lets everyone in: the variant, the X-Robots-Tag the gate would add, and the content version. */
export interface CacheVisit {
  variant: string;
  robots: string | null;
  version: string;
}

/**
 * For the fast path ahead of Express and the visitor gate, so only where the
 * gate lets everyone in (never a private memorial). The visibility is read
 * under the same content version as the copy, which was made through the
 * gate, so the fast path cannot be more open than the gate was.
 */
export async function renderCacheVisit(req: CacheRequest): Promise<CacheVisit | null> {
  const version = contentVersion();
  const { visibility } = getPrivacy(version);
  if (visibility === "private") return null;
  const variant = await variantOf(req, false);
  return variant === null ? null : { variant, robots: visibility === "public" ? null : ROBOTS_NOINDEX, version };
}
