import type { SiteContent } from "~/content";
import { LANGUAGE_TAGS, type Language } from "~/i18n/languages";

// The person's dates of birth and death as the family gives them: a year
// ("1942"), a month ("1942-03") or a full date ("1942-03-14"), either left
// empty when unknown. Client-safe: the Site tab's check, the hero and the
// search engines' JSON-LD read them the same way.

export interface PartialDate {
  year: number;
  month?: number;
  day?: number;
}

/** What a refused date is told: "Date of birth " + this. */
export const PARTIAL_DATE_RULE = "must be a year, a month or a day, written 1942, 1942-03 or 1942-03-14";

const PARTIAL_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** A real year, month or day written `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (no 30 February), or null. */
export function parsePartialDate(value: string): PartialDate | null {
  const match = PARTIAL_DATE.exec(value);
  if (!match) return null;
  const year = Number(match[1]);
  if (year < 1000) return null;
  if (match[2] === undefined) return { year };
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  if (match[3] === undefined) return { year, month };
  const day = Number(match[3]);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (day < 1 || date.getUTCMonth() !== month - 1) return null;
  return { year, month, day };
}

/**
 * Whether `earlier` can come before (or on) `later`, at the precision both
 * give: "1942" and "1942-03-14" can be the same day, "2026" cannot come
 * before "1942-03".
 */
export function canPrecede(earlier: PartialDate, later: PartialDate): boolean {
  const parts = (date: PartialDate) => [date.year, date.month, date.day];
  const [a, b] = [parts(earlier), parts(later)];
  for (let i = 0; i < 3; i++) {
    if (a[i] === undefined || b[i] === undefined) return true;
    if (a[i] !== b[i]) return a[i]! < b[i]!;
  }
  return true;
}

/**
 * "1942", "March 1942" or "March 14, 1942"; with `yearOnly`, the year alone.
 * In another `language`, as Intl writes it there ("14 de marzo de 1942").
 */
export function formatPartialDate(date: PartialDate, { yearOnly = false, language = "en" as Language } = {}): string {
  if (yearOnly || date.month === undefined) return String(date.year);
  if (language !== "en") {
    const day = date.day === undefined ? undefined : "numeric";
    return new Intl.DateTimeFormat(LANGUAGE_TAGS[language], { timeZone: "UTC", year: "numeric", month: "long", day }).format(
      Date.UTC(date.year, date.month - 1, date.day || 1),
    );
  }
  const month = MONTHS[date.month - 1]!;
  return date.day === undefined ? `${month} ${date.year}` : `${month} ${date.day}, ${date.year}`;
}

type LifeDatesSettings = Pick<SiteContent, "birthDate" | "deathDate" | "lifeDatesShown">;

/** "Born March 14, 1942, in Dublin · Died January 9, 2026, in Cork", or as much as the family gave; "" for nothing. */
export function lifeLine(settings: Pick<SiteContent, "birthDate" | "birthPlace" | "deathDate" | "deathPlace">): string {
  const end = (verb: string, value: string, place: string) => {
    const date = value ? parsePartialDate(value) : null;
    const parts = [date ? formatPartialDate(date) : "", place ? `in ${place}` : ""].filter(Boolean);
    return parts.length > 0 ? `${verb} ${parts.join(", ")}` : "";
  };
  return [end("Born", settings.birthDate, settings.birthPlace), end("Died", settings.deathDate, settings.deathPlace)]
    .filter(Boolean)
    .join(" · ");
}

/** One end of the line under the name: what it says and its machine-readable date, for a <time> element. */
export interface LifeDate {
  text: string;
  dateTime: string;
}

/**
 * The line under the name: both dates ("1942 – 2026", or the full dates if
 * the family chose them, written in `language`), "Born …" or "Died …" when
 * only one is known, or null when neither is.
 */
export function lifeDates(settings: LifeDatesSettings, language: Language = "en"): { born: LifeDate | null; died: LifeDate | null } | null {
  const yearOnly = settings.lifeDatesShown !== "full";
  const end = (value: string): LifeDate | null => {
    const date = value ? parsePartialDate(value) : null;
    return date ? { text: formatPartialDate(date, { yearOnly, language }), dateTime: yearOnly ? String(date.year) : value } : null;
  };
  const born = end(settings.birthDate);
  const died = end(settings.deathDate);
  return born || died ? { born, died } : null;
}
