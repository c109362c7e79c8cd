import { openDatabase } from "../db/client.server";
import { config } from "./config.server";

export const db = openDatabase(config.DATABASE_PATH);

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
