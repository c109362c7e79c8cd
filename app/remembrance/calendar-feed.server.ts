import { createEvents, type DateArray } from "ics";
import { calendarLine, calendarSettings, PRODUCT_ID, serviceEvent, slug, type CalendarEvent } from "~/site/service-calendar.server";
import type { SiteSettings } from "~/site/settings.schema";
import { getSiteSettings } from "~/site/settings.server";
import { formatIsoDate } from "~/utils/time";
import type { Remembrance } from "./remembrance.schema";
import { getRemembrance } from "./remembrance.server";
import { addDays, yearlyDaysBetween, type YearlyDay } from "./yearly-days.server";

// The calendar to subscribe to (GET /calendar.ics, webcal://): the service
// and the yearly days the family turned on in the Remember tab, for people
// who prefer their own calendar to e-mail. A yahrzeit follows the Hebrew
// calendar, which no Gregorian yearly rule can say, so every day is its own
// dated event, for this year and the next ten.

export interface CalendarFeed {
  /** The VCALENDAR text, CRLF line endings, long lines folded. */
  ics: string;
  /** "in-memory-of-margaret-hale.ics". */
  fileName: string;
}

/** The years after this one the feed lists. */
export const FEED_YEARS_AHEAD = 10;
/** How often a subscribed calendar is asked to look again (RFC 7986 REFRESH-INTERVAL, and Outlook's X-PUBLISHED-TTL). */
const REFRESH = "PT12H";

/** The calendar's name in the visitor's calendar app. */
const feedName = (personName: string) => `In memory of ${personName}`;

const dateArray = (date: string): DateArray => date.split("-").map(Number) as DateArray;

/** "Tuesday, December 29, 2026": a local day ("YYYY-MM-DD") written out. */
const longDate = (date: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "full" }).format(new Date(`${date}T12:00:00Z`));

const yearsText = (years: number) => (years === 1 ? "1 year" : `${years} years`);

/**
 * The family's words as calendar text: line breaks kept (the `ics` package
 * writes them as \n and escapes commas, semicolons and backslashes), every
 * other control character a space, as `calendarLine` does for the settings.
 */
const calendarText = (text: string) => text.replace(/\r\n?/g, "\n").split("\n").map(calendarLine).join("\n");

/** What one yearly day is called and says. */
function wording(day: YearlyDay, name: string): { title: string; says: string } {
  switch (day.kind) {
    case "birthday":
      return { title: `${name}'s birthday`, says: `${name} was born on this day, ${yearsText(day.years)} ago.` };
    case "anniversary":
      return { title: `Remembering ${name}`, says: `${yearsText(day.years)} since ${name} died, on this day.` };
    case "yahrzeit":
      return {
        title: `Yahrzeit of ${name}`,
        says:
          `The yahrzeit, ${day.hebrewDate ?? "by the Hebrew calendar"}: ${yearsText(day.years)}. ` +
          `It begins at sunset on the evening before, ${longDate(addDays(day.date, -1))}, and ends at nightfall on ${longDate(day.date)}.`,
      };
  }
}

/**
 * One yearly day as an all-day event. Its UID names the day and its year
 * (the yahrzeit: how many years it marks), never its date: a date the family
 * corrects, or a death after sunset, moves the event in the calendar instead
 * of adding a second one.
 */
function yearlyEvent(day: YearlyDay, site: SiteSettings, words: string, origin: string, now: number): CalendarEvent {
  const { title, says } = wording(day, site.personName);
  const key = day.kind === "yahrzeit" ? String(day.years) : day.date.slice(0, 4);
  return {
    uid: `${day.kind}-${key}@${new URL(origin).host}`,
    productId: PRODUCT_ID,
    title,
    start: dateArray(day.date),
    end: dateArray(addDays(day.date, 1)),
    description: [says, words, `${origin}/`].filter(Boolean).join("\n\n"),
    url: `${origin}/`,
    status: "CONFIRMED",
    busyStatus: "FREE",
    transp: "TRANSPARENT",
    timestamp: now,
  };
}

/** The feed for `settings` and `remembrance`, naming the memorial at `origin`, as of `now`. */
export function buildCalendarFeed(settings: SiteSettings, remembrance: Remembrance, origin: string, now: number): CalendarFeed {
  const site = calendarSettings(settings);
  const year = Number(formatIsoDate(now, site.timeZone).slice(0, 4));
  const days = yearlyDaysBetween(site, remembrance, `${year}-01-01`, `${year + FEED_YEARS_AHEAD}-12-31`);
  const words = calendarText(remembrance.words);
  const events = [serviceEvent(settings, origin, now), ...days.map((day) => yearlyEvent(day, site, words, origin, now))];
  const name = feedName(site.personName);
  const { error, value } = createEvents(events, { productId: PRODUCT_ID, calName: name });
  if (error || !value) throw error ?? new Error("The calendar could not be made");
  const ics = value.replace("X-PUBLISHED-TTL:PT1H\r\n", `X-PUBLISHED-TTL:${REFRESH}\r\nREFRESH-INTERVAL;VALUE=DURATION:${REFRESH}\r\n`);
  return { ics, fileName: `${slug(name) || "memorial"}.ics` };
}

/** The feed for the family's current settings. */
export function getCalendarFeed(origin: string, now = Date.now()): CalendarFeed {
  return buildCalendarFeed(getSiteSettings(), getRemembrance(), origin, now);
}
