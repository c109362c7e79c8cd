import { countAdminsWithRole } from "~/admins/admin.server";
import { db, type Transaction } from "~/platform/db.server";
import { getStoredValue, setStoredValue, STORED_KEYS } from "./settings.server";

// "Let helpers read first" (a row of site_settings, off unless the family
// turns it on). It is in effect only while at least one helper exists: then
// new memories, photos, videos and candles are the helpers' to read, their
// e-mail alerts go to the helpers alone, and the family's Pending tabs do not
// list them unless asked (?show=all). What is published, the family sees as ever.

type Reader = Pick<Transaction, "select">;

/** Whether the family turned "Let helpers read first" on. */
export const helpersReadFirst = (tx: Reader = db): boolean => getStoredValue<boolean>(STORED_KEYS.helpersReadFirst, tx) === true;

/** How many admins are helpers. */
export const countHelpers = (tx: Reader = db): number => countAdminsWithRole("helper", tx);

/** Whether helpers read first now: turned on, and someone to read. */
export const readFirstInEffect = (tx: Reader = db): boolean => helpersReadFirst(tx) && countHelpers(tx) > 0;

/** Writes the choice inside the caller's commit, by the admin named `by`. */
export function writeHelpersReadFirst(tx: Transaction, on: boolean, by: string | null) {
  setStoredValue(tx, STORED_KEYS.helpersReadFirst, on, by);
}
