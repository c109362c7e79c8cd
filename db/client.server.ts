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
 * WAL lets readers carry on while one writer commits (and is what Litestream
 * replicates); synchronous=FULL makes a commit durable before we answer the
 * visitor, so an acknowledged memory survives a crash. SQLite's automatic
 * checkpoints stay on here, and are handed to Litestream when it runs
 * (letLitestreamCheckpoint in app/platform/db.server.ts).
 */
export function openDatabase(file: string, migrationsFolder = MIGRATIONS_DIR): DB {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  // 5 s, as Litestream recommends: a write waits out another process's short lock (Litestream's checkpoints, a backup).
  sqlite.pragma("busy_timeout = 5000");
  const writes = watchWrites(sqlite);
  const db = Object.assign(drizzle(sqlite, { schema }), { $writes: writes });
  migrateWithoutCascades(sqlite, () => migrate(db, { migrationsFolder }));
  return db;
}

/**
 * Runs the migrations with foreign keys off, as SQLite asks for a table
 * rebuilt to change a CHECK: the migrator's own transaction makes the
 * migration's `PRAGMA foreign_keys=OFF` a no-op, and with them on, dropping
 * the old table would first set every reference to it to null (the life
 * story's photo). Every reference is checked before the site opens.
 */
function migrateWithoutCascades(sqlite: Database.Database, run: () => void) {
  sqlite.pragma("foreign_keys = OFF");
  try {
    run();
    const broken = sqlite.pragma("foreign_key_check") as unknown[];
    if (broken.length > 0) throw new Error(`The migrated database has ${broken.length} broken references: ${JSON.stringify(broken)}`);
  } finally {
    sqlite.pragma("foreign_keys = ON");
  }
}
