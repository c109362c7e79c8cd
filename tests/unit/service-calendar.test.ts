// The service as a calendar file (GET /service.ics), read back with a
// calendar parser (node-ical) as Apple, Google and Outlook read it.
import ical, { type VEvent } from "node-ical";
import { beforeEach, describe, expect, it } from "vitest";
import { siteSettings } from "../../db/schema";
import { content } from "~/content";
import { db } from "~/platform/db.server";
import type { SiteSettings } from "~/site/settings.schema";
import { buildServiceCalendar, serviceUid } from "~/site/service-calendar.server";
import * as serviceIcs from "~/routes/service[.]ics";

const ORIGIN = "https://memorial.example.com";
const NOW = Date.UTC(2026, 10, 23, 9, 15, 0);

const settings = (changes: Partial<SiteSettings> = {}): SiteSettings => ({
  ...content,
  personName: "Margaret Hale",
  serviceTitle: "Celebration of Life",
  venueName: "St Mary's Church Hall",
  venueAddress: "12 Church Lane, Oxford OX1 4AA",
  ...changes,
});

/** The one event of a calendar file, as a calendar program reads it. */
function eventOf(ics: string): VEvent {
  const events = Object.values(ical.sync.parseICS(ics)).filter((item): item is VEvent => item?.type === "VEVENT");
  expect(events).toHaveLength(1);
  return events[0]!;
}

/** The property names of a calendar file's lines, once folded lines are joined again (RFC 5545 §3.1). */
const propertyNames = (ics: string) =>
  ics
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter(Boolean)
    .map((line) => /^[A-Z-]+/.exec(line)?.[0]);

const THE_PROPERTIES_WE_WRITE = [
  "BEGIN",
  "VERSION",
  "CALSCALE",
  "PRODID",
  "METHOD",
  "X-PUBLISHED-TTL",
  "UID",
  "SUMMARY",
  "DTSTAMP",
  "DTSTART",
  "DTEND",
  "DESCRIPTION",
  "URL",
  "LOCATION",
  "STATUS",
  "X-MICROSOFT-CDO-BUSYSTATUS",
  "END",
];

const times = (changes: Partial<SiteSettings>) => {
  const event = eventOf(buildServiceCalendar(settings(changes), ORIGIN, NOW).ics);
  return [event.start.toISOString(), event.end!.toISOString()];
};

describe("the service's calendar file", () => {
  it("gives the person's years after the name, in words, when the family gave dates", () => {
    const description = (changes: Partial<SiteSettings>) => eventOf(buildServiceCalendar(settings(changes), ORIGIN, NOW).ics).description;
    expect(description({ birthDate: "1942-03-14", deathDate: "2026-01" })).toContain("In Loving Memory of Margaret Hale, 1942 to 2026.");
    expect(description({ birthDate: "", deathDate: "2026" })).toContain("In Loving Memory of Margaret Hale, died 2026.");
    expect(description({ birthDate: "1942", deathDate: "" })).toContain("In Loving Memory of Margaret Hale, born 1942.");
  });

  it("names the service and the person, the venue and its address, the site and the livestream", () => {
    const { ics, fileName } = buildServiceCalendar(
      settings({ livestreamUrl: "https://stream.example.com/watch?v=abc;def", serviceNote: "Reception to follow, all welcome." }),
      ORIGIN,
      NOW,
    );
    const event = eventOf(ics);
    expect(event.summary).toBe("Celebration of Life for Margaret Hale");
    expect(event.location).toBe("St Mary's Church Hall, 12 Church Lane, Oxford OX1 4AA");
    expect(event.description).toContain("In Loving Memory of Margaret Hale.");
    expect(event.description).toContain("Reception to follow, all welcome.");
    expect(event.description).toContain("Watch the livestream: https://stream.example.com/watch?v=abc;def");
    expect(event.description).toContain("Service details, the guest book and photos: https://memorial.example.com/");
    expect(event.description).toContain(
      `Map: https://www.openstreetmap.org/search?query=${encodeURIComponent("12 Church Lane, Oxford OX1 4AA")}`,
    );
    expect(event.url).toBe("https://memorial.example.com/");
    expect(event.uid).toBe("service@memorial.example.com");
    expect((event.dtstamp as Date).toISOString()).toBe("2026-11-23T09:15:00.000Z");
    expect(fileName).toBe("celebration-of-life-for-margaret-hale.ics");
  });

  it("says in its description when the service is in the family's time zone, named, for a guest who lives elsewhere", () => {
    const winter = eventOf(
      buildServiceCalendar(
        settings({ timeZone: "America/Chicago", serviceStartsAt: "2025-12-07T16:00", serviceEndsAt: "2025-12-07T20:00" }),
        ORIGIN,
        NOW,
      ).ics,
    );
    expect(winter.description).toContain("Sunday, December 7th, 2025, 4:00 pm to 8:00 pm CST, at St Mary's Church Hall.");
    const summer = eventOf(
      buildServiceCalendar(
        settings({ timeZone: "America/Los_Angeles", serviceStartsAt: "2025-08-31T16:00", serviceEndsAt: "2025-08-31T20:00" }),
        ORIGIN,
        NOW,
      ).ics,
    );
    expect(summer.description).toContain("Sunday, August 31st, 2025, 4:00 pm to 8:00 pm PDT");
  });

  it("leaves out the livestream when there is none, and does not name the person twice", () => {
    const event = eventOf(buildServiceCalendar(settings({ serviceTitle: "Funeral of Margaret Hale", livestreamUrl: "" }), ORIGIN, NOW).ics);
    expect(event.summary).toBe("Funeral of Margaret Hale");
    expect(event.description).not.toMatch(/livestream/i);
  });

  it("is one VCALENDAR with CRLF line endings, lines folded at 75 characters, times in UTC", () => {
    const { ics } = buildServiceCalendar(settings({ serviceNote: "A long note. ".repeat(20).trim() }), ORIGIN, NOW);
    expect(ics.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const lines = ics.split("\r\n");
    expect(lines.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(1);
    expect(Math.max(...lines.map((line) => Buffer.byteLength(line)))).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith("\t") || line.startsWith(" "))).toBe(true);
    expect(lines).toContain("DTSTART:20250831T230000Z");
    expect(lines).toContain("DTEND:20250901T030000Z");
  });

  it("keeps the same UID for the same site, whatever changes in the service, so a second import updates the first", () => {
    const first = eventOf(buildServiceCalendar(settings(), ORIGIN, NOW).ics);
    const moved = eventOf(
      buildServiceCalendar(settings({ serviceStartsAt: "2026-05-02T14:00", serviceEndsAt: "2026-05-02T16:00" }), ORIGIN, NOW + 86_400_000)
        .ics,
    );
    expect(moved.uid).toBe(first.uid);
    expect(serviceUid("http://localhost:3000")).toBe("service@localhost:3000");
    expect(serviceUid("https://other.example.org")).not.toBe(first.uid);
  });

  it("turns the family's local times into UTC with the offset of that day, across the spring clock change", () => {
    // London moves from GMT (UTC+0) to BST (UTC+1) at 01:00 UTC on Sunday 29 March 2026.
    const london = { timeZone: "Europe/London" };
    expect(times({ ...london, serviceStartsAt: "2026-03-28T11:00", serviceEndsAt: "2026-03-28T13:00" })).toEqual([
      "2026-03-28T11:00:00.000Z",
      "2026-03-28T13:00:00.000Z",
    ]);
    expect(times({ ...london, serviceStartsAt: "2026-03-29T11:00", serviceEndsAt: "2026-03-29T13:00" })).toEqual([
      "2026-03-29T10:00:00.000Z",
      "2026-03-29T12:00:00.000Z",
    ]);
    // Through the change itself: 00:30 GMT to 03:00 BST is an hour and a half, not two and a half.
    expect(times({ ...london, serviceStartsAt: "2026-03-29T00:30", serviceEndsAt: "2026-03-29T03:00" })).toEqual([
      "2026-03-29T00:30:00.000Z",
      "2026-03-29T02:00:00.000Z",
    ]);
    // New York moves from EST (UTC−5) to EDT (UTC−4) on Sunday 8 March 2026.
    const newYork = { timeZone: "America/New_York" };
    expect(times({ ...newYork, serviceStartsAt: "2026-03-07T10:00", serviceEndsAt: "2026-03-07T12:00" })).toEqual([
      "2026-03-07T15:00:00.000Z",
      "2026-03-07T17:00:00.000Z",
    ]);
    expect(times({ ...newYork, serviceStartsAt: "2026-03-08T10:00", serviceEndsAt: "2026-03-08T12:00" })).toEqual([
      "2026-03-08T14:00:00.000Z",
      "2026-03-08T16:00:00.000Z",
    ]);
    // 02:30 does not exist that night: it is taken as 03:30 EDT, as the home page shows it.
    expect(times({ ...newYork, serviceStartsAt: "2026-03-08T02:30", serviceEndsAt: "2026-03-08T04:00" })).toEqual([
      "2026-03-08T07:30:00.000Z",
      "2026-03-08T08:00:00.000Z",
    ]);
    // When the clocks go back, 01:30 happens twice: it is always the first of the two (summer time), in every zone.
    expect(times({ ...london, serviceStartsAt: "2026-10-25T01:30", serviceEndsAt: "2026-10-25T03:00" })).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T03:00:00.000Z",
    ]);
    expect(times({ ...newYork, serviceStartsAt: "2026-11-01T01:30", serviceEndsAt: "2026-11-01T03:00" })).toEqual([
      "2026-11-01T05:30:00.000Z",
      "2026-11-01T08:00:00.000Z",
    ]);
    expect(times({ timeZone: "Australia/Sydney", serviceStartsAt: "2026-04-05T02:30", serviceEndsAt: "2026-04-05T04:00" })).toEqual([
      "2026-04-04T15:30:00.000Z",
      "2026-04-04T18:00:00.000Z",
    ]);
    // Lord Howe Island moves its clocks by half an hour: 01:45 on 5 April 2026 is first at UTC+11.
    expect(times({ timeZone: "Australia/Lord_Howe", serviceStartsAt: "2026-04-05T01:45", serviceEndsAt: "2026-04-05T03:00" })[0]).toBe(
      "2026-04-04T14:45:00.000Z",
    );
    // And south of the equator, where the clocks go back in April: Sydney leaves AEDT (UTC+11) for AEST (UTC+10) on 5 April 2026.
    const sydney = { timeZone: "Australia/Sydney" };
    expect(times({ ...sydney, serviceStartsAt: "2026-04-04T14:00", serviceEndsAt: "2026-04-04T16:00" })[0]).toBe(
      "2026-04-04T03:00:00.000Z",
    );
    expect(times({ ...sydney, serviceStartsAt: "2026-04-05T14:00", serviceEndsAt: "2026-04-05T16:00" })[0]).toBe(
      "2026-04-05T04:00:00.000Z",
    );
  });

  it("escapes what RFC 5545 asks of text (backslash, semicolon, comma, line break), so each reads back as typed", () => {
    const { ics } = buildServiceCalendar(
      settings({ personName: "Zoë O'Neil; Jr., \\o/", venueName: "Hall A; B, C", serviceNote: "Tea, cake; \\ and songs" }),
      ORIGIN,
      NOW,
    );
    const event = eventOf(ics);
    expect(event.summary).toBe("Celebration of Life for Zoë O'Neil; Jr., \\o/");
    expect(event.location).toBe("Hall A; B, C, 12 Church Lane, Oxford OX1 4AA");
    expect(event.description).toContain("Tea, cake; \\ and songs");
    const unfolded = ics.replace(/\r\n[ \t]/g, "");
    expect(unfolded).toContain("SUMMARY:Celebration of Life for Zoë O'Neil\\; Jr.\\, \\\\o/\r\n");
    // The paragraphs of the description are escaped line breaks, never real ones.
    expect(unfolded).toMatch(/DESCRIPTION:In Loving Memory of Zoë O'Neil\\; Jr\.\\, \\\\o\/\.\\n\\n[^\r\n]*\\n\\nTea/);
  });

  it("never lets a hidden character in the settings end a line or add a property of its own", () => {
    const { ics } = buildServiceCalendar(
      settings({
        personName: "Ann\rURL:https://evil.example\rORGANIZER:x",
        venueName: "Hall\u2028X-EVIL:1",
        venueAddress: "1 Lane\u0085ATTENDEE:mailto:x@evil.example",
        serviceNote: "Reception\u0000to follow\r\nwith tea\nRRULE:FREQ=DAILY",
        mapsLink: "https://maps.example/\rORGANIZER:y",
      }),
      ORIGIN,
      NOW,
    );
    // eslint-disable-next-line no-control-regex -- RFC 5545 allows no control character in a line but HTAB (a folded line starts with one)
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(propertyNames(ics).filter((name) => !THE_PROPERTIES_WE_WRITE.includes(name ?? ""))).toEqual([]);
    const event = eventOf(ics);
    expect(event.summary).toBe("Celebration of Life for Ann URL:https://evil.example ORGANIZER:x");
    expect(event.location).toBe("Hall X-EVIL:1, 1 Lane ATTENDEE:mailto:x@evil.example");
    expect(event.description).toContain("Reception to follow with tea RRULE:FREQ=DAILY");
    expect(event.description).toContain("Map: https://maps.example/ ORGANIZER:y");
    expect(event.url).toBe("https://memorial.example.com/");
    expect(event.organizer).toBeUndefined();
    expect(event.rrule).toBeUndefined();
  });
});

describe("GET /service.ics", () => {
  beforeEach(() => {
    db.delete(siteSettings).run();
  });

  it("keeps a name stored with carriage returns (before they were refused) whole in the title, adding no lines of its own", async () => {
    // Written straight into the table, as a row from before the settings refused hidden characters.
    db.insert(siteSettings).values({ key: "personName", value: "Ann\rURL:https://evil.example\rORGANIZER:x" }).run();
    const response = serviceIcs.loader({ request: new Request("http://localhost/service.ics"), params: {}, context: {} } as never);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const ics = await response.text();
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(propertyNames(ics).filter((name) => !THE_PROPERTIES_WE_WRITE.includes(name ?? ""))).toEqual([]);
    const event = eventOf(ics);
    expect(event.summary).toBe(`${content.serviceTitle} for Ann URL:https://evil.example ORGANIZER:x`);
    expect(event.description).toContain("Ann URL:https://evil.example ORGANIZER:x");
    expect(event.url).toBe("http://localhost/");
    expect(event.organizer).toBeUndefined();
  });
});
