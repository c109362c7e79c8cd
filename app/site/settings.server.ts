import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { siteSettings } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { hashPassword } from "~/admins/password.server";
import { content, type SiteContent } from "~/content";
import { config } from "~/platform/config.server";
import { contentVersion, db, type Transaction } from "~/platform/db.server";
import { siteOrigin, type FieldErrors } from "~/platform/http.server";
import { publicAddressProblem, type AddressProblem } from "~/utils/public-address";
import { describeService } from "~/site/service-time.server";
import type { SiteView } from "~/site/site-view";
import type { Language } from "~/i18n/languages";
import { translate } from "~/i18n/i18n.server";
import {
  MULTI_LINE_SETTINGS,
  plainStoredText,
  SETTING_FIELDS,
  SettingsFields,
  settingsProblems,
  type SettingField,
  type SettingsPatch,
  type SiteSettings,
} from "./settings.schema";
import { mergeTranslations, storedTranslations, translatedSettings, type Translations, type TranslationsPatch } from "./translations";
import { heroImageView, karenMusicView } from "./site-media.schema";

// The family's settings live in site_settings, one row per setting they have
// changed; every other setting has its default from app/content.ts. They are
// read on every request (one small indexed read), so a change shows on the
// next page without a restart, in this process and any other.

/** Rows of site_settings that are not settings of the API. */
export const STORED_KEYS = {
  /** {hash, version}: the visitors' passcode (scrypt) and a token that changes with it. */
  passcode: "visitorPasscode",
  /** The family's hero photo (app/site/hero-photo.server.ts). */
  heroImage: "heroImage",
  /** The family's Karen Mode song (app/site/karen-song.server.ts). */
  karenSong: "karenSong",
  /** The photo the family uploaded for the life story's page (app/life/life-photo.server.ts). */
  lifePhoto: "lifePhoto",
  /** The family's yearly reminders to followers (app/remembrance/remembrance.server.ts). */
  remembrance: "remembrance",
  /** true: "Let helpers read first" (app/site/read-first.server.ts); absent or false: off. */
  helpersReadFirst: "helpersReadFirst",
  /** The family's own words in the site's other languages (app/site/translations.ts). */
  translations: "translations",
  /** The life story in the site's other languages (app/life/life-translations.server.ts). */
  lifeTranslations: "lifeTranslations",
  /** The yearly reminders' words in the site's other languages (app/remembrance/remembrance.server.ts). */
  remembranceTranslations: "remembranceTranslations",
} as const;

const settingKeys = new Set<string>(SETTING_FIELDS);

/**
 * The settings as visitors should see them: each stored value that is still
 * valid (a value from an older version of the rules falls back to its
 * default rather than breaking the page; text with hidden characters is
 * made plain first, see `plainStoredText`), over the defaults.
 */
export function getSiteSettings(): SiteSettings {
  const rows = db
    .select({ key: siteSettings.key, value: siteSettings.value })
    .from(siteSettings)
    .where(inArray(siteSettings.key, SETTING_FIELDS as unknown as string[]))
    .all();
  const settings: SiteContent = { ...content };
  for (const row of rows) {
    if (!settingKeys.has(row.key)) continue;
    const key = row.key as keyof SiteContent;
    const stored = typeof row.value === "string" ? plainStoredText(row.value, { multiLine: MULTI_LINE_SETTINGS.has(key) }) : row.value;
    const parsed = SettingsFields.shape[key].safeParse(stored);
    if (parsed.success) (settings as unknown as Record<string, unknown>)[key] = parsed.data;
  }
  return settings;
}

/** A row of site_settings outside the API's settings (see STORED_KEYS), or null; read inside `tx` when given. */
export function getStoredValue<T>(key: (typeof STORED_KEYS)[keyof typeof STORED_KEYS], tx: Pick<Transaction, "select"> = db): T | null {
  const row = tx.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, key)).get();
  return row ? (row.value as T) : null;
}

/** Writes (or with null, removes) a row of site_settings outside the API's settings, inside the caller's commit. */
export function setStoredValue(tx: Transaction, key: (typeof STORED_KEYS)[keyof typeof STORED_KEYS], value: unknown, by: string | null) {
  if (value === null) {
    tx.delete(siteSettings).where(eq(siteSettings.key, key)).run();
    return;
  }
  upsertSetting(tx, key, value, by, Date.now());
}

function upsertSetting(tx: Transaction, key: string, value: unknown, by: string | null, at: number) {
  tx.insert(siteSettings)
    .values({ key, value, updatedBy: by, updatedAt: new Date(at) })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedBy: by, updatedAt: new Date(at) } })
    .run();
}

export interface StoredPasscode {
  hash: string;
  /** Changes whenever the passcode does: a visitor's cookie names it, so a new passcode shuts old cookies out. */
  version: string;
}

/** A stored passcode as updateSiteSettings writes it (its hash and version), or null for anything else. */
export function asStoredPasscode(value: unknown): StoredPasscode | null {
  const passcode = value as Partial<StoredPasscode> | null;
  return typeof passcode?.hash === "string" && typeof passcode.version === "string" && passcode.version !== ""
    ? { hash: passcode.hash, version: passcode.version }
    : null;
}

/** The family's translations of their own words (language → setting → text), read inside `tx` when given. */
export const getTranslations = (tx: Pick<Transaction, "select"> = db): Translations =>
  storedTranslations(getStoredValue(STORED_KEYS.translations, tx));

export const getVisitorPasscode = () => asStoredPasscode(getStoredValue(STORED_KEYS.passcode));

export type SettingsUpdate = { ok: true; settings: SiteSettings } | { ok: false; errors: FieldErrors };

/** A checked change, ready to be written in a commit by `by` (its passcode already hashed), or the reasons it is refused. */
export type SettingsChange = { ok: true; write: (tx: Transaction, by: string | null) => void } | { ok: false; errors: FieldErrors };

/**
 * Checks a change (SettingsPatch): the settings it would leave must keep the
 * rules across settings (an end after the start, a passcode for a private
 * site). The passcode is hashed here, before any transaction, so the write
 * itself is quick.
 */
export async function prepareSettingsChange(patch: SettingsPatch, translations: TranslationsPatch = {}): Promise<SettingsChange> {
  const { visitorPasscode, ...given } = patch;
  const changes = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<SiteSettings>;
  const next: SiteSettings = { ...getSiteSettings(), ...changes };
  const problems = settingsProblems(next, { hasPasscode: Boolean(visitorPasscode) || getVisitorPasscode() !== null });
  if (Object.keys(problems).length > 0) return { ok: false, errors: problems };
  const passcode: StoredPasscode | null = visitorPasscode
    ? { hash: await hashPassword(normalisePasscode(visitorPasscode)), version: randomBytes(12).toString("base64url") }
    : null;
  return {
    ok: true,
    write(tx, by) {
      const at = Date.now();
      for (const [key, value] of Object.entries(changes)) upsertSetting(tx, key, value, by, at);
      if (passcode) upsertSetting(tx, STORED_KEYS.passcode, passcode, by, at);
      if (Object.keys(translations).length > 0) {
        const merged = mergeTranslations(getTranslations(tx), translations);
        if (Object.keys(merged).length > 0) upsertSetting(tx, STORED_KEYS.translations, merged, by, at);
        else tx.delete(siteSettings).where(eq(siteSettings.key, STORED_KEYS.translations)).run();
      }
    },
  };
}

/** Runs a settings write inside its commit: what else the change means is done in the same commit (followers told of the service). */
export type SettingsWriteWrapper = (tx: Transaction, write: () => void) => void;

/**
 * Applies a checked change made by the admin `by`, all of it in one commit,
 * or none of it when it breaks a rule; `around` runs the write (see SettingsWriteWrapper).
 */
export async function updateSiteSettings(
  patch: SettingsPatch,
  by: Actor,
  around: SettingsWriteWrapper = (_tx, write) => write(),
  translations: TranslationsPatch = {},
): Promise<SettingsUpdate> {
  const change = await prepareSettingsChange(patch, translations);
  if (!change.ok) return change;
  by.commit((tx) => around(tx, () => change.write(tx, by.username)));
  return { ok: true, settings: getSiteSettings() };
}

/** Passcodes are told aloud and typed on phones: surrounding spaces and capitals do not matter. */
export const normalisePasscode = (passcode: string) => passcode.trim().toLowerCase();

let lastViews: { version: string; minute: number; views: Map<string, SiteView> } | undefined;

/**
 * Everything a page needs of the settings, for the root loader, in the
 * visitor's language (the family's main language when none is given or it
 * is not one of theirs). Every page asks, and working it out (three reads,
 * the service's dates in its time zone) was a sixth of a page's CPU: each
 * language's answer is kept while the content version stands, within the
 * same minute (the service's times are whole minutes, so "over" turns
 * exactly when it should).
 */
export function getSiteView(now = Date.now(), language?: Language): SiteView {
  const version = contentVersion();
  const minute = Math.floor(now / 60_000);
  if (lastViews?.version !== version || lastViews.minute !== minute) lastViews = { version, minute, views: new Map() };
  const { views } = lastViews;
  let main = views.get("main");
  if (!main) {
    const settings = getSiteSettings();
    main = siteView(settings, settings.mainLanguage, now);
    views.set("main", main);
    views.set(main.language, main);
  }
  if (!language || !main.languages.includes(language)) return main;
  let view = views.get(language);
  if (!view) {
    view = siteView(getSiteSettings(), language, now);
    views.set(language, view);
  }
  return view;
}

/** The settings as visitors read them in `language`: the family's translation of each text, or the main language's. */
function siteView(main: SiteSettings, language: Language, now: number): SiteView {
  const settings = language === main.mainLanguage ? main : translatedSettings(main, getTranslations(), language);
  return {
    ...settings,
    language,
    memorialName: translate(language)("common.memorialTitle", { heading: settings.heroTitle, name: settings.personName }),
    // The example address of a new site is never offered to visitors as the family's.
    contactEmail: settings.contactEmail === content.contactEmail ? "" : settings.contactEmail,
    service: describeService(settings, now, language),
    heroImage: heroImageView(getStoredValue(STORED_KEYS.heroImage)),
    karenMusic: karenMusicView(getStoredValue(STORED_KEYS.karenSong)),
  };
}

/**
 * The site's public origin, for what is printed or sent out (QR codes,
 * invitation and e-mail links): PUBLIC_URL when the server sets it, else the
 * address the family set in the Site tab, else the address of `request`.
 * Shared caches follow PUBLIC_URL alone (app/platform/http.server.ts), never
 * this setting.
 */
export function sitePublicAddress(request?: Request): string {
  return config.PUBLIC_URL ?? (getSiteView().publicUrl || (request ? siteOrigin(request) : "http://localhost"));
}

/** For the admin's warnings: the public address, and what is wrong with it for guests (null: nothing). */
export function publicAddressCheck(request: Request): { address: string; problem: AddressProblem | null } {
  const address = sitePublicAddress(request);
  return { address, problem: publicAddressProblem(address) };
}

/** A step of the admin home's "Make it yours" list, and whether the family has done it. */
export type SetupStep = { step: "name" | "service" | "contact" | "photo" | "address" | "donation"; done: boolean };

/** Whether the family has saved `key` themselves (even as empty), rather than left its default. */
const hasStoredSetting = (key: SettingField) =>
  db.select({ key: siteSettings.key }).from(siteSettings).where(eq(siteSettings.key, key)).get() !== undefined;

/**
 * What a new memorial still shows of the example site, or still lacks: each
 * step is done once its setting differs from the default (the photo: once
 * the family's own is up; the address: once set here, or by PUBLIC_URL; the
 * donation card: once saved, with a link or without).
 */
export function setupSteps(): SetupStep[] {
  const settings = getSiteSettings();
  const changed = (...names: (keyof SiteContent)[]) => names.some((name) => settings[name] !== content[name]);
  return [
    { step: "name", done: changed("personName") },
    { step: "service", done: changed("serviceStartsAt", "venueName", "venueAddress") },
    { step: "contact", done: changed("contactEmail") },
    { step: "photo", done: getStoredValue(STORED_KEYS.heroImage) !== null },
    { step: "address", done: config.PUBLIC_URL !== undefined || settings.publicUrl !== "" },
    // Done once the family has saved the donation card, with a link or, choosing none, without.
    { step: "donation", done: hasStoredSetting("donationUrl") },
  ];
}
