// @ts-check
// Continuous replication of the database with Litestream
// (docs/decisions/023-litestream-replication.md, docs/backups.md): which
// replica the environment names, the Litestream binary, its generated
// configuration, and bringing the database back on an empty volume before
// the site opens it. Used by server/index.mjs and scripts/restore.mjs.
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

/** Litestream ships a new WAL segment to the replica this often (the 1 s). */
const SYNC_INTERVAL = "1s";
/**
 * How often Litestream copies new WAL frames into its shadow WAL, the step
 * before shipping them. Its default (1 s) added to the sync interval would put
 * a write up to 2 s from the replica; at 250 ms a write acknowledged 2 s
 * before a crash is in the replica with a second to spare.
 */
const MONITOR_INTERVAL = "250ms";
/**
 * How far back a point-in-time restore can go: a week for a family to notice
 * a mistaken deletion. A snapshot a day keeps a restore from replaying a
 * week of WAL.
 */
const RETENTION = "168h";
const SNAPSHOT_INTERVAL = "24h";

class ReplicationConfigError extends Error {
  name = "ConfigError";
}

/**
 * @typedef {object} ReplicaSettings
 * @property {string} databasePath the database file, absolute
 * @property {string} description where the copies go, for the log and the admin panel (no credentials)
 * @property {Record<string, string>} replica Litestream's replica settings (credentials stay in the environment)
 */

const REPLICA_SCHEMES = ["s3:", "file:", "gcs:", "abs:", "sftp:"];

/** @param {string | undefined} value */
const setting = (value) => value?.trim() || undefined;

/**
 * The replica the environment names, or null when the database is not
 * replicated: LITESTREAM_REPLICA_URL (`off` turns replication off), else the
 * media bucket's variables with a `db/` prefix.
 * @param {Record<string, string | undefined>} env
 * @returns {ReplicaSettings | null}
 */
export function replicationFromEnv(env) {
  const databasePath = path.resolve(setting(env.DATABASE_PATH) ?? "./data/memorial.db");
  const url = setting(env.LITESTREAM_REPLICA_URL);
  const bucket = setting(env.BUCKET_NAME);
  const endpoint = setting(env.AWS_ENDPOINT_URL_S3);
  const region = setting(env.AWS_REGION);
  /** The endpoint and region the media bucket uses apply to an S3 replica too (Tigris needs both). */
  const s3Extras = () => ({ ...(endpoint ? { endpoint } : {}), ...(region ? { region } : {}) });

  if (url?.toLowerCase() === "off") return null;
  if (url) {
    /** @type {URL | null} */
    let parsed = null;
    try {
      parsed = new URL(url);
    } catch {
      // reported below
    }
    if (!parsed || !REPLICA_SCHEMES.includes(parsed.protocol) || (parsed.protocol === "file:" ? parsed.pathname === "/" : !parsed.host)) {
      throw new ReplicationConfigError(
        "Invalid configuration:\n  LITESTREAM_REPLICA_URL: must be a Litestream replica URL such as s3://my-bucket/db or file:///backups/memorial (or off)",
      );
    }
    // The URL parser reads "file:backups" as /backups and drops the host of "file://nas/backups":
    // neither would be where the person setting it meant.
    if (parsed.protocol === "file:" && (parsed.host !== "" || !/^file:\/\/\//i.test(url))) {
      throw new ReplicationConfigError(
        `Invalid configuration:\n  LITESTREAM_REPLICA_URL: a file replica is an absolute path on this machine, written with three slashes: file:///backups/memorial (not "${url}")`,
      );
    }
    const shown = new URL(parsed.href);
    shown.username = "";
    shown.password = "";
    return {
      databasePath,
      description: decodeURI(shown.href),
      replica: {
        url: parsed.protocol === "file:" ? `file://${decodeURIComponent(parsed.pathname)}` : url,
        ...(parsed.protocol === "s3:" ? s3Extras() : {}),
      },
    };
  }
  if (bucket) {
    const where = endpoint ? ` at ${endpoint.replace(/^https?:\/\//, "")}` : "";
    return { databasePath, description: `s3://${bucket}/db${where}`, replica: { type: "s3", bucket, path: "db", ...s3Extras() } };
  }
  return null;
}

/**
 * REPLICATION_WARN_AFTER_MS: how long replication may make no progress before
 * the log and the admin panel warn (a minute; the tests shorten it).
 * @param {Record<string, string | undefined>} env
 */
export function replicationWarnAfterFromEnv(env) {
  const raw = env.REPLICATION_WARN_AFTER_MS?.trim();
  if (!raw) return 60_000;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1000) {
    throw new ReplicationConfigError(
      "Invalid configuration:\n  REPLICATION_WARN_AFTER_MS: must be a whole number of milliseconds, at least 1000",
    );
  }
  return value;
}

/**
 * The Litestream binary: the one `npm install` brings (@flydotio/litestream's
 * package for this platform), or `litestream` on the PATH. Never npm's
 * `node_modules/.bin/litestream` wrapper, which neither passes signals on nor
 * returns Litestream's exit code.
 * @param {Record<string, string | undefined>} [env]
 * @returns {string | null}
 */
export function litestreamBinary(env = process.env) {
  const require = createRequire(import.meta.url);
  try {
    const bundled = path.join(
      path.dirname(require.resolve(`@flydotio/litestream-${process.platform}-${process.arch}/package.json`)),
      "litestream",
    );
    if (isExecutable(bundled)) return bundled;
  } catch {
    // not published for this platform: look on the PATH
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir || dir.split(path.sep).includes("node_modules")) continue;
    const candidate = path.join(dir, "litestream");
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** @param {string} file */
function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Litestream's configuration for this database and replica. JSON is YAML,
 * so it is written as JSON.
 * @param {ReplicaSettings} settings
 * @param {{ metricsPort?: number }} [options] where Litestream serves its metrics (loopback only)
 */
export function litestreamConfig(settings, { metricsPort } = {}) {
  return {
    ...(metricsPort ? { addr: `127.0.0.1:${metricsPort}` } : {}),
    logging: { level: "info", type: "json", stderr: true },
    dbs: [
      {
        path: settings.databasePath,
        "monitor-interval": MONITOR_INTERVAL,
        replicas: [
          {
            name: "replica",
            ...settings.replica,
            "sync-interval": SYNC_INTERVAL,
            retention: RETENTION,
            "snapshot-interval": SNAPSHOT_INTERVAL,
          },
        ],
      },
    ],
  };
}

/**
 * A replica URL that holds a password (sftp://user:secret@host/…) is never
 * written to the configuration file, which a crash would leave in the temp
 * folder: the file names the variable instead, and Litestream reads it from
 * its environment (its own ${VAR} expansion). Expansion stays off for every
 * other configuration, whose paths might hold a "$" (with it on, "$name" in
 * the database's path would be read as a variable).
 */
const URL_FROM_ENV = "${LITESTREAM_REPLICA_URL}";
/** The configuration files written with URL_FROM_ENV, which Litestream must read with expansion on. */
const expandedConfigs = new Set();

/**
 * The flag Litestream reads `configFile` with.
 * @param {string} configFile
 */
export const expandFlags = (configFile) => (expandedConfigs.has(configFile) ? [] : ["-no-expand-env"]);

/** @param {ReplicaSettings} settings */
function holdsPassword(settings) {
  try {
    return typeof settings.replica.url === "string" && new URL(settings.replica.url).password !== "";
  } catch {
    return false;
  }
}

/**
 * A private folder for Litestream's generated configuration, removed by `remove`.
 * @param {ReplicaSettings} settings
 */
export function litestreamConfigFile(settings) {
  const dir = mkdtempSync(path.join(tmpdir(), "memorial-litestream-"));
  const file = path.join(dir, "litestream.yml");
  const fromEnv = holdsPassword(settings);
  const written = fromEnv ? { ...settings, replica: { ...settings.replica, url: URL_FROM_ENV } } : settings;
  if (fromEnv) expandedConfigs.add(file);
  return {
    file,
    /** @param {{ metricsPort?: number }} [options] */
    write(options) {
      writeFileSync(file, `${JSON.stringify(litestreamConfig(written, options), null, 2)}\n`, { mode: 0o600 });
      return file;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a Litestream command to its end.
 * @param {string} binary
 * @param {string[]} args
 * @returns {Promise<{ code: number; stdout: string; stderr: string }>}
 */
function runLitestream(binary, args) {
  return new Promise((resolve) => {
    execFile(binary, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (error && !stdout ? error.message : "")) });
    });
  });
}

/**
 * Litestream's JSON log lines, read back (anything else is skipped).
 * @param {string} text
 * @returns {Record<string, unknown>[]}
 */
function logEntries(text) {
  /** @type {Record<string, unknown>[]} */
  const entries = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      entries.push(JSON.parse(line));
    } catch {
      // not one of Litestream's lines
    }
  }
  return entries;
}

/**
 * What went wrong, in Litestream's words: its last error line, or the end of its output.
 * @param {{ stdout: string; stderr: string }} run
 */
function failureOf(run) {
  const errors = logEntries(run.stderr).filter((entry) => entry.level === "ERROR");
  const last = errors.at(-1);
  if (last) return String(last.error ?? last.msg);
  return (run.stderr || run.stdout).trim().split("\n").slice(-3).join(" ") || "no output";
}

/**
 * @typedef {object} Generation
 * @property {string} generation
 * @property {string} start when its first snapshot was taken (RFC 3339, whole seconds)
 * @property {string} end when its last WAL segment reached the replica: the last transaction it holds
 */

/**
 * `litestream generations` read back: its table of name, generation, lag, start and end.
 * @param {string} table
 * @returns {Generation[]}
 */
export function parseGenerations(table) {
  return table
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 5 && /^[0-9a-f]{16}$/.test(columns[1] ?? ""))
    .map((columns) => ({ generation: columns[1] ?? "", start: columns[3] ?? "", end: columns[4] ?? "" }));
}

/**
 * The replica's generations of the database (Litestream needs the database
 * file to exist to list them from its configuration).
 * @param {string} binary @param {string} configFile @param {string} databasePath
 */
export async function listGenerations(binary, configFile, databasePath) {
  const run = await runLitestream(binary, ["generations", "-config", configFile, ...expandFlags(configFile), databasePath]);
  if (run.code !== 0) throw new Error(`litestream generations failed: ${failureOf(run)}`);
  return parseGenerations(run.stdout);
}

/**
 * SQLite's own check of a database file, without writing to it.
 * @param {string} file
 * @returns {string} "ok", or what is wrong
 */
function checkDatabase(file) {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = /** @type {{ integrity_check: string }[]} */ (sqlite.pragma("integrity_check"));
    return rows.map((row) => row.integrity_check).join("; ");
  } finally {
    sqlite.close();
  }
}

/**
 * Files a restore leaves or must not find: Litestream writes `<file>.tmp`
 * and renames it, and leaves that temporary database's -wal and -shm behind.
 * @param {string} file
 */
function removeRestoreLeftovers(file) {
  for (const suffix of [".tmp", ".tmp-wal", ".tmp-shm"]) rmSync(`${file}${suffix}`, { force: true });
}

/**
 * @typedef {object} Restored
 * @property {string} generation the replica's generation it came from
 * @property {string | null} lastTransactionAt when its last transaction reached the replica (RFC 3339)
 * @property {number} seconds how long the restore took
 * @property {number} at when it was restored (ms)
 */

/**
 * Restores `output` from the replica with `litestream restore` (the latest
 * state, or the state at `timestamp`), checks it with PRAGMA
 * integrity_check and says what it restored. Null when the replica holds no
 * copy of the database (a new memorial). Throws when the replica cannot be
 * read or the copy is damaged.
 * `databasePath` is the database the configuration names: Litestream finds
 * the replica through it, and it must exist once the restore is done (it is
 * `output` at start; scripts/restore.mjs names an empty stand-in).
 * @param {{ binary: string; configFile: string; databasePath: string; output: string; timestamp?: string; generation?: string }} options
 * @returns {Promise<Restored | null>}
 */
export async function restoreDatabase({ binary, configFile, databasePath, output, timestamp, generation }) {
  const started = Date.now();
  removeRestoreLeftovers(output);
  const args = ["restore", "-config", configFile, ...expandFlags(configFile), "-if-replica-exists", "-o", output];
  if (timestamp) args.push("-timestamp", timestamp);
  if (generation) args.push("-generation", generation);
  const run = await runLitestream(binary, [...args, databasePath]);
  removeRestoreLeftovers(output);
  if (run.code !== 0) throw new Error(failureOf(run));
  if (!existsSync(output)) return null;

  const integrity = checkDatabase(output);
  if (integrity !== "ok") {
    rmSync(output, { force: true });
    throw new Error(`the restored database failed PRAGMA integrity_check: ${integrity}`);
  }
  const from = logEntries(run.stderr).find((entry) => entry.msg === "restoring snapshot")?.generation;
  const restoredGeneration = typeof from === "string" ? from : (generation ?? "unknown");
  // The replica's own record of the generation: when its last WAL segment
  // arrived. (Listing needs the configured database file to exist.)
  let lastTransactionAt = null;
  try {
    const listed = await listGenerations(binary, configFile, databasePath);
    lastTransactionAt = listed.find((entry) => entry.generation === restoredGeneration)?.end ?? null;
  } catch {
    // the restore itself worked; only the time is missing
  }
  // Restored to a point in time: the generation went on after it.
  if (timestamp && lastTransactionAt && Date.parse(lastTransactionAt) > Date.parse(timestamp)) lastTransactionAt = null;
  return { generation: restoredGeneration, lastTransactionAt, seconds: (Date.now() - started) / 1000, at: Date.now() };
}

/**
 * At start, before the site opens its database: when there is no database
 * file, the latest copy in the replica is restored in its place. Leftovers of
 * a database that is gone (its -wal and -shm, Litestream's shadow WAL beside
 * it) are removed first: SQLite would replay an old WAL into the restored
 * file, and Litestream would take its stale shadow WAL for this database's.
 * Null when the database exists or the replica is empty (a new memorial).
 * @param {ReplicaSettings} settings @param {string} binary @param {string} configFile
 * @returns {Promise<Restored | null>}
 */
export async function restoreIfMissing(settings, binary, configFile) {
  const file = settings.databasePath;
  if (existsSync(file)) return null;
  for (const leftover of [`${file}-wal`, `${file}-shm`]) rmSync(leftover, { force: true });
  rmSync(path.join(path.dirname(file), `.${path.basename(file)}-litestream`), { recursive: true, force: true });
  mkdirSync(path.dirname(file), { recursive: true });
  return restoreDatabase({ binary, configFile, databasePath: file, output: file });
}
