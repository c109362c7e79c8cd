import type { SiteContent } from "~/content";
import { z } from "~/utils/zod";
import { canPrecede, parsePartialDate, PARTIAL_DATE_RULE } from "./life-dates";
import { LANGUAGES } from "~/i18n/languages";
import { HIDDEN_CHARACTER, HIDDEN_CHARACTER_BUT_LF } from "~/utils/plain-text";

// The family's settings: one schema for the Site tab's forms and for
// PATCH /api/admin/settings. Client-safe (no server imports).

/** The settings the API reads and writes, in its order; `visitorPasscode` is write-only. */
export const SETTING_FIELDS = [
  "personName",
  "siteTitle",
  "siteDescription",
  "heroTitle",
  "heroSubtitle",
  "heroImageAlt",
  "birthDate",
  "birthPlace",
  "deathDate",
  "deathPlace",
  "lifeDatesShown",
  "welcomeMessage",
  "welcomeMessageAfter",
  "serviceTitle",
  "serviceStartsAt",
  "serviceEndsAt",
  "timeZone",
  "venueName",
  "venueAddress",
  "mapsLink",
  "livestreamUrl",
  "serviceNote",
  "contactEmail",
  "publicUrl",
  "privacyNote",
  "donationTitle",
  "donationText",
  "donationButtonLabel",
  "donationUrl",
  "karenModeTheme",
  "visibility",
  "languages",
  "mainLanguage",
] as const satisfies readonly (keyof SiteContent)[];

export type SettingField = (typeof SETTING_FIELDS)[number];
/** What GET /api/admin/settings answers: every setting, never the passcode. */
export type SiteSettings = SiteContent;

const VISIBILITIES = ["public", "unlisted", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Text as a browser sends it, made plain before it is checked: a pasted tab is a space, and a textarea's CRLF is LF. */
const plainTabs = (value: string) => value.replace(/\t/g, " ");
const plainLines = (value: string) => plainTabs(value).replace(/\r\n/g, "\n");

type Lines = { multiLine?: boolean };

const withoutHidden = <T extends z.ZodString>(schema: T, label: string, { multiLine = false }: Lines) =>
  schema.refine((value) => !(multiLine ? HIDDEN_CHARACTER_BUT_LF : HIDDEN_CHARACTER).test(value), {
    message: multiLine
      ? `${label} must be plain text, without hidden characters (line breaks are fine)`
      : `${label} must be one line of plain text, without line breaks or hidden characters`,
  });

/** Required text: one line unless `multiLine` (the settings whose form field is a textarea). */
const text = (label: string, max: number, lines: Lines = {}) =>
  withoutHidden(
    z
      .string({ message: `${label} is required` })
      .overwrite(lines.multiLine ? plainLines : plainTabs)
      .trim()
      .min(1, `${label} is required`)
      .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`),
    label,
    lines,
  );

/**
 * Text that may be empty. Left out, it is undefined (no zod default: in a
 * change, a setting left out stays as it is; see `sectionChange` for forms).
 */
const optionalText = (label: string, max: number, lines: Lines = {}) =>
  withoutHidden(
    z
      .string({ message: `${label} must be text` })
      .overwrite(lines.multiLine ? plainLines : plainTabs)
      .trim()
      .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`),
    label,
    lines,
  ).optional();

/** Paragraphs separated by blank lines; runs of blank lines made one. */
const message = (label: string) =>
  text(label, 5000, { multiLine: true }).transform((value) =>
    value
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter(Boolean)
      .join("\n\n"),
  );

/** The settings whose form field is a textarea: they keep line breaks, the others are one line. */
export const MULTI_LINE_SETTINGS: ReadonlySet<string> = new Set<SettingField>([
  "siteDescription",
  "welcomeMessage",
  "welcomeMessageAfter",
  "donationText",
]);

/**
 * Stored text made plain again, for a value saved before hidden characters
 * were refused: every line ending (CR, CRLF, NEL, the Unicode separators) is
 * a line break where the setting keeps them and a space where it does not,
 * and any other control character is a space. Better the family's own words,
 * tidied, than the default text in place of a name.
 */
export function plainStoredText(value: string, { multiLine }: { multiLine: boolean }): string {
  return (
    value
      .replace(/\r\n?|[\u0085\u2028\u2029]/g, multiLine ? "\n" : " ")
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      .replace(multiLine ? /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g : /[\u0000-\u001f\u007f-\u009f]/g, " ")
  );
}

/**
 * A web address as people type it: a bare name such as "giving.example.org"
 * (or "www.…/page") gets "https://" in front; anything that already names a
 * scheme is left for the check to judge.
 */
export function withWebScheme(value: string): string {
  if (!value || /^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
  return /^[^\s/?#@]+\.[^\s/?#@]+/.test(value) ? `https://${value}` : value;
}

/** An address on the web, or empty. `httpsOnly` for links that take visitors somewhere to pay or watch. */
const link = (label: string, { httpsOnly }: { httpsOnly: boolean }) =>
  optionalText(label, 2000)
    .transform((value) => (value === undefined ? value : withWebScheme(value)))
    .refine(
      (value) => {
        if (!value) return true;
        try {
          const url = new URL(value);
          return httpsOnly ? url.protocol === "https:" : url.protocol === "https:" || url.protocol === "http:";
        } catch {
          return false;
        }
      },
      { message: `${label} must be a full web address starting with ${httpsOnly ? "https://" : "https:// or http://"}` },
    );

/** A year, a month or a day (app/site/life-dates.ts), or empty when unknown. */
const partialDate = (label: string) =>
  optionalText(label, 100).refine((value) => !value || parsePartialDate(value) !== null, {
    message: `${label} ${PARTIAL_DATE_RULE}`,
  });

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Whether `value` is a real local date and time written `YYYY-MM-DDTHH:mm` (no 31 June, no 25:00). */
function isLocalDateTime(value: string): boolean {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  return (
    year >= 1900 &&
    year <= 2200 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute
  );
}

const localDateTime = (label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .refine(isLocalDateTime, { message: `${label} must be a date and time, e.g. 2025-08-31T16:00` });

/** The canonical name of an IANA time zone ("America/Los_Angeles"), or null. */
function canonicalTimeZone(value: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const timeZone = z
  .string({ message: "Time zone is required" })
  .trim()
  .min(1, "Time zone is required")
  .transform((value, ctx) => {
    const canonical = canonicalTimeZone(value);
    if (!canonical) {
      ctx.addIssue({ code: "custom", message: "Time zone must be a time zone name such as America/Los_Angeles or Europe/London" });
      return z.NEVER;
    }
    return canonical;
  });

const PASSCODE_MIN = 4;
export const PASSCODE_MAX = 100;

/** Every setting, each checked on its own; rules across settings are in `settingsProblems`. */
export const SettingsFields = z.object({
  personName: text("Name", 200),
  siteTitle: text("Site title", 200),
  siteDescription: text("Site description", 500, { multiLine: true }),
  heroTitle: text("Heading", 200),
  heroSubtitle: optionalText("Subtitle", 300),
  heroImageAlt: text("Photo description", 300),
  birthDate: partialDate("Date of birth"),
  birthPlace: optionalText("Place of birth", 200),
  deathDate: partialDate("Date of death"),
  deathPlace: optionalText("Place of death", 200),
  lifeDatesShown: z.enum(["years", "full"], { message: "Dates shown must be years or full" }),
  welcomeMessage: message("Welcome message"),
  welcomeMessageAfter: message("Message after the service"),
  serviceTitle: text("Service title", 200),
  serviceStartsAt: localDateTime("Start"),
  serviceEndsAt: localDateTime("End"),
  timeZone,
  venueName: text("Venue", 200),
  venueAddress: text("Address", 500),
  mapsLink: link("Map link", { httpsOnly: false }),
  livestreamUrl: link("Livestream link", { httpsOnly: true }),
  serviceNote: optionalText("Note", 300),
  contactEmail: z
    .string({ message: "Contact email is required" })
    .trim()
    .min(1, "Contact email is required")
    .max(254, "Contact email must be at most 254 characters")
    .email("Contact email must be a valid email address"),
  // The address alone: whatever follows the host is dropped (the site adds its own paths).
  publicUrl: link("Public address", { httpsOnly: false }).transform((value) => (value ? new URL(value).origin : value)),
  privacyNote: text("Privacy note", 500),
  donationTitle: text("Donation title", 200),
  donationText: optionalText("Donation text", 1000, { multiLine: true }),
  donationButtonLabel: text("Button label", 100),
  donationUrl: link("Donation link", { httpsOnly: true }),
  karenModeTheme: z.enum(["classic", "disco"], { message: "Theme must be classic or disco" }),
  visibility: z.enum(VISIBILITIES, { message: "Visibility must be public, unlisted or private" }),
  languages: z
    .array(z.enum(LANGUAGES, { message: `Each language must be one of ${LANGUAGES.join(", ")}` }), {
      message: "Languages must be a list of language codes",
    })
    .min(1, "Choose at least one language")
    .transform((codes) => LANGUAGES.filter((code) => codes.includes(code))),
  mainLanguage: z.enum(LANGUAGES, { message: `Main language must be one of ${LANGUAGES.join(", ")}` }),
  visitorPasscode: withoutHidden(
    z
      .string({ message: "Passcode must be text" })
      .trim()
      .max(PASSCODE_MAX, `Passcode must be at most ${PASSCODE_MAX} characters`)
      .refine((value) => value === "" || value.length >= PASSCODE_MIN, {
        message: `Passcode must be at least ${PASSCODE_MIN} characters`,
      }),
    "Passcode",
    {},
  )
    // An empty passcode field keeps the passcode there is.
    .transform((value) => value || undefined)
    .optional(),
});

/** A change: any subset of the settings (names that are not settings are refused first, see `unknownSettings`). */
export const SettingsPatch = SettingsFields.partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const NOT_A_SETTING = "This is not a setting";

/** The names in a JSON change that are not settings, each with NOT_A_SETTING (so a typo is not silently dropped). */
export function unknownSettings(body: Record<string, unknown>): Record<string, string[]> {
  const known = new Set<string>([...SETTING_FIELDS, "visitorPasscode", "translations"]);
  return Object.fromEntries(
    Object.keys(body)
      .filter((key) => !known.has(key))
      .map((key) => [key, [NOT_A_SETTING]]),
  );
}

const SERVICE_ENDS_BEFORE_START = "End must be after the start";
const DEATH_BEFORE_BIRTH = "Date of death cannot be before the date of birth";
const MAIN_LANGUAGE_NOT_CHOSEN = "The main language must be one of the site's languages";
const PASSCODE_NEEDED = "Choose a passcode for visitors: a private site cannot be opened without one";

/** The rules across settings, for the settings a change would leave: field → messages. */
export function settingsProblems(settings: SiteSettings, { hasPasscode }: { hasPasscode: boolean }): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (settings.serviceEndsAt <= settings.serviceStartsAt) problems.serviceEndsAt = [SERVICE_ENDS_BEFORE_START];
  const [born, died] = [parsePartialDate(settings.birthDate), parsePartialDate(settings.deathDate)];
  if (born && died && !canPrecede(born, died)) problems.deathDate = [DEATH_BEFORE_BIRTH];
  if (!settings.languages.includes(settings.mainLanguage)) problems.mainLanguage = [MAIN_LANGUAGE_NOT_CHOSEN];
  if (settings.visibility === "private" && !hasPasscode) problems.visitorPasscode = [PASSCODE_NEEDED];
  return problems;
}
