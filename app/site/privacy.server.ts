import { inArray } from "drizzle-orm";
import { siteSettings } from "../../db/schema";
import { content } from "~/content";
import { contentVersion, db } from "~/platform/db.server";
import type { SiteView } from "~/site/site-view";
import { SettingsFields, type Visibility } from "./settings.schema";
import { asStoredPasscode, STORED_KEYS, type StoredPasscode } from "./settings.server";

// Who may see the memorial: the family's `visibility` setting and the
// visitors' passcode. Asked for on every request (app/server/visitor-gate.server.ts),
// so a change shows on the next one: the read is kept until the content
// version moves, which every write to the database does, from any process.

export interface Privacy {
  visibility: Visibility;
  /** The visitors' passcode (its hash and version), or null when none was ever set. */
  passcode: StoredPasscode | null;
}

const VISIBILITY_KEY = "visibility" satisfies keyof typeof content;

// Prepared once: the gate runs this for every request, static files included.
const readPrivacy = db
  .select({ key: siteSettings.key, value: siteSettings.value })
  .from(siteSettings)
  .where(inArray(siteSettings.key, [VISIBILITY_KEY, STORED_KEYS.passcode]))
  .prepare();

/** The last read, under the content version it was read at. */
let lastRead: { version: string; privacy: Readonly<Privacy> } | null = null;

/**
 * The visibility and the passcode, in one read. A stored visibility that is
 * no longer valid counts as the default, as in getSiteSettings. Read again
 * only after a write (ours or another process's) moved the content version;
 * a caller that has just read the version passes it.
 */
export function getPrivacy(version = contentVersion()): Readonly<Privacy> {
  if (lastRead?.version === version) return lastRead.privacy;
  const privacy: Privacy = { visibility: content.visibility, passcode: null };
  for (const row of readPrivacy.all()) {
    if (row.key === VISIBILITY_KEY) privacy.visibility = SettingsFields.shape.visibility.safeParse(row.value).data ?? privacy.visibility;
    if (row.key === STORED_KEYS.passcode) privacy.passcode = asStoredPasscode(row.value);
  }
  lastRead = { version, privacy: Object.freeze(privacy) };
  return lastRead.privacy;
}

/** Settings a visitor without the passcode may read: the names on the passcode page and in its link preview. */
const SHOWN_WHILE_LOCKED = [
  "personName",
  "siteTitle",
  "siteDescription",
  "heroTitle",
  "memorialName",
  "visibility",
  "karenModeTheme",
] as const;

/**
 * The site as a visitor of a private memorial sees it before giving the
 * passcode (the passcode page, the admin login card): the memorial's name
 * and description, and nothing of the service, the family's words, the
 * contact address, the photo or the song.
 */
export function siteViewWhileLocked(site: SiteView): SiteView {
  const blank = Object.fromEntries(
    Object.entries(site).map(([key, value]) => [key, typeof value === "string" ? "" : value]),
  ) as unknown as SiteView;
  const shown = Object.fromEntries(SHOWN_WHILE_LOCKED.map((key) => [key, site[key]]));
  return {
    ...blank,
    ...shown,
    service: { dateText: "", whenText: "", dayText: "", startsAt: "", endsAt: "", over: true, mapsLink: "" },
    heroImage: { src: "", width: 0, height: 0 },
    karenMusic: { mp3: "", title: "" },
  };
}
