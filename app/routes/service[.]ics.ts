import type { LoaderFunctionArgs } from "@remix-run/node";
import { calendarResponse, getServiceCalendar } from "~/site/service-calendar.server";
import { sitePublicAddress } from "~/site/settings.server";
import { readOnlyAction } from "~/platform/http.server";

/**
 * GET /service.ics: the service as a calendar event, linked from the home
 * page's service card. Behind the visitor gate like the home page. Never
 * kept by a cache: the family may move the time at any moment.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return calendarResponse(getServiceCalendar(sitePublicAddress(request)), "attachment");
}

export const action = readOnlyAction;
