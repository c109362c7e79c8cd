import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import type { SiteContent } from "~/content";
import type { ServiceView } from "~/utils/site";

/** The instant a local `YYYY-MM-DDTHH:mm` in `timeZone` names (a time skipped by a clock change moves forward). */
export function instantOf(local: string, timeZone: string): Date {
  const [datePart = "", timePart = ""] = local.split("T");
  const [year = 0, month = 1, day = 1] = datePart.split("-").map(Number);
  const [hour = 0, minute = 0] = timePart.split(":").map(Number);
  return new Date(new TZDate(year, month - 1, day, hour, minute, timeZone).getTime());
}

const DAY = "EEEE, MMMM do, yyyy";
const TIME = "h:mm aaa";

/** A map search for an address, for a family who has not given a map link. */
export const mapSearchFor = (address: string) => `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`;

/** The service's times as visitors read them, in the family's time zone. */
export function describeService(
  site: Pick<SiteContent, "serviceStartsAt" | "serviceEndsAt" | "timeZone" | "mapsLink" | "venueAddress">,
  now: number,
): ServiceView {
  const start = new TZDate(instantOf(site.serviceStartsAt, site.timeZone).getTime(), site.timeZone);
  const end = new TZDate(instantOf(site.serviceEndsAt, site.timeZone).getTime(), site.timeZone);
  const dayText = format(start, DAY);
  const sameDay = format(end, DAY) === dayText;
  const dateText = sameDay
    ? `${dayText} · ${format(start, TIME)} to ${format(end, TIME)}`
    : `${dayText} · ${format(start, TIME)} to ${format(end, DAY)} · ${format(end, TIME)}`;
  return {
    dateText,
    dayText,
    startsAt: new Date(start.getTime()).toISOString(),
    endsAt: new Date(end.getTime()).toISOString(),
    over: now >= end.getTime(),
    mapsLink: site.mapsLink || mapSearchFor(site.venueAddress),
  };
}
