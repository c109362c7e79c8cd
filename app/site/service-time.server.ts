import { LANGUAGE_TAGS, type Language } from "~/i18n/languages";
import { TZDate, tzOffset } from "@date-fns/tz";
import { format } from "date-fns/format";
import type { SiteContent } from "~/content";
import type { ServiceView } from "~/site/site-view";

const HOUR = 3_600_000;

/**
 * The instant a local `YYYY-MM-DDTHH:mm` in `timeZone` names. A time skipped
 * by a clock change moves forward (02:30 on the spring night is 03:30); a time
 * that happens twice when the clocks go back is the first of the two, in
 * every zone (date-fns/tz alone picks the first in some zones and the second
 * in others).
 */
export function instantOf(local: string, timeZone: string): Date {
  const [datePart = "", timePart = ""] = local.split("T");
  const [year = 0, month = 1, day = 1] = datePart.split("-").map(Number);
  const [hour = 0, minute = 0] = timePart.split(":").map(Number);
  const found = new TZDate(year, month - 1, day, hour, minute, timeZone).getTime();
  // The wall clock read as if it were UTC; each offset in force around it that
  // leads back to the same wall clock is one occurrence of it.
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const occurrences = [found - 24 * HOUR, found, found + 24 * HOUR]
    .map((around) => wall - tzOffset(timeZone, new Date(around)) * 60_000)
    .filter((instant) => wall - tzOffset(timeZone, new Date(instant)) * 60_000 === instant);
  return new Date(occurrences.length ? Math.min(...occurrences) : found);
}

const DAY = "EEEE, MMMM do, yyyy";
const TIME = "h:mm aaa";

/**
 * The short name of the time zone in force at `instant`: "CST" in a Chicago
 * winter, "CDT" in its summer, "GMT+1" in a London summer (en-US names the
 * zones it knows by letters and the rest by their offset).
 */
function timeZoneAbbreviation(instant: Date | number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(new Date(instant));
  return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
}

/**
 * "Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm PDT": the service's day and
 * hours in the family's time zone, named, for a guest who may read it
 * somewhere else (the home page's service card, the calendar file).
 */
export function formatServiceWhen(site: Pick<SiteContent, "serviceStartsAt" | "serviceEndsAt" | "timeZone">): string {
  return `${serviceDateText(site)} ${timeZoneAbbreviation(instantOf(site.serviceEndsAt, site.timeZone), site.timeZone)}`;
}

/** "Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm" (both days written out when it ends on another). */
function serviceDateText(site: Pick<SiteContent, "serviceStartsAt" | "serviceEndsAt" | "timeZone">): string {
  const start = new TZDate(instantOf(site.serviceStartsAt, site.timeZone).getTime(), site.timeZone);
  const end = new TZDate(instantOf(site.serviceEndsAt, site.timeZone).getTime(), site.timeZone);
  const dayText = format(start, DAY);
  return format(end, DAY) === dayText
    ? `${dayText} · ${format(start, TIME)} to ${format(end, TIME)}`
    : `${dayText} · ${format(start, TIME)} to ${format(end, DAY)} · ${format(end, TIME)}`;
}

/**
 * The service's day and hours in another language than English, by Intl:
 * "domingo, 31 de agosto de 2025 · 16:00–20:00 GMT-7" (each language's own
 * order, words and clock; English keeps the wording above, which Intl would
 * change).
 */
function serviceTextsIn(language: Language, start: Date, end: Date, timeZone: string) {
  const tag = LANGUAGE_TAGS[language];
  const day = new Intl.DateTimeFormat(tag, { timeZone, weekday: "long", year: "numeric", month: "long", day: "numeric" });
  const time = new Intl.DateTimeFormat(tag, { timeZone, hour: "numeric", minute: "2-digit" });
  const zoneName =
    new Intl.DateTimeFormat(tag, { timeZone, timeZoneName: "short" }).formatToParts(end).find((part) => part.type === "timeZoneName")
      ?.value ?? timeZone;
  const dayText = day.format(start);
  const dateText =
    day.format(end) === dayText
      ? `${dayText} · ${time.formatRange(start, end)}`
      : `${dayText} · ${time.format(start)} – ${day.format(end)} · ${time.format(end)}`;
  return { dayText, dateText, whenText: `${dateText} ${zoneName}` };
}

/** A map search for an address, for a family who has not given a map link. */
export const mapSearchFor = (address: string) => `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`;

/** The service's times as visitors read them, in the family's time zone. */
export function describeService(
  site: Pick<SiteContent, "serviceStartsAt" | "serviceEndsAt" | "timeZone" | "mapsLink" | "venueAddress">,
  now: number,
  // The language to write the dates in (app/i18n/languages.ts).
  language: Language = "en",
): ServiceView {
  const start = new TZDate(instantOf(site.serviceStartsAt, site.timeZone).getTime(), site.timeZone);
  const end = new TZDate(instantOf(site.serviceEndsAt, site.timeZone).getTime(), site.timeZone);
  const texts =
    language === "en"
      ? { dateText: serviceDateText(site), whenText: formatServiceWhen(site), dayText: format(start, DAY) }
      : serviceTextsIn(language, new Date(start.getTime()), new Date(end.getTime()), site.timeZone);
  return {
    ...texts,
    startsAt: new Date(start.getTime()).toISOString(),
    endsAt: new Date(end.getTime()).toISOString(),
    over: now >= end.getTime(),
    mapsLink: site.mapsLink || mapSearchFor(site.venueAddress),
  };
}
