// date-fns's formatDistance, in English with "ago", written out here: the
// library's locale tables were 3.8 KB of every list page's gzipped
// JavaScript (docs/decisions/017). A test compares the two on many dates.
const MINUTES_IN_DAY = 1440;
const MINUTES_IN_MONTH = 43200;

const plural = (count: number, one: string, other: string) => (count === 1 ? one : other.replace("#", String(count)));

/** How far this local time is from UTC at `date`, as date-fns works it out (daylight saving time included). */
function timezoneOffsetMs(date: Date): number {
  const utc = new Date(
    Date.UTC(
      date.getFullYear(),
      date.getMonth(),
      date.getDate(),
      date.getHours(),
      date.getMinutes(),
      date.getSeconds(),
      date.getMilliseconds(),
    ),
  );
  utc.setUTCFullYear(date.getFullYear());
  return date.getTime() - utc.getTime();
}

/** Whole calendar months from `earlier` to `later` (later ≥ earlier), as date-fns's differenceInMonths counts them. */
function monthsBetween(later: Date, earlier: Date): number {
  const difference = (later.getFullYear() - earlier.getFullYear()) * 12 + later.getMonth() - earlier.getMonth();
  if (difference < 1 || later.getTime() === earlier.getTime()) return 0;
  const working = new Date(later.getTime());
  if (working.getMonth() === 1 && working.getDate() > 27) working.setDate(30);
  working.setMonth(working.getMonth() - difference);
  let lastMonthNotFull = working.getTime() < earlier.getTime();
  const lastDayOfMonth = later.getDate() === new Date(later.getFullYear(), later.getMonth() + 1, 0).getDate();
  if (lastDayOfMonth && difference === 1) lastMonthNotFull = false;
  return difference - (lastMonthNotFull ? 1 : 0);
}

type Unit = "second" | "minute" | "hour" | "day" | "month" | "year";

/** "about 2 hours" from `then` to `now` (then ≤ now): date-fns's formatDistance words, and the unit and count they round to. */
function distance(then: Date, now: Date): [string, Unit, number] {
  const seconds = Math.trunc((now.getTime() - then.getTime()) / 1000);
  const offsetSeconds = (timezoneOffsetMs(now) - timezoneOffsetMs(then)) / 1000;
  const minutes = Math.round((seconds - offsetSeconds) / 60);
  if (minutes < 2)
    return minutes === 0 ? ["less than a minute", "second", 0] : [plural(minutes, "1 minute", "# minutes"), "minute", minutes];
  if (minutes < 45) return [plural(minutes, "1 minute", "# minutes"), "minute", minutes];
  if (minutes < 90) return ["about 1 hour", "hour", 1];
  let count = Math.round(minutes / 60);
  if (minutes < MINUTES_IN_DAY) return [plural(count, "about 1 hour", "about # hours"), "hour", count];
  if (minutes < 2520) return ["1 day", "day", 1];
  count = Math.round(minutes / MINUTES_IN_DAY);
  if (minutes < MINUTES_IN_MONTH) return [plural(count, "1 day", "# days"), "day", count];
  count = Math.round(minutes / MINUTES_IN_MONTH);
  if (minutes < MINUTES_IN_MONTH * 2) return [plural(count, "about 1 month", "about # months"), "month", count];
  const months = monthsBetween(now, then);
  if (months < 12) return [plural(count, "1 month", "# months"), "month", count];
  const years = Math.trunc(months / 12);
  const rest = months % 12;
  if (rest < 3) return [plural(years, "about 1 year", "about # years"), "year", years];
  if (rest < 9) return [plural(years, "over 1 year", "over # years"), "year", years];
  return [plural(years + 1, "almost 1 year", "almost # years"), "year", years + 1];
}

/**
 * "about 2 hours ago", measured against a `now` that the loader chooses, so
 * the server and the browser render the same words (no hydration mismatch).
 * In another language (`tag`: LANGUAGE_TAGS of app/i18n/languages.ts) Intl.RelativeTimeFormat writes
 * it ("hace 3 días"); a browser without it (Safari 12) gets the date itself.
 * `recently` is said when the time is unknown.
 */
export function relativeTime(createdAt: string | number | Date | null | undefined, now: number, tag = "en", recently = "Recently"): string {
  if (createdAt === null || createdAt === undefined || createdAt === "") return recently;
  const when = new Date(createdAt);
  if (Number.isNaN(when.getTime())) return recently;
  // A clock a little ahead of ours must not read "in 2 minutes".
  const clamped = Math.min(when.getTime(), now);
  const [words, unit, count] = distance(new Date(clamped), new Date(now));
  if (tag === "en") return `${words} ago`;
  if (typeof Intl.RelativeTimeFormat !== "function")
    return new Date(clamped).toLocaleDateString(tag, { year: "numeric", month: "long", day: "numeric" });
  // "now" for under a minute; otherwise the count, as English gives it ("hace 1 día", not "ayer" for 30 hours).
  return new Intl.RelativeTimeFormat(tag, { numeric: count ? "always" : "auto" }).format(-count, unit);
}

/**
 * When the family added a poem to the site, in words that cannot be taken
 * for the poem's own date: "Added 3 days ago", never a bare "3 days ago"
 * under a poem written in 1932. `t` gives the page's words (poems.added,
 * poems.addedRecently); without it, English.
 */
export function addedAgo(
  createdAt: string | null,
  now: number,
  tag = "en",
  t: (id: string, values?: Record<string, unknown>) => string = (id, values) => (values ? `Added ${String(values.ago)}` : "Added recently"),
): string {
  const ago = relativeTime(createdAt, now, tag, "");
  return ago ? t("poems.added", { ago }) : t("poems.addedRecently");
}

/** Items of a list with `ago` written beside each, for a page that appends more of them ("Load More"). */
export const withAgo = <T extends { createdAt: string | number | Date | null }>(items: T[], now: number, tag: string, recently: string) =>
  items.map((item) => ({ ...item, ago: relativeTime(item.createdAt, now, tag, recently) }));
