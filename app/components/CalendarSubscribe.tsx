import { useRouteLoaderData } from "@remix-run/react";
import { useSite } from "~/site/site-view";
import * as ui from "~/styles/ui.css";
import * as s from "./CalendarSubscribe.css";
import { tWith, useT } from "./useT";

/** Where the calendar to subscribe to lives (app/routes/calendar[.]ics.ts). */
const CALENDAR_FEED_PATH = "/calendar.ics";

/**
 * The home page's offer of a calendar to subscribe to: the service and the
 * yearly days the family remembers, in the visitor's own calendar app. A
 * webcal:// link opens Apple Calendar and Outlook's "subscribe"; Google
 * Calendar takes the https address pasted under "From URL", so it is shown
 * in full. Not offered on a private memorial: a calendar app asks without the
 * passcode, and the site answers it nothing.
 */
export function CalendarSubscribe() {
  const site = useSite();
  const origin = useRouteLoaderData<{ origin?: string }>("root")?.origin;
  const { t } = useT();
  if (!origin || site.visibility === "private") return null;
  const address = `${origin}${CALENDAR_FEED_PATH}`;
  return (
    <div className={s.subscribe}>
      {/* A file, not a page: a plain link, so the browser hands it to the calendar app. */}
      <a href={address.replace(/^https?:/, "webcal:")} className={ui.button.secondary}>
        {t("home.calendar.subscribe")}
      </a>
      <p className={s.address}>{tWith(t, "home.calendar.address", { address: <a href={address}>{address}</a> })}</p>
    </div>
  );
}
