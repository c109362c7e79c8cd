import { cssBundleHref } from "@remix-run/css-bundle";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { NotFound } from "~/components/NotFound";
import { PrivateSiteHeader } from "~/components/PrivateSiteChrome";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { Toaster } from "~/components/Toaster";
import "~/styles/global.css";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { useNonce } from "~/components/nonce";
import {
  json,
  getToast,
  publicOrigin,
  config,
  getSiteView,
  siteViewWhileLocked,
  isVisitorLocked,
  isKarenModeOn,
  isLifePublished,
  visitorLanguage,
  rememberLanguageHeader,
  pageWords,
} from "~/root.server";
import { languageChoices, LANGUAGE_TAGS, textDirection } from "~/i18n/languages";
import { KarenParty, useKarenMode } from "~/components/KarenMode";
import { translatorFromMatches, useT } from "~/components/useT";
import { isTextBrowser } from "~/utils/text-browser";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { toast, headers } = await getToast(request);
  // A private memorial's visitor without the passcode (on the passcode page or
  // the admin login card) is sent the memorial's name and nothing more.
  const locked = await isVisitorLocked(request, context);
  const language = await visitorLanguage(request);
  const view = getSiteView(Date.now(), language);
  const site = locked ? siteViewWhileLocked(view) : view;
  // A language link (`?lang=es`) is remembered for the visitor's next pages.
  const remember = await rememberLanguageHeader(request);
  const responseHeaders = new Headers(headers ?? undefined);
  if (remember) responseHeaders.append("Set-Cookie", remember);
  return json(
    {
      // Link previews (og:url, og:image) name the site's public address.
      origin: publicOrigin(request),
      site,
      language,
      // The family's languages, each named in itself, when there is a choice.
      languages: site.languages.length > 1 ? languageChoices(site.languages) : [],
      // The header's, footer's and shared form words; each page's loader sends its own.
      words: pageWords(language, ["common", "forms"]),
      locked,
      // The life story's links (header, footer, home page) show once the family publishes it.
      lifeStory: !locked && isLifePublished(),
      toast,
      karenMode: !locked && (await isKarenModeOn(request)),
      karenTheme: config.KAREN_MODE_THEME ?? site.karenModeTheme,
      // The spam trap and the audio fallback are left out for text browsers.
      textBrowser: isTextBrowser(request.headers.get("User-Agent")),
    },
    { headers: responseHeaders },
  );
}

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
];

export const meta: MetaFunction<typeof loader> = ({ matches, error }) =>
  isRouteErrorResponse(error) && error.status === 404
    ? pageMeta(matches, { title: translatorFromMatches(matches).t("common.notFound.title"), exactTitle: true })
    : pageMeta(matches);

/**
 * Skeletons shown in place of a page while its data loads on client-side
 * navigation, fetched on the first navigation that needs one (the page being
 * left stays until then).
 */
const PendingSkeleton = lazy(() => import("~/components/Skeletons"));
const SKELETON_PATHS = new Set(["/poems", "/guestbook", "/gallery"]); // those PendingSkeleton knows

/**
 * A route whose `handle` says `{ hydrate: false }` is sent as plain HTML,
 * without the app's scripts: the passcode page, which the visitor gate also
 * shows in place of other pages (where the browser's address would not
 * match the page's route).
 */
export interface RouteHandle {
  hydrate?: boolean;
  /** A page shown alone on a screen (the reception slideshow): no header, footer, skip link, toasts or Karen Mode. */
  bare?: boolean;
  /**
   * Where a browser without JavaScript goes next by itself, and after how
   * many seconds: a `<meta http-equiv="refresh">` inside `<noscript>`, so a
   * page whose scripts run stays. Where scripts run but the app never takes
   * over (a browser too old for it, a failed download) a small inline script
   * does the same.
   */
  noScriptRefresh?: (data: unknown) => NoScriptRefresh | null;
}

export interface NoScriptRefresh {
  seconds: number;
  /** A path on this site. */
  url: string;
}

/** The inline script for a page whose app never took over: moves on as the no-JavaScript page would. */
const refreshUnlessHydrated = ({ seconds, url }: NoScriptRefresh) =>
  `setTimeout(function(){if(!document.documentElement.hasAttribute("data-hydrated"))location.replace(${JSON.stringify(url).replace(/</g, "\\u003c")})},${seconds * 1000});`;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const karenMode = useKarenMode();
  const matches = useMatches();
  const handles = matches.map((match) => match.handle as RouteHandle | undefined);
  const hydrate = !handles.some((handle) => handle?.hydrate === false);
  // Without the layout's data (its loader failed) there are no words for the header and footer: the error alone shows.
  const bare = !data || handles.some((handle) => handle?.bare === true);
  const refreshing = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.noScriptRefresh);
  const refresh = refreshing ? (refreshing.handle as RouteHandle).noScriptRefresh!(refreshing.data) : null;
  const locked = data?.locked === true;
  const party = karenMode && !bare;
  const { t } = useT();
  return (
    <html
      lang={LANGUAGE_TAGS[data?.language ?? "en"]}
      dir={textDirection(data?.language ?? "en")}
      data-karen={party ? "on" : undefined}
      data-karen-theme={party ? data?.karenTheme : undefined}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {data && data.site.visibility !== "public" ? <meta name="robots" content="noindex, nofollow" /> : null}
        {refresh ? (
          <noscript>
            <meta httpEquiv="refresh" content={`${refresh.seconds};url=${refresh.url}`} />
          </noscript>
        ) : null}
        <Meta />
        <Links />
      </head>
      <body>
        {bare ? null : (
          <a href="#main" className={ui.skipLink}>
            {t("common.skipLink")}
          </a>
        )}
        {bare ? null : locked ? <PrivateSiteHeader /> : <SiteHeader lifeStory={data?.lifeStory === true} />}
        <main id="main" className={ui.main} tabIndex={-1}>
          {bare ? null : <Toaster toast={data?.toast ?? null} />}
          {children}
        </main>
        {bare ? null : <SiteFooter locked={locked} lifeStory={data?.lifeStory === true} />}
        {party && !locked ? <KarenParty theme={data?.karenTheme ?? "classic"} /> : null}
        {refresh && hydrate ? (
          <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: refreshUnlessHydrated(refresh) }} />
        ) : null}
        {hydrate ? <ScrollRestoration nonce={nonce} /> : null}
        {hydrate ? <Scripts nonce={nonce} /> : null}
      </body>
    </html>
  );
}

export default function App() {
  // Marks the document once React is in charge, for styles and tests that wait for it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const navigation = useNavigation();
  const location = useLocation();
  const pendingPath = navigation.state === "loading" ? navigation.location.pathname : null;
  if (!pendingPath || pendingPath === location.pathname || !SKELETON_PATHS.has(pendingPath)) return <Outlet />;
  return (
    <Suspense fallback={<Outlet />}>
      <PendingSkeleton path={pendingPath} />
    </Suspense>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t, tError } = useT();
  // The layout's own loader failed: no words were sent, so the spec's English.
  const words = !!useRouteLoaderData<typeof loader>("root");
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const message = isRouteErrorResponse(error)
    ? tError(typeof error.data === "string" ? error.data : error.statusText)
    : words
      ? t("common.error.text")
      : "Something went wrong on our side. Please try again in a moment.";
  return (
    <div className={ui.narrow}>
      <div className={ui.emptyState}>
        <h1>{words ? t("common.error.title") : "Sorry, something went wrong"}</h1>
        <p>{message}</p>
      </div>
    </div>
  );
}
