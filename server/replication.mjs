// @ts-check
// Which replica the environment names, for scripts/litestream-start.sh (which
// runs Litestream as the site's parent, docs/decisions/032-litestream-as-parent.md),
// the site's log and Exports tab, and scripts/restore.mjs; and SQLite's check
// of a restored database.
// As a command, for scripts/litestream-start.sh:
//   node server/replication.mjs settings   the replica URL for Litestream, the database's path and the replica's description, one a line
//   node server/replication.mjs restored <file> <description> <seconds>   checks a database just restored and says so
import { accessSync, constants, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";

class ReplicationConfigError extends Error {
  name = "ConfigError";
}

/**
 * @typedef {object} ReplicaSettings
 * @property {string} databasePath the database file, absolute
 * @property {string} description where the copies go, for the log and the admin panel (no credentials)
 * @property {string} url the replica's URL as Litestream reads it (credentials, if any, as the variable held them)
 */

const REPLICA_SCHEMES = ["s3:", "file:", "gcs:", "abs:", "sftp:"];

/** @param {string | undefined} value */
const setting = (value) => value?.trim() || undefined;

/**
 * The replica the environment names, or null when the database is not
 * replicated: LITESTREAM_REPLICA_URL (`off` turns replication off), else the
 * media bucket with a `db/` prefix. An S3 replica takes the bucket's
 * AWS_ENDPOINT_URL_S3 and AWS_REGION (litestream.yml).
 * @param {Record<string, string | undefined>} env
 * @returns {ReplicaSettings | null}
 */
export function replicationFromEnv(env) {
  const databasePath = path.resolve(setting(env.DATABASE_PATH) ?? "./data/memorial.db");
  const url = setting(env.LITESTREAM_REPLICA_URL);
  const bucket = setting(env.BUCKET_NAME);
  const endpoint = setting(env.AWS_ENDPOINT_URL_S3);

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
      url: parsed.protocol === "file:" ? `file://${decodeURIComponent(parsed.pathname)}` : url,
    };
  }
  if (bucket) {
    const where = endpoint ? ` at ${endpoint.replace(/^https?:\/\//, "")}` : "";
    return { databasePath, description: `s3://${bucket}/db${where}`, url: `s3://${bucket}/db` };
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
 * LITESTREAM_METRICS_PORT: the loopback port Litestream serves its metrics on
 * (9090 unless set).
 * @param {Record<string, string | undefined>} env
 */
export function metricsPortFromEnv(env) {
  const raw = env.LITESTREAM_METRICS_PORT?.trim();
  if (!raw) return 9090;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1 || value > 65_535) {
    throw new ReplicationConfigError("Invalid configuration:\n  LITESTREAM_METRICS_PORT: must be a port number (1-65535)");
  }
  return value;
}

/**
 * Whether this process runs under Litestream: scripts/litestream-start.sh
 * names the process it became (Litestream) in LITESTREAM_PID, and that process
 * is this one's parent.
 * @param {Record<string, string | undefined>} env
 */
export function runsUnderLitestream(env) {
  return Boolean(env.LITESTREAM_PID) && Number(env.LITESTREAM_PID) === process.ppid;
}

/**
 * The Litestream binary for scripts/restore.mjs: the one `npm install` brings
 * (@flydotio/litestream's package for this platform), or `litestream` on the
 * PATH, never npm's node_modules/.bin wrapper (scripts/litestream-start.sh
 * looks in the same places).
 * @param {Record<string, string | undefined>} [env]
 * @returns {string | null}
 */
export function litestreamBinary(env = process.env) {
  const require = createRequire(import.meta.url);
  const candidates = [];
  try {
    const dir = path.dirname(require.resolve(`@flydotio/litestream-${process.platform}-${process.arch}/package.json`));
    candidates.push(path.join(dir, "litestream"));
  } catch {
    // not published for this platform: look on the PATH
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir && !dir.split(path.sep).includes("node_modules")) candidates.push(path.join(dir, "litestream"));
  }
  return (
    candidates.find((file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    }) ?? null
  );
}

/**
 * SQLite's own check of a database file, without writing to it.
 * @param {string} file
 * @returns {string} "ok", or what is wrong
 */
export function checkDatabase(file) {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = /** @type {{ integrity_check: string }[]} */ (sqlite.pragma("integrity_check"));
    return rows.map((row) => row.integrity_check).join("; ");
  } finally {
    sqlite.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [command, ...args] = process.argv.slice(2);
  if (command === "settings") {
    try {
      const settings = replicationFromEnv(process.env);
      if (settings) console.log(`${settings.url}\n${settings.databasePath}\n${settings.description}`);
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
  } else if (command === "restored" && args.length === 3) {
    const [file = "", description = "", seconds = ""] = args;
    const integrity = checkDatabase(file);
    if (integrity !== "ok") {
      // A damaged copy is never served nor replicated as the newest copy.
      rmSync(file, { force: true });
      console.error(
        `The database restored from ${description} failed PRAGMA integrity_check: ${integrity}\nRefusing to start on it. See docs/backups.md to restore an earlier point in time.`,
      );
      process.exit(1);
    }
    console.log(`Restored the database from ${description} in ${seconds} s (PRAGMA integrity_check: ok): this volume had no database.`);
  } else {
    console.error("Usage: node server/replication.mjs settings | restored <file> <description> <seconds>");
    process.exit(2);
  }
}
