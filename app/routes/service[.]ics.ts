import type { LoaderFunctionArgs } from "@remix-run/node";
import { getServiceCalendar } from "~/site/service-calendar.server";
import { sitePublicAddress } from "~/site/settings.server";
import { readOnlyAction } from "~/platform/http.server";

/**
 * GET /service.ics: the service as a calendar event, linked from the home
 * page's service card. Behind the visitor gate like the home page. Never
 * kept by a cache: the family may move the time at any moment.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const { ics, fileName } = getServiceCalendar(sitePublicAddress(request));
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-cache",
    },
  });
}

export const action = readOnlyAction;
