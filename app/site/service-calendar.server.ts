import { lifeDates } from "./life-dates";
import { createEvent, type EventAttributes } from "ics";
import { memorialTitle } from "~/content";
import { formatServiceWhen, mapSearchFor, instantOf } from "~/site/service-time.server";
import { getSiteSettings } from "./settings.server";
import type { SiteSettings } from "./settings.schema";

// The service as a calendar event (RFC 5545), for GET /service.ics: guests
// add it to Apple, Google or Outlook calendars from the home page.

export interface ServiceCalendar {
  /** The VCALENDAR text, CRLF line endings, long lines folded. */
  ics: string;
  /** A download name such as "celebration-of-life-margaret-hale.ics". */
  fileName: string;
}

export const PRODUCT_ID = "-//In Loving Memory//Memorial site//EN";

/** The event's SUMMARY: "Celebration of Life for Margaret Hale" (the title alone when it already names the person). */
function serviceSummary(site: Pick<SiteSettings, "serviceTitle" | "personName">): string {
  return site.serviceTitle.toLowerCase().includes(site.personName.toLowerCase())
    ? site.serviceTitle
    : `${site.serviceTitle} for ${site.personName}`;
}

/**
 * One identifier per memorial, the same at every request and after every
 * restart, so importing the file again (after the family moved the time)
 * updates the event already in the calendar instead of adding a second one.
 */
export const serviceUid = (origin: string) => `service@${new URL(origin).host}`;

/** Letters and digits of `text` in lower case, joined by hyphens ("Zoë O'Neil" → "zoe-o-neil"). */
export function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

/**
 * A setting as one line of calendar text. The `ics` package escapes what RFC
 * 5545 §3.3.11 asks (backslash, semicolon, comma, CRLF and LF) but passes a
 * bare CR, the other controls and the Unicode line separators as they are,
 * and some readers end a line at them: the settings refuse them now, yet
 * `site` may come from anywhere, so each is a space here too.
 */
export const calendarLine = (text: string) =>
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ");

/** ", 1942 to 2026" (or ", born 1942" / ", died 2026") after the name; words, not a dash: `ics` folds lines by characters. */
function lifeYears(site: SiteSettings): string {
  const dates = lifeDates({ ...site, lifeDatesShown: "years" });
  if (!dates) return "";
  const { born, died } = dates;
  return born && died ? `, ${born.text} to ${died.text}` : born ? `, born ${born.text}` : `, died ${died!.text}`;
}

/** Every text setting as one line of calendar text (`calendarLine`). */
export const calendarSettings = (settings: SiteSettings): SiteSettings =>
  Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [key, typeof value === "string" ? calendarLine(value) : value]),
  ) as SiteSettings;

/** A calendar event's attributes; DTSTAMP (`timestamp`) is taken by the `ics` package but missing from its types. */
export type CalendarEvent = EventAttributes & { timestamp: number };

/** The service in `settings` as a calendar event, naming the memorial at `origin`, stamped `now` (also in the subscribed calendar). */
export function serviceEvent(settings: SiteSettings, origin: string, now: number): CalendarEvent {
  const site = calendarSettings(settings);
  const home = `${origin}/`;
  const description = [
    `${memorialTitle(site)}${lifeYears(site)}.`,
    // The event's times are UTC (each calendar shows them in its own zone); this line names the family's.
    // Commas, not the page's middle dot: the `ics` package folds lines by characters, not octets.
    `${formatServiceWhen(site).replace(/ · /g, ", ")}, at ${site.venueName}.`,
    site.serviceNote,
    site.livestreamUrl ? `Watch the livestream: ${site.livestreamUrl}` : "",
    `Map: ${site.mapsLink || mapSearchFor(site.venueAddress)}`,
    `Service details, the guest book and photos: ${home}`,
  ]
    .filter(Boolean)
    .join("\n\n");
  return {
    uid: serviceUid(origin),
    productId: PRODUCT_ID,
    title: serviceSummary(site),
    start: instantOf(site.serviceStartsAt, site.timeZone).getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    end: instantOf(site.serviceEndsAt, site.timeZone).getTime(),
    endInputType: "utc",
    endOutputType: "utc",
    location: `${site.venueName}, ${site.venueAddress}`,
    description,
    url: home,
    status: "CONFIRMED",
    busyStatus: "BUSY",
    timestamp: now,
  };
}

/** The calendar file for the service in `settings`, naming the memorial at `origin`, stamped `now`. */
export function buildServiceCalendar(settings: SiteSettings, origin: string, now: number): ServiceCalendar {
  const { error, value } = createEvent(serviceEvent(settings, origin, now));
  if (error || !value) throw error ?? new Error("The calendar file could not be made");
  return { ics: value, fileName: `${slug(serviceSummary(calendarSettings(settings))) || "memorial-service"}.ics` };
}

/** The calendar file for the family's current settings. */
export function getServiceCalendar(origin: string, now = Date.now()): ServiceCalendar {
  return buildServiceCalendar(getSiteSettings(), origin, now);
}

/**
 * A calendar file as an answer: `attachment` for a file to import, `inline`
 * for a calendar to subscribe to. Made afresh at each request and never kept
 * by a cache: the family may change it at any moment.
 */
export function calendarResponse({ ics, fileName }: { ics: string; fileName: string }, disposition: "attachment" | "inline"): Response {
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `${disposition}; filename="${fileName}"`,
      "Cache-Control": "no-cache",
    },
  });
}
