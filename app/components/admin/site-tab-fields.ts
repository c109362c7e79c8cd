import type { SettingField } from "~/site/settings.schema";
import type { SettingsSection } from "~/site/settings-sections";
import type { ControlType } from "~/utils/form-control";
import { LANGUAGES, type Language } from "~/i18n/languages";

// The Site tab's words: each setting's label, hint and kind of field, and
// each section's title and introduction (app/routes/admin.site.tsx).

export type FieldUi =
  | { label: string; hint?: string; type: ControlType }
  | { label: string; hint?: string; type: "radio"; options: readonly { value: string; label: string; description?: string }[] }
  | { label: string; hint?: string; type: "checkboxes"; options: readonly { value: string; label: string }[] }
  | { label: string; hint?: string; type: "timeZone" };

/** Each language's name in English, for the admin panel (which stays in English). */
export const ENGLISH_NAMES: Record<Language, string> = {
  en: "English",
  es: "Spanish",
  fr: "French",
  de: "German",
  pt: "Portuguese",
  pl: "Polish",
  zh: "Chinese (simplified)",
  ar: "Arabic",
};

/**
 * "Español (Spanish)": each language named in itself (as LANGUAGE_NAMES
 * names it), and in English. Written out here rather than built from
 * LANGUAGE_NAMES, which would then join the public pages' shared code.
 */
const LANGUAGE_LABELS: Record<Language, string> = {
  en: "English",
  es: "Español (Spanish)",
  fr: "Français (French)",
  de: "Deutsch (German)",
  pt: "Português (Portuguese)",
  pl: "Polski (Polish)",
  zh: "简体中文 (Chinese, simplified)",
  ar: "العربية (Arabic)",
};

export const languageLabel = (code: Language) => LANGUAGE_LABELS[code];

const LANGUAGE_OPTIONS = LANGUAGES.map((code) => ({ value: code, label: languageLabel(code) }));

export const FIELDS: Record<SettingField | "visitorPasscode", FieldUi> = {
  personName: { label: "Name", hint: "Their full name, as it should appear in every title.", type: "text" },
  siteTitle: { label: "Site title", hint: "Shown in the header and the footer.", type: "text" },
  siteDescription: { label: "Site description", hint: "One sentence for search results and link previews.", type: "textarea" },
  heroTitle: { label: "Heading", hint: "Shown as “<heading> of <name>” on the home page.", type: "text" },
  heroSubtitle: { label: "Subtitle", hint: "Optional: the line under the name.", type: "text" },
  heroImageAlt: { label: "Photo description", type: "text" },
  birthDate: {
    label: "Date of birth",
    hint: "A year, a month or a day: 1942, 1942-03 or 1942-03-14. Leave empty if unknown.",
    type: "text",
  },
  birthPlace: { label: "Place of birth", hint: "Optional, e.g. “Cork, Ireland”.", type: "text" },
  deathDate: {
    label: "Date of death",
    hint: "A year, a month or a day: 2026, 2026-01 or 2026-01-09. Leave empty if unknown.",
    type: "text",
  },
  deathPlace: { label: "Place of death", hint: "Optional.", type: "text" },
  lifeDatesShown: {
    label: "Under the name",
    type: "radio",
    options: [
      { value: "years", label: "The years", description: "For example 1942 – 2026." },
      { value: "full", label: "The dates as given", description: "For example March 14, 1942 – January 9, 2026." },
    ],
  },
  welcomeMessage: {
    label: "Welcome message",
    hint: "Shown until the service is over. Leave a blank line between paragraphs.",
    type: "textarea",
  },
  welcomeMessageAfter: {
    label: "Message after the service",
    hint: "Shown once the service is over, by itself. Leave a blank line between paragraphs.",
    type: "textarea",
  },
  serviceTitle: { label: "Service title", hint: "For example “Celebration of Life”.", type: "text" },
  serviceStartsAt: { label: "Start", hint: "The day and the time it begins.", type: "datetime-local" },
  serviceEndsAt: { label: "End", hint: "The day and the time it ends.", type: "datetime-local" },
  timeZone: { label: "Time zone", hint: "Where the service takes place; the times above are in it.", type: "timeZone" },
  venueName: { label: "Venue", type: "text" },
  venueAddress: { label: "Address", type: "text" },
  mapsLink: { label: "Map link", hint: "Optional: leave empty for a map search of the address.", type: "url" },
  livestreamUrl: { label: "Livestream link", hint: "Optional: for people who watch from afar.", type: "url" },
  serviceNote: { label: "Note", hint: "Optional, e.g. “Reception to follow”.", type: "text" },
  contactEmail: { label: "Contact email", hint: "Shown in the footer of every page.", type: "email" },
  publicUrl: {
    label: "Public address",
    hint: "The address people type to visit, e.g. memorial.example.com. Leave empty to use the address you are using now.",
    type: "url",
  },
  privacyNote: { label: "Privacy note", hint: "Shown under the guest book and share forms.", type: "text" },
  donationTitle: { label: "Donation title", type: "text" },
  donationText: { label: "Donation text", type: "textarea" },
  donationButtonLabel: { label: "Button label", type: "text" },
  donationUrl: {
    label: "Donation link",
    hint: "The giving page's address, e.g. giving.example.org. Leave empty to hide the donation card.",
    type: "url",
  },
  karenModeTheme: {
    label: "Karen Mode theme",
    type: "radio",
    options: [
      { value: "classic", label: "Classic", description: "A dark red footer, falling lights and a mirror ball." },
      { value: "disco", label: "Disco", description: "All of that, plus sweeping spotlights and a glowing dance floor." },
    ],
  },
  visibility: {
    label: "Who can see the site",
    type: "radio",
    options: [
      { value: "public", label: "Public", description: "Anyone with the link can visit, and search engines may list the site." },
      { value: "unlisted", label: "Unlisted", description: "Anyone with the link can visit; search engines are asked not to list it." },
      {
        value: "private",
        label: "Private",
        description: "Visitors type the family's passcode once on each phone or computer before they see anything.",
      },
    ],
  },
  visitorPasscode: { label: "Visitors' passcode", type: "text" },
  languages: {
    label: "Languages",
    hint: "Visitors can choose among these; the site's own words are translated, and yours where you give them below.",
    type: "checkboxes",
    options: LANGUAGE_OPTIONS,
  },
  mainLanguage: {
    label: "Main language",
    type: "radio",
    options: LANGUAGE_OPTIONS,
  },
};

export const SECTIONS: Record<
  SettingsSection,
  { title: string; intro?: string; /** A name keeps its capitals on the button. */ properName?: boolean }
> = {
  memorial: { title: "The memorial", intro: "The name and words at the top of every page." },
  person: { title: "Dates and places", intro: "When and where they were born and died. The dates show under the name on the home page." },
  welcome: { title: "Welcome messages", intro: "The home page's “Thank You For Visiting” section." },
  service: { title: "The service", intro: "The home page's wording changes by itself once the service is over." },
  contact: { title: "Contact and privacy note" },
  address: {
    title: "The site's address",
    intro: "Printed cards, the slideshow's QR code, invitation links and e-mails point here.",
  },
  donation: { title: "Donation card" },
  privacy: {
    title: "Privacy",
    // Public media is cached as immutable for a year (docs/decisions/020-media-after-going-private.md).
    intro:
      "Photos and videos that visitors have already opened may stay in their browsers and in web caches for up to a year after you make the site private.",
  },
  karenMode: { title: "Karen Mode", properName: true },
  languages: {
    title: "Languages",
    intro:
      "The languages visitors can read the site in. Your texts on this page are in the main language; visitors read them when a translation is missing.",
  },
};
