// @ts-check
// `npm run backup -- <dir>`: a consistent copy of the site's data in a new
// folder, safe to take while the site is running and writing.
//
//   <dir>/memorial.db        the database, copied with SQLite's online backup
//                            API (one snapshot, including what is still in the
//                            WAL), checked with PRAGMA integrity_check
//   <dir>/uploads/objects/   the finished media files (local disk storage
//                            only; in-flight tmp/ and multipart/ are skipped)
//   <dir>/backup.json        when, from where, row counts, media files and bytes
//
// backup.json is written last: a folder without it is an interrupted backup.
// With BUCKET_NAME set the media lives in the bucket and only the database is
// copied here. Restoring is described in docs/backups.md.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";

const USAGE = "Usage: npm run backup -- <dir>   (the folder must be new or empty)";
const TABLES = /** @type {const} */ (["memories", "uploads", "poems", "rsvps"]);

/** @typedef {Record<(typeof TABLES)[number], number>} Counts */

/** Same defaults as app/platform/config.server.ts. */
const databasePath = path.resolve(process.env.DATABASE_PATH?.trim() || "./data/memorial.db");
const storageDir = path.resolve(process.env.STORAGE_DIR?.trim() || "./data/uploads");
const bucket = process.env.BUCKET_NAME?.trim() || null;

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`Backup failed: ${message}`);
  process.exit(1);
}

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/** @param {number} bytes */
function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = "B";
  for (const next of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value.toFixed(1)} ${unit}`;
}

/** @param {string} child @param {string} parent */
const isInside = (child, parent) => {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
};

/**
 * Refuses a target that exists and is not an empty folder; creates it otherwise.
 * @param {string} dir
 */
async function prepareTarget(dir) {
  const stats = await fs.stat(dir).catch(() => null);
  if (stats && !stats.isDirectory()) fail(`${dir} exists and is not a folder. Choose a new folder.`);
  if (stats && (await fs.readdir(dir)).length > 0) {
    fail(`${dir} is not empty; refusing to mix a backup with other files. Choose a new or empty folder.`);
  }
  if (!bucket && isInside(dir, path.join(storageDir, "objects"))) {
    fail(`${dir} is inside the media folder it would copy (${storageDir}). Choose a folder elsewhere.`);
  }
  await fs.mkdir(dir, { recursive: true });
}

/**
 * Copies the live database into `dest` with the online backup API. The source
 * is opened read-only; in WAL mode a reader never blocks the site's writer,
 * and the whole file is copied in one step, inside one read transaction, so the
 * copy is one committed state of the database (a transaction still open in the
 * site is simply not in it).
 * @param {string} dest
 */
async function backupDatabase(dest) {
  let source;
  try {
    source = new Database(databasePath, { readonly: true, fileMustExist: true });
    source.pragma("busy_timeout = 5000");
    await source.backup(dest, {
      // Every remaining page in the next step: one read transaction, so no
      // restarts when the site writes between steps.
      progress: () => 0x7fffffff,
    });
  } catch (error) {
    fail(`could not copy the database ${databasePath}: ${messageOf(error)}`);
  } finally {
    source?.close();
  }
}

/**
 * Checks the copy, makes it one self-contained file (rollback journal, so no
 * -wal or -shm beside it; the site switches back to WAL when it opens it) and
 * counts its rows.
 * @param {string} file
 * @returns {Counts}
 */
function verifyCopy(file) {
  const copy = new Database(file, { fileMustExist: true });
  try {
    const integrity = copy.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") fail(`the copy at ${file} failed PRAGMA integrity_check: ${String(integrity)}`);
    copy.pragma("journal_mode = DELETE");
    /** @type {Partial<Counts>} */
    const counts = {};
    for (const table of TABLES) {
      const row = /** @type {{ n: number } | undefined} */ (copy.prepare(`SELECT count(*) AS n FROM "${table}"`).get());
      counts[table] = row?.n ?? 0;
    }
    return /** @type {Counts} */ (counts);
  } catch (error) {
    fail(`could not check the copy at ${file}: ${messageOf(error)}`);
  } finally {
    copy.close();
  }
}

/**
 * Copies every file under `from` to the same place under `to`, keeping
 * modification times (the site's ETags use them). A file deleted while we copy
 * (e.g. a rejected upload) is skipped.
 * @param {string} from
 * @param {string} to
 * @param {{ files: number, bytes: number, vanished: number }} totals
 */
async function copyTree(from, to, totals) {
  await fs.mkdir(to, { recursive: true });
  const entries = await fs.readdir(from, { withFileTypes: true }).catch((error) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await copyTree(source, target, totals);
    } else if (entry.isFile()) {
      try {
        await fs.copyFile(source, target, fs.constants.COPYFILE_EXCL);
        const stats = await fs.stat(source);
        // Mid-millisecond, so that rounding seconds to a double cannot land in
        // the millisecond before (the ETag uses whole milliseconds).
        const atMs = (/** @type {number} */ ms) => (Math.floor(ms) + 0.5) / 1000;
        await fs.utimes(target, atMs(stats.atimeMs), atMs(stats.mtimeMs));
        const copied = await fs.stat(target);
        totals.files += 1;
        totals.bytes += copied.size;
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ENOENT") throw error;
        await fs.rm(target, { force: true });
        totals.vanished += 1;
      }
    }
  }
}

const target = process.argv[2]?.trim();
if (!target) {
  console.error(USAGE);
  process.exit(2);
}
const dir = path.resolve(target);
if (!existsSync(databasePath)) fail(`no database at ${databasePath} (set DATABASE_PATH).`);
await prepareTarget(dir);

const started = Date.now();
const dbCopy = path.join(dir, "memorial.db");
await backupDatabase(dbCopy);
const counts = verifyCopy(dbCopy);
const databaseBytes = (await fs.stat(dbCopy)).size;

const media = { files: 0, bytes: 0, vanished: 0 };
if (!bucket) {
  try {
    await copyTree(path.join(storageDir, "objects"), path.join(dir, "uploads", "objects"), media);
  } catch (error) {
    fail(`could not copy media from ${path.join(storageDir, "objects")}: ${messageOf(error)}`);
  }
}

const manifest = {
  createdAt: new Date(started).toISOString(),
  source: {
    databasePath,
    storageDir: bucket ? null : storageDir,
    bucket,
  },
  database: { file: "memorial.db", bytes: databaseBytes, integrityCheck: "ok", counts },
  media: bucket
    ? { storage: "bucket", bucket, files: 0, bytes: 0, note: "media lives in the bucket; back it up with the provider's tools" }
    : { storage: "disk", dir: "uploads/objects", files: media.files, bytes: media.bytes, vanishedWhileCopying: media.vanished },
};
await fs.writeFile(path.join(dir, "backup.json"), `${JSON.stringify(manifest, null, 2)}\n`);

const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`Backup written to ${dir} in ${seconds} s`);
console.log(`  database  ${databasePath} → memorial.db (${formatBytes(databaseBytes)}, integrity ok)`);
console.log(`            ${TABLES.map((table) => `${counts[table]} ${table}`).join(", ")}`);
if (bucket) {
  console.log(`  media     in the bucket "${bucket}", not copied: back it up with the provider's tools,`);
  console.log(`            e.g. aws s3 sync s3://${bucket} <folder> --endpoint-url "$AWS_ENDPOINT_URL_S3"`);
} else {
  console.log(`  media     ${path.join(storageDir, "objects")} → uploads/objects (${media.files} files, ${formatBytes(media.bytes)})`);
  if (media.vanished > 0) console.log(`            ${media.vanished} files were deleted by the site while copying and skipped`);
}
process.exit(0);
