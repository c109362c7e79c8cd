// The calendar visitors subscribe to (GET /calendar.ics): the service and the
// yearly days the family turned on, read back with a calendar parser
// (node-ical) as calendar apps read it. Fixed clocks only.
import ical, { type VEvent } from "node-ical";
import { describe, expect, it } from "vitest";
import { content } from "~/content";
import { buildCalendarFeed, FEED_YEARS_AHEAD } from "~/remembrance/calendar-feed.server";
import { REMEMBRANCE_DEFAULTS, type Remembrance } from "~/remembrance/remembrance.schema";
import type { SiteSettings } from "~/site/settings.schema";
import { serviceUid } from "~/site/service-calendar.server";
import * as calendarIcs from "~/routes/calendar[.]ics";

const ORIGIN = "https://memorial.example.com";
const HOST = "memorial.example.com";
/** 15 January 2026, in the morning in Los Angeles. */
const NOW = Date.UTC(2026, 0, 15, 17, 0);

const settings = (changes: Partial<SiteSettings> = {}): SiteSettings => ({
  ...content,
  personName: "Margaret Hale",
  timeZone: "America/Los_Angeles",
  birthDate: "1941-06-14",
  deathDate: "2025-03-03",
  ...changes,
});
const remembrance = (changes: Partial<Remembrance> = {}): Remembrance => ({
  ...REMEMBRANCE_DEFAULTS,
  birthday: true,
  anniversary: true,
  yahrzeit: true,
  ...changes,
});

/** The events of a calendar file, as a calendar program reads them. */
const eventsOf = (ics: string): VEvent[] =>
  Object.values(ical.sync.parseICS(ics)).filter((item): item is VEvent => item?.type === "VEVENT");
const byUid = (ics: string, uid: string) => eventsOf(ics).find((event) => event.uid === uid);
/** An all-day event's day, as the parser gives it (a local midnight). */
const dayOf = (date: Date | undefined) =>
  date && `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
/** The file's lines with folded lines joined again (RFC 5545 §3.1). */
const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, "").split("\r\n");

describe("the calendar to subscribe to", () => {
  it("holds the service and every yearly day the family turned on, as all-day events, for this year and the next ten", () => {
    const { ics, fileName } = buildCalendarFeed(settings(), remembrance(), ORIGIN, NOW);
    const events = eventsOf(ics);
    expect(byUid(ics, serviceUid(ORIGIN))?.summary).toContain("Margaret Hale");
    const kinds = (kind: string) => events.filter((event) => event.uid.startsWith(`${kind}-`));
    expect(kinds("birthday")).toHaveLength(FEED_YEARS_AHEAD + 1);
    expect(kinds("anniversary")).toHaveLength(FEED_YEARS_AHEAD + 1);
    expect(kinds("yahrzeit").length).toBeGreaterThanOrEqual(FEED_YEARS_AHEAD);

    const birthday = byUid(ics, `birthday-2026@${HOST}`)!;
    expect(birthday.summary).toBe("Margaret Hale's birthday");
    expect(birthday.start.dateOnly).toBe(true);
    expect(dayOf(birthday.start)).toBe("2026-06-14");
    expect(dayOf(birthday.end)).toBe("2026-06-15");
    expect(birthday.description).toContain("85 years ago");
    const anniversary = byUid(ics, `anniversary-2026@${HOST}`)!;
    expect([anniversary.summary, dayOf(anniversary.start)]).toEqual(["Remembering Margaret Hale", "2026-03-03"]);
    expect(anniversary.description).toContain("1 year since Margaret Hale died");
    expect(dayOf(byUid(ics, `anniversary-2036@${HOST}`)!.start)).toBe("2036-03-03");
    // A memorial day is no appointment: it never shows the visitor as busy.
    expect(anniversary.transparency).toBe("TRANSPARENT");
    expect(fileName).toBe("in-memory-of-margaret-hale.ics");
  });

  it("dates the yahrzeit by the Hebrew calendar, the day after for a death after sunset, and says it begins at sunset the evening before", () => {
    const before = buildCalendarFeed(settings(), remembrance(), ORIGIN, NOW).ics;
    const after = buildCalendarFeed(settings(), remembrance({ afterSunset: true }), ORIGIN, NOW).ics;
    const first = byUid(before, `yahrzeit-1@${HOST}`)!;
    expect([first.summary, dayOf(first.start)]).toEqual(["Yahrzeit of Margaret Hale", "2026-02-20"]);
    expect(first.description).toContain("3rd of Adar, 5786");
    expect(first.description).toContain("begins at sunset on the evening before, Thursday, February 19, 2026");
    const later = byUid(after, `yahrzeit-1@${HOST}`)!;
    expect(dayOf(later.start)).toBe("2026-02-21");
    expect(later.description).toContain("4th of Adar, 5786");
    expect(later.description).toContain("Friday, February 20, 2026");
  });

  it("keeps each event's UID from one request to the next, so a calendar updates rather than duplicates", () => {
    const uids = (ics: string) =>
      eventsOf(ics)
        .map((event) => event.uid)
        .sort();
    const morning = uids(buildCalendarFeed(settings(), remembrance(), ORIGIN, NOW).ics);
    const evening = uids(buildCalendarFeed(settings(), remembrance({ afterSunset: true }), ORIGIN, NOW + 10 * 3_600_000).ics);
    expect(new Set(morning).size).toBe(morning.length);
    expect(evening).toEqual(morning);
    // A date of death the family corrects moves the days; it adds none.
    const corrected = uids(buildCalendarFeed(settings({ deathDate: "2025-03-04" }), remembrance(), ORIGIN, NOW).ics);
    expect(corrected).toEqual(morning);
  });

  it("lists only the days turned on, and the service alone when none is", () => {
    const yahrzeitOnly = eventsOf(buildCalendarFeed(settings(), remembrance({ birthday: false, anniversary: false }), ORIGIN, NOW).ics);
    expect(yahrzeitOnly.some((event) => event.uid.startsWith("birthday-") || event.uid.startsWith("anniversary-"))).toBe(false);
    expect(yahrzeitOnly.some((event) => event.uid.startsWith("yahrzeit-"))).toBe(true);
    const none = eventsOf(buildCalendarFeed(settings(), REMEMBRANCE_DEFAULTS, ORIGIN, NOW).ics);
    expect(none.map((event) => event.uid)).toEqual([serviceUid(ORIGIN)]);
  });

  it("is named for the person, asks calendars to look again twice a day, and escapes the family's words", () => {
    const words = 'Light a candle; say "Margaret, we miss you" \\ always.\nAnd call Ruth.';
    const { ics } = buildCalendarFeed(settings({ personName: "Margaret\rHale" }), remembrance({ words }), ORIGIN, NOW);
    const lines = unfolded(ics);
    expect(lines).toContain("X-WR-CALNAME:In memory of Margaret Hale");
    expect(lines).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT12H");
    expect(lines).toContain("X-PUBLISHED-TTL:PT12H");
    expect(lines.filter((line) => line.startsWith("X-PUBLISHED-TTL"))).toHaveLength(1);
    const birthday = byUid(ics, `birthday-2026@${HOST}`)!;
    expect(birthday.summary).toBe("Margaret Hale's birthday");
    expect(birthday.description).toContain(words);
    expect(lines.join("\n")).toContain('Light a candle\\; say "Margaret\\, we miss you" \\\\ always.\\nAnd call Ruth.');
    // Nothing the family wrote starts a line of its own in the file.
    expect(lines.filter((line) => line.startsWith("And call"))).toEqual([]);
  });

  it("is served as a calendar that no cache keeps", async () => {
    const response = calendarIcs.loader({ request: new Request(`${ORIGIN}/calendar.ics`), params: {}, context: {} });
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("no-cache");
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline; filename="in-memory-of-[a-z0-9-]+\.ics"$/);
    const ics = await response.text();
    expect(unfolded(ics).some((line) => line.startsWith("X-WR-CALNAME:In memory of "))).toBe(true);
    expect(eventsOf(ics).length).toBeGreaterThanOrEqual(1);
  });
});
