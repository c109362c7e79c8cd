import type { LoaderFunctionArgs } from "@remix-run/node";
import { getCalendarFeed } from "~/remembrance/calendar-feed.server";
import { calendarResponse } from "~/site/service-calendar.server";
import { sitePublicAddress } from "~/site/settings.server";
import { readOnlyAction } from "~/platform/http.server";

/**
 * GET /calendar.ics: the calendar visitors subscribe to (webcal://) from the
 * home page: the service and the yearly days the family turned on. Behind
 * the visitor gate like every page, so a private memorial's calendar answers
 * only those with the passcode. Never kept by a cache: the family may change
 * the days at any moment, and calendar apps come back on their own.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return calendarResponse(getCalendarFeed(sitePublicAddress(request)), "inline");
}

export const action = readOnlyAction;
