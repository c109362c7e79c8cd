import { LANGUAGE_PARAM } from "~/i18n/languages";
import { PASSCODE_NEEDED } from "~/site/passcode.schema";
import { mayEnterPrivateSite } from "~/site/visitor-passcode.server";
import { getPrivacy } from "~/site/privacy.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { isTextBrowser } from "~/utils/text-browser";

// The family's `visibility` setting, applied to every request before anything
// answers it (docs/decisions/010-visitor-gate.md, docs/privacy.md). Whatever
// is not listed as open below is closed, so a new route is covered without
// anyone remembering to.

export const ROBOTS_NOINDEX = "noindex, nofollow";
const PASSCODE_PAGE = "/passcode";

/** Open to everyone, and no page: fingerprinted assets, the icon, the health check. */
const OPEN_ASSETS = /^\/(?:build\/|favicon\.(?:svg|ico)$|healthz$)/;
/**
 * Open to everyone: the admin panel and its API (they have their own login), robots.txt, the passcode
 * page, and the unsubscribe and follow-confirmation links of e-mails (the token is the proof; nothing
 * of the memorial is shown but its name).
 */
const OPEN_PAGES = /^\/(?:admin(?:\/|$)|api\/admin(?:\/|$)|robots\.txt$|passcode$|unsubscribe\/[^/]+$|follow\/[^/]+$)/;
const API = /^\/api(?:\/|$)/;
/** Where the browser app asks which routes serve the addresses it may visit (Remix's lazy route discovery). */
const ROUTE_MANIFEST = "/__manifest";
const MEDIA = /^\/media(?:\/|$)/;
/** A last path segment with an extension (`/service.ics`, `/images/hero.jpg`): a file rather than a page. */
const FILE_NAME = /\.[A-Za-z0-9]{1,8}$/;

type GateRequest = {
  method?: string;
  url?: string;
  originalUrl?: string;
  headers: Record<string, string | string[] | undefined>;
};
type GateResponse = {
  locals: Record<string, unknown>;
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  getHeader(name: string): unknown;
  removeHeader(name: string): unknown;
  writeHead: (...args: never[]) => unknown;
  end(body?: string): unknown;
};

/**
 * The address as Remix will see it: the request's raw target after the
 * site's origin, read by the URL parser, so "/admin/../guestbook" and
 * "/admin/%2e%2e/guestbook" are the guest book here as they are there.
 * Null when it cannot be read (never open).
 */
function addressOf(req: GateRequest): URL | null {
  try {
    return new URL(`http://gate.invalid${req.originalUrl ?? req.url ?? "/"}`);
  } catch {
    return null;
  }
}

const header = (req: GateRequest, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
};

function answer(res: GateResponse, status: number, type: string, body: string) {
  res.statusCode = status;
  res.setHeader("Content-Type", type);
  res.setHeader("Cache-Control", PRIVATE_NO_STORE);
  res.end(body);
}

/**
 * What a private memorial sends its visitors must not stay in a shared cache
 * (a proxy, a CDN) for the next person: "public" caching becomes "private",
 * an answer that names neither (the calendar file's "no-cache", a form
 * page's "no-store") becomes "private" too, and no CDN is told to keep it.
 */
function keepOutOfSharedCaches(res: GateResponse) {
  const writeHead = res.writeHead as (...args: unknown[]) => unknown;
  res.writeHead = ((...args: unknown[]) => {
    const cacheControl = res.getHeader("Cache-Control");
    if (typeof cacheControl === "string" && !/\bprivate\b/i.test(cacheControl)) {
      res.setHeader(
        "Cache-Control",
        /\bpublic\b/i.test(cacheControl) ? cacheControl.replace(/\bpublic\b/gi, "private") : `private, ${cacheControl}`,
      );
    }
    res.removeHeader("CDN-Cache-Control");
    return writeHead.apply(res, args);
  }) as GateResponse["writeHead"];
}

/**
 * Whether every address the browser app asks routes for (`?p=`) is open:
 * the admin panel's own pages, as its links lead there. Read as the URL
 * parser reads them, so "/admin/../guestbook" is not.
 */
function asksOnlyOpenRoutes(url: URL): boolean {
  const paths = url.searchParams.getAll("p");
  return (
    paths.length > 0 &&
    paths.every((asked) => {
      const absolute = asked.startsWith("/") ? asked : `/${asked}`;
      try {
        return new URL(absolute, "http://gate.invalid").pathname === absolute && OPEN_PAGES.test(absolute);
      } catch {
        return false;
      }
    })
  );
}

/** A visitor of a private memorial without the passcode, asking for something that is not open. */
function refuse(req: GateRequest, res: GateResponse, next: () => void, url: URL | null) {
  const path = url?.pathname ?? "";
  if (url && path === ROUTE_MANIFEST) {
    // The admin login card's links lead to open pages: their routes are
    // given. Anything else: nothing, and the browser app is told to load the
    // page itself (which is the passcode page) when the visitor goes there.
    if (asksOnlyOpenRoutes(url)) return next();
    res.statusCode = 204;
    res.setHeader("X-Remix-Reload-Document", "true");
    res.setHeader("Cache-Control", PRIVATE_NO_STORE);
    return res.end();
  }
  if (API.test(path)) {
    return answer(res, 401, "application/json; charset=utf-8", JSON.stringify({ errors: { passcode: [PASSCODE_NEEDED] } }));
  }
  if (url?.searchParams.has("_data")) {
    // Remix fetching a page's data in the browser (the site turned private
    // while the page was open): load the page itself, which is the passcode page.
    url.searchParams.delete("_data");
    if (url.searchParams.get("index") === "") url.searchParams.delete("index");
    res.statusCode = 204;
    res.setHeader("X-Remix-Redirect", `${url.pathname}${url.search}`);
    res.setHeader("X-Remix-Status", "302");
    res.setHeader("X-Remix-Reload-Document", "true");
    res.setHeader("Cache-Control", PRIVATE_NO_STORE);
    return res.end();
  }
  const wantsPage = header(req, "accept").includes("text/html") || !FILE_NAME.test(path);
  if (!url || MEDIA.test(path) || !wantsPage) return answer(res, 401, "text/plain; charset=utf-8", PASSCODE_NEEDED);
  const method = (req.method ?? "GET").toUpperCase();
  const askedFor = method === "GET" || method === "HEAD" ? `${path}${url.search}` : path;
  if (isTextBrowser(header(req, "user-agent"))) {
    // lynx shows no 401 page (and `lynx -dump` fails): it is sent to the passcode page instead.
    res.statusCode = 303;
    res.setHeader("Location", `${PASSCODE_PAGE}?redirectTo=${encodeURIComponent(askedFor)}`);
    res.setHeader("Cache-Control", PRIVATE_NO_STORE);
    return res.end();
  }
  // A page: Remix renders the passcode page in its place (app/routes/passcode.tsx,
  // answered 401), and the real page's loader and action never run.
  res.locals.passcodeAskedFor = askedFor;
  if (method !== "GET" && method !== "HEAD") req.method = "GET";
  // A language link (`?lang=es`) still chooses the passcode page's language.
  const language = url.searchParams.get(LANGUAGE_PARAM);
  req.url = req.originalUrl = language ? `${PASSCODE_PAGE}?${LANGUAGE_PARAM}=${encodeURIComponent(language)}` : PASSCODE_PAGE;
  next();
}

/**
 * The gate, as Express middleware, right after the security headers
 * (server/app.mjs), so even the cross-origin refusal carries its robots header.
 */
export async function visitorGate(req: GateRequest, res: GateResponse, next: (error?: unknown) => void) {
  try {
    const { visibility, passcode } = getPrivacy();
    // For the render cache: what may keep a copy of this answer (server/render-cache/).
    res.locals.visibility = visibility;
    if (visibility === "public") {
      res.locals.visitorLocked = false;
      return next();
    }
    res.setHeader("X-Robots-Tag", ROBOTS_NOINDEX);
    if (visibility === "unlisted") {
      res.locals.visitorLocked = false;
      return next();
    }
    const url = addressOf(req);
    const path = url?.pathname ?? "";
    if (OPEN_ASSETS.test(path)) return next();
    keepOutOfSharedCaches(res);
    const locked = !(await mayEnterPrivateSite(header(req, "cookie"), passcode));
    res.locals.visitorLocked = locked;
    if (!locked || OPEN_PAGES.test(path)) return next();
    refuse(req, res, next, url);
  } catch (error) {
    next(error);
  }
}
