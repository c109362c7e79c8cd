import { openDatabase } from "../db/client.server";
import { config } from "./config.server";

export const db = openDatabase(config.DATABASE_PATH);

/** The handle a `db.transaction` callback gets: statements on it run inside that transaction. */
export type Transaction = Parameters<Parameters<typeof db.transaction>[0]>[0];

/**
 * The version of everything visitors can see: it changes with every write
 * to a table a page or public answer reads (from this process or another)
 * and with every change to media storage. The render cache serves nothing
 * made under an older one (server/render-cache/).
 */
export const contentVersion = (): string => db.$writes.current();

/** A change visitors may see that is not a database write (a file stored or deleted). */
export const noteContentChange = (): void => db.$writes.bump();

export function isDatabaseHealthy(): boolean {
  try {
    return db.$client.prepare("select 1 as ok").get() !== undefined;
  } catch {
    return false;
  }
}

/** On shutdown, once the last request is answered: checkpoints the WAL into the file and releases it. */
export function closeDatabase() {
  if (db.$client.open) db.$client.close();
}
