import { HDate, HebrewCalendar } from "@hebcal/core";
import type { SiteContent } from "~/content";
import { parsePartialDate, type PartialDate } from "~/site/life-dates";
import { LANGUAGE_TAGS, type Language } from "~/i18n/languages";
import type { Remembrance } from "./remembrance.schema";

// The days that come back every year: the birthday, the anniversary of the
// death and the Hebrew-calendar yahrzeit, from the dates of birth and death
// the family gave (the Site tab's "Dates and places"). Dates are local days
// ("YYYY-MM-DD") in the site's time zone; the reminders (reminders.server.ts)
// and the calendar feed read them from here.

export type YearlyKind = "birthday" | "anniversary" | "yahrzeit";

export interface YearlyDay {
  kind: YearlyKind;
  /** The Gregorian day it falls on this time, "YYYY-MM-DD". */
  date: string;
  /** How many years it marks: the 85th birthday, the 1st anniversary, the 1st yahrzeit. */
  years: number;
  /** The yahrzeit's Hebrew date, "21st of Tevet, 5787". */
  hebrewDate?: string;
}

type Dates = Pick<SiteContent, "birthDate" | "deathDate">;

const fullDate = (value: string): Required<PartialDate> | null => {
  const date = value ? parsePartialDate(value) : null;
  return date?.month !== undefined && date.day !== undefined ? (date as Required<PartialDate>) : null;
};

const iso = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/** A local Date at noon (clear of any daylight-saving edge), as @hebcal/core reads dates. */
const localNoon = (date: Required<PartialDate>) => new Date(date.year, date.month - 1, date.day, 12);
const isoOfLocal = (date: Date) => iso(date.getFullYear(), date.getMonth() + 1, date.getDate());

/**
 * Which yearly days the dates allow: a birthday or an anniversary needs the
 * month and the day, a yahrzeit the full date of death.
 */
export function yearlyDaysKnown(dates: Dates): Record<YearlyKind, boolean> {
  const born = parsePartialDate(dates.birthDate);
  const died = parsePartialDate(dates.deathDate);
  return {
    birthday: born?.day !== undefined,
    anniversary: died?.day !== undefined,
    yahrzeit: died?.day !== undefined,
  };
}

/** The day a month and day fall on in `year`: 29 February is kept on the 28th in a common year. */
function dayIn(year: number, month: number, day: number): string {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return iso(year, month, month === 2 && day === 29 && !leap ? 28 : day);
}

/**
 * The Hebrew date of a death: the day after the Gregorian date when the
 * death was after sunset (the Hebrew day begins at nightfall).
 */
function hebrewDateOfDeath(deathDate: string, afterSunset: boolean): HDate | null {
  const died = fullDate(deathDate);
  if (!died) return null;
  const day = new HDate(localNoon(died));
  return afterSunset ? day.next() : day;
}

/**
 * The yearly days the family turned on that fall from `from` to `to`
 * (inclusive, "YYYY-MM-DD"), in date order. Only days after the death.
 */
export function yearlyDaysBetween(
  dates: Dates,
  choice: Pick<Remembrance, "birthday" | "anniversary" | "yahrzeit" | "afterSunset">,
  from: string,
  to: string,
): YearlyDay[] {
  const days: YearlyDay[] = [];
  const died = fullDate(dates.deathDate);
  const born = fullDate(dates.birthDate);
  const diedOn = died ? iso(died.year, died.month, died.day) : null;
  const firstYear = Number(from.slice(0, 4));
  const lastYear = Number(to.slice(0, 4));
  const within = (date: string) => date >= from && date <= to && (diedOn === null || date > diedOn);
  for (let year = firstYear; year <= lastYear; year++) {
    if (choice.birthday && born) {
      const date = dayIn(year, born.month, born.day);
      if (within(date)) days.push({ kind: "birthday", date, years: year - born.year });
    }
    if (choice.anniversary && died) {
      const date = dayIn(year, died.month, died.day);
      if (within(date) && year > died.year) days.push({ kind: "anniversary", date, years: year - died.year });
    }
  }
  const hebrewDeath = choice.yahrzeit ? hebrewDateOfDeath(dates.deathDate, choice.afterSunset) : null;
  if (hebrewDeath) {
    // A Gregorian year overlaps two Hebrew years: look at each one the range touches.
    const firstHebrew = new HDate(new Date(firstYear, 0, 1, 12)).getFullYear();
    const lastHebrew = new HDate(new Date(lastYear, 11, 31, 12)).getFullYear();
    for (let hyear = firstHebrew; hyear <= lastHebrew; hyear++) {
      const yahrzeit = HebrewCalendar.getYahrzeit(hyear, hebrewDeath);
      if (!yahrzeit) continue;
      const date = isoOfLocal(yahrzeit.greg());
      if (within(date)) {
        days.push({ kind: "yahrzeit", date, years: hyear - hebrewDeath.getFullYear(), hebrewDate: yahrzeit.render("en") });
      }
    }
  }
  return days.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.kind.localeCompare(b.kind)));
}

/** `date` ("YYYY-MM-DD") moved by `days` whole days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return iso(moved.getUTCFullYear(), moved.getUTCMonth() + 1, moved.getUTCDate());
}

const LONG_DAY_OPTIONS = { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } as const;
const LONG_DAY = new Intl.DateTimeFormat("en-US", LONG_DAY_OPTIONS);

/** A day ("YYYY-MM-DD") written out: "Sunday, March 14, 2027", or as `language` writes it ("domingo, 14 de marzo de 2027"). */
export const longDay = (date: string, language: Language = "en") =>
  (language === "en" ? LONG_DAY : longDayIn(language)).format(new Date(`${date}T12:00:00Z`));

const LONG_DAYS = new Map<Language, Intl.DateTimeFormat>();
function longDayIn(language: Language) {
  let format = LONG_DAYS.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(LANGUAGE_TAGS[language], LONG_DAY_OPTIONS);
    LONG_DAYS.set(language, format);
  }
  return format;
}
