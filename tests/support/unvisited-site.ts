// A production server that nobody visits: only /healthz is asked for, every
// few seconds, as Fly's health check and the hourly wake-up ask for it
// (docs/decisions/034-waking-on-time.md). For tests of what the site does on
// its own, on time, with idle exit on: e-mail due at a given minute.
import path from "node:path";
import Database from "better-sqlite3";
import { get, startSite, type Site } from "./site-process";

const MINUTE = 60_000;

/**
 * The next whole minute at least `minutes` from `now`: as an instant, and as
 * the "HH:MM" the site's settings take (a summary's or a reminder's time) in `timeZone`.
 */
export function minuteAhead(minutes: number, timeZone: string, now = Date.now()): { at: number; hhmm: string } {
  const at = Math.ceil((now + minutes * MINUTE) / MINUTE) * MINUTE;
  const hhmm = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
  return { at, hhmm };
}

/** The day ("YYYY-MM-DD") of instant `at` in `timeZone`. */
export const localDay = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);

/** Sets one of the family's settings (a row of site_settings: the API's fields, or `remembrance`) in a stopped site's database. */
export function setSiteSetting(database: Database.Database, key: string, value: unknown) {
  database
    .prepare("insert into site_settings (key, value, updatedAt) values (?, ?, ?) on conflict(key) do update set value = excluded.value")
    .run(key, JSON.stringify(value), Date.now());
}

/** Adds a follower who confirmed following `topics` ("service", "new", "reminders") to a stopped site's database. */
export function addFollower(database: Database.Database, email: string, topics: string[]) {
  database
    .prepare("insert into followers (email, name, topics, confirmedAt, newsSince, createdAt) values (?, ?, ?, ?, ?, ?)")
    .run(email, "A follower", JSON.stringify(topics), Date.now(), Date.now(), Date.now());
}

export interface Unvisited {
  site: Site;
  /** When the server exited (ms since the epoch), or null while it runs. */
  exitedAt(): number | null;
  /** Resolves with when the server exited, or with null after `limitMs` of waiting. */
  exited(limitMs: number): Promise<number | null>;
}

/** Asks `site` for nothing but /healthz, every 5 s from now on, until it exits. */
export function nobodyVisits(site: Site): Unvisited {
  let exitedAt: number | null = null;
  const gone = site.exited.then(() => (exitedAt = Date.now()));
  void (async () => {
    while (exitedAt === null) {
      await get(site.port, "/healthz").catch(() => 0);
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
  })();
  return {
    site,
    exitedAt: () => exitedAt,
    exited: (limitMs) => Promise.race([gone, new Promise<null>((resolve) => setTimeout(() => resolve(null), limitMs))]),
  };
}

/**
 * Starts the server on `dir` as Fly's auto-start does when the hourly wake-up
 * asks for /healthz: nobody visits it afterwards. `prepare` changes the
 * stopped site's database first (a summary's time, a reminder's day).
 */
export async function wakeUnvisited(
  dir: string,
  env: Record<string, string>,
  prepare: (database: Database.Database) => void = () => {},
): Promise<Unvisited> {
  const database = new Database(path.join(dir, "memorial.db"), { fileMustExist: true });
  try {
    prepare(database);
  } finally {
    database.close();
  }
  return nobodyVisits(await startSite(dir, env));
}
