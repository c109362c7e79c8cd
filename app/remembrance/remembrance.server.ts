import type { Transaction } from "~/platform/db.server";
import { getStoredValue, setStoredValue, STORED_KEYS } from "~/site/settings.server";
import { remembranceFrom, type Remembrance, type RemembrancePatch } from "./remembrance.schema";

// The family's yearly reminders, kept with the settings (one row of
// site_settings); read by the reminders, the calendar feed and the settings API.

/** The reminders as the family set them (each field still valid), over the defaults. */
export const getRemembrance = (tx?: Pick<Transaction, "select">): Remembrance =>
  remembranceFrom(getStoredValue(STORED_KEYS.remembrance, tx));

/** Writes a change to the reminders inside the caller's commit, returning what they become. */
export function writeRemembrance(tx: Transaction, patch: RemembrancePatch, by: string | null): Remembrance {
  const next = { ...getRemembrance(tx), ...patch };
  setStoredValue(tx, STORED_KEYS.remembrance, next, by);
  return next;
}
