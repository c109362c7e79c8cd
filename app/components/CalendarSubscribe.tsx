import type { ReactNode } from "react";
import * as ui from "~/styles/ui.css";
import * as s from "./CalendarSubscribe.css";

/** Where the calendar to subscribe to lives (app/routes/calendar[.]ics.ts). */
export const CALENDAR_FEED_PATH = "/calendar.ics";

/**
 * The home page's offer of a calendar to subscribe to: the service and the
 * yearly days the family remembers, in the visitor's own calendar app. A
 * webcal:// link opens Apple Calendar and Outlook's "subscribe"; Google
 * Calendar takes the https address pasted under "From URL", so it is shown
 * in full. Not offered on a private memorial: a calendar app asks without the
 * passcode, and the site answers it nothing. No hooks: the home page's
 * loader renders it as HTML in the visitor's language
 * (app/routes/calendar-subscribe.server.ts), so the page loads no code for it.
 */
export function CalendarSubscribe({
  address,
  subscribe,
  addressLine,
}: {
  address: string;
  subscribe: string;
  /** "Or add this address to your calendar: {address}", with the link in place. */
  addressLine: (link: ReactNode) => ReactNode;
}) {
  return (
    <div className={s.subscribe}>
      {/* A file, not a page: a plain link, so the browser hands it to the calendar app. */}
      <a href={address.replace(/^https?:/, "webcal:")} className={ui.button.secondary}>
        {subscribe}
      </a>
      <p className={s.address}>{addressLine(<a href={address}>{address}</a>)}</p>
    </div>
  );
}
