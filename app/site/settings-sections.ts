import { z } from "~/utils/zod";
import { SettingsFields, type SettingField, type SettingsPatch } from "./settings.schema";

// The Site tab's sections: each a form that saves its own settings, checked
// by the same schema as PATCH /api/admin/settings. Client-safe.

export const SETTINGS_SAVED = { title: "Settings Saved", description: "Visitors see the change on their next page." } as const;

/** The Site tab's forms: each saves its own settings (the same schema, picked). */
export const SETTINGS_SECTIONS = {
  memorial: ["personName", "siteTitle", "siteDescription", "heroTitle", "heroSubtitle"],
  person: ["birthDate", "birthPlace", "deathDate", "deathPlace", "lifeDatesShown"],
  welcome: ["welcomeMessage", "welcomeMessageAfter"],
  service: [
    "serviceTitle",
    "serviceStartsAt",
    "serviceEndsAt",
    "timeZone",
    "venueName",
    "venueAddress",
    "mapsLink",
    "livestreamUrl",
    "serviceNote",
  ],
  contact: ["contactEmail", "privacyNote"],
  address: ["publicUrl"],
  donation: ["donationTitle", "donationText", "donationButtonLabel", "donationUrl"],
  privacy: ["visibility", "visitorPasscode"],
  karenMode: ["karenModeTheme"],
  languages: ["languages", "mainLanguage"],
} as const satisfies Record<string, readonly (SettingField | "visitorPasscode")[]>;

export type SettingsSection = keyof typeof SETTINGS_SECTIONS;

const sectionSchemas = new Map<SettingsSection, z.ZodObject>();
/** The schema of one section's form: its settings, each required as in SettingsFields. */
export function sectionSchema(section: SettingsSection) {
  let schema = sectionSchemas.get(section);
  if (!schema) {
    const mask = Object.fromEntries(SETTINGS_SECTIONS[section].map((field) => [field, true as const]));
    schema = SettingsFields.pick(mask as Partial<Record<keyof typeof SettingsFields.shape, true>>);
    sectionSchemas.set(section, schema);
  }
  return schema;
}

/**
 * A section form's checked values as a change. A form sends every field of
 * its section, and conform reads an empty field as left out: here an
 * optional setting left empty is emptied (the family cleared it), and only
 * the passcode, write-only, is kept when its field is empty.
 */
export function sectionChange(section: SettingsSection, value: SettingsPatch): SettingsPatch {
  return formChange(
    SETTINGS_SECTIONS[section].filter((field) => field !== "visitorPasscode"),
    value,
  );
}

/**
 * A form's checked values as a change of the settings `fields`, every one of
 * which the form sends: conform reads an empty field as left out, so each of
 * them left out is emptied (the family cleared it).
 */
export function formChange(fields: readonly SettingField[], value: SettingsPatch): SettingsPatch {
  const cleared = fields.map((field) => [field, ""]);
  const given = Object.entries(value).filter(([, setting]) => setting !== undefined);
  return { ...Object.fromEntries(cleared), ...Object.fromEntries(given) };
}

export const isSettingsSection = (value: unknown): value is SettingsSection =>
  typeof value === "string" && Object.hasOwn(SETTINGS_SECTIONS, value);
