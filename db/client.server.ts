import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema";
import { watchWrites, type WriteVersion } from "./write-version.server";

export type DB = BetterSQLite3Database<typeof schema> & {
  $client: Database.Database;
  /** Changes with every write visitors may see (the render cache's version). */
  $writes: WriteVersion;
};

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "db/migrations");

/**
 * Opens (creating if needed) the SQLite file and brings its schema up to date.
 * WAL lets readers carry on while one writer commits; synchronous=FULL makes a
 * commit durable before we answer the visitor, so an acknowledged memory
 * survives a crash.
 */
export function openDatabase(file: string, migrationsFolder = MIGRATIONS_DIR): DB {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const writes = watchWrites(sqlite);
  const db = Object.assign(drizzle(sqlite, { schema }), { $writes: writes });
  migrate(db, { migrationsFolder });
  return db;
}
