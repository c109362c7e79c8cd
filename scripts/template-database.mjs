// @ts-check
// One migrated database for the tests, made once per set of migrations and
// copied wherever a test needs a database of its own (each vitest file, each
// server a test starts): copying a file takes a fraction of what running
// every migration on a new one does.
import { createHash } from "node:crypto";
import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";

const ROOT = path.resolve(import.meta.dirname, "..");
const MIGRATIONS = path.join(ROOT, "db/migrations");
const TEMPLATES = path.join(ROOT, "tests/.tmp/templates");

/** A digest of every file under db/migrations, names included: a new or changed migration names a new template. */
function migrationsDigest() {
  const hash = createHash("sha256");
  const files = readdirSync(MIGRATIONS, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(MIGRATIONS, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(MIGRATIONS, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The path of the migrated template database for the migrations in
 * db/migrations, made if it is not there yet. Migrated as the site's
 * openDatabase (db/client.server.ts) does: drizzle's migrator on WAL, the
 * journal mode the file keeps. Made under a name of its own and renamed into
 * place, so two processes making it at once both end with a whole file.
 * @returns {string}
 */
export function templateDatabase() {
  const file = path.join(TEMPLATES, `memorial-${migrationsDigest()}.db`);
  if (existsSync(file)) return file;
  mkdirSync(TEMPLATES, { recursive: true });
  const making = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const sqlite = new Database(making);
    try {
      sqlite.pragma("journal_mode = WAL");
      sqlite.pragma("foreign_keys = ON");
      migrate(drizzle(sqlite), { migrationsFolder: MIGRATIONS });
      // Everything into the main file, so that file alone is the database.
      sqlite.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      sqlite.close();
    }
    renameSync(making, file);
  } finally {
    for (const leftover of [making, `${making}-wal`, `${making}-shm`]) rmSync(leftover, { force: true });
  }
  // The templates of earlier migrations are of no more use.
  for (const name of readdirSync(TEMPLATES)) {
    if (/^memorial-[0-9a-f]+\.db$/.test(name) && name !== path.basename(file)) rmSync(path.join(TEMPLATES, name), { force: true });
  }
  return file;
}

/**
 * Copies the migrated template database to `destPath` (making its folder),
 * for a test or a test's server to start from; the site's openDatabase then
 * finds every migration applied. Never over an existing file: a database
 * already there is someone's data.
 * @param {string} destPath
 * @returns {string} destPath
 */
export function copyTemplateDatabase(destPath) {
  const template = templateDatabase();
  mkdirSync(path.dirname(path.resolve(destPath)), { recursive: true });
  copyFileSync(template, destPath, constants.COPYFILE_EXCL);
  return destPath;
}
