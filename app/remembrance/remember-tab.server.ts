import { csvDate } from "~/keepsakes/csv.server";
import { mailEnabled } from "~/mail/outbox.server";
import { getSiteSettings } from "~/site/settings.server";
import { formatIsoDate } from "~/utils/time";
import { topicWords } from "./follow.constants";
import { ordinal } from "./follower-mail.server";
import { followerCounts, listFollowers } from "./followers.server";
import { getRemembrance } from "./remembrance.server";
import { addDays, longDay, yearlyDaysBetween, yearlyDaysKnown, type YearlyDay, type YearlyKind } from "./yearly-days.server";

// What the Remember tab shows: the family's reminder choices, which yearly
// days their dates allow, when the chosen ones fall next, and who follows.

/** How far ahead the tab looks: a little over a year, so every chosen day shows at least once. */
const PREVIEW_DAYS = 396;

/** A coming yearly day as the tab lists it. */
export interface UpcomingDay {
  kind: YearlyKind;
  /** "Sunday, March 14, 2027". */
  date: string;
  /** "The birthday: she would have been 85". */
  what: string;
}

function describe(day: YearlyDay): string {
  switch (day.kind) {
    case "birthday":
      return `The birthday (would have been ${day.years})`;
    case "anniversary":
      return `The ${ordinal(day.years)} anniversary of the death`;
    case "yahrzeit":
      return `The ${ordinal(day.years)} yahrzeit, ${day.hebrewDate} (it begins at sunset the evening before)`;
  }
}

/** The chosen yearly days from today (in the site's time zone) to a little over a year on. */
function upcomingDays(now = Date.now()): UpcomingDay[] {
  const site = getSiteSettings();
  const today = formatIsoDate(now, site.timeZone);
  return yearlyDaysBetween(site, getRemembrance(), today, addDays(today, PREVIEW_DAYS)).map((day) => ({
    kind: day.kind,
    date: longDay(day.date),
    what: describe(day),
  }));
}

/** Everything the Remember tab shows. */
export function rememberTab(now = Date.now()) {
  const { following, waiting } = followerCounts();
  return {
    remembrance: getRemembrance(),
    known: yearlyDaysKnown(getSiteSettings()),
    upcoming: upcomingDays(now),
    mailEnabled: mailEnabled(),
    count: following,
    waiting,
    followers: listFollowers(),
  };
}

export const FOLLOWER_COLUMNS = ["Name", "Email", "Topics", "Since"];

/**
 * The followers as CSV rows, for the family's download alone (GET
 * /api/admin/export/followers.csv): what they follow in words, and since
 * when in the site's time zone. Never part of the keepsake ZIP.
 */
export function followerRows(): string[][] {
  const { timeZone } = getSiteSettings();
  return listFollowers().map((follower) => [
    follower.name,
    follower.email,
    topicWords(follower.topics),
    csvDate(new Date(follower.confirmedAt), timeZone),
  ]);
}
