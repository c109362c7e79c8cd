import { createElement, Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { CALENDAR_FEED_PATH, CalendarSubscribe } from "~/components/CalendarSubscribe";
import { translate } from "~/i18n/i18n.server";
import type { Language } from "~/i18n/languages";
import { publicOrigin } from "~/platform/http.server";
import type { SiteView } from "~/site/site-view";

/**
 * The calendar offer of the home page as HTML in the visitor's language, or
 * null on a private memorial (a calendar app cannot give the passcode).
 */
export function calendarSubscribeHtml(request: Request, site: Pick<SiteView, "visibility">, language: Language): string | null {
  if (site.visibility === "private") return null;
  const address = `${publicOrigin(request)}${CALENDAR_FEED_PATH}`;
  const t = translate(language);
  const [before = "", after = ""] = t("home.calendar.address", { address: "\u0000" }).split("\u0000");
  return renderToStaticMarkup(
    createElement(CalendarSubscribe, {
      address,
      subscribe: t("home.calendar.subscribe"),
      addressLine: (link: ReactNode) => createElement(Fragment, null, before, link, after),
    }),
  );
}
