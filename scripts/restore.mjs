// @ts-check
// `npm run restore -- --output <file> [--timestamp 2026-11-25T14:00:00Z] [--generation <id>]`:
// the database as the replica holds it (the latest state, or the state at a
// point in time) in a new file, checked with PRAGMA integrity_check. It reads
// the replica from the same variables as the site (LITESTREAM_REPLICA_URL, or
// BUCKET_NAME with the AWS_* variables) and never touches the site's own
// database: put the file in its place yourself (docs/backups.md).
// `npm run restore -- --list` shows the replica's generations.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { checkDatabase, litestreamBinary, replicationFromEnv } from "../server/replication.mjs";

const CONFIG = path.resolve(import.meta.dirname, "../litestream.yml");
const USAGE = `Usage: npm run restore -- --output <file> [--timestamp <RFC 3339 time, e.g. 2026-11-25T14:00:00Z>] [--generation <id>]
       npm run restore -- --list`;
const TABLES = /** @type {const} */ (["memories", "uploads", "poems", "rsvps"]);

/** @param {string} message @param {number} [code] @returns {never} */
function fail(message, code = 1) {
  console.error(`Restore failed: ${message}`);
  process.exit(code);
}

/** @type {{ output?: string; timestamp?: string; generation?: string; list?: boolean }} */
let options;
try {
  ({ values: options } = parseArgs({
    options: { output: { type: "string" }, timestamp: { type: "string" }, generation: { type: "string" }, list: { type: "boolean" } },
  }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
  process.exit(2);
}
if (!options.list && !options.output?.trim()) {
  console.error(USAGE);
  process.exit(2);
}
const timestamp = options.timestamp?.trim();
// Litestream reads RFC 3339: a date, a time and a zone (Z or an offset).
if (
  timestamp &&
  (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(timestamp) || Number.isNaN(Date.parse(timestamp)))
) {
  fail(`--timestamp must be an RFC 3339 time with its zone, e.g. 2026-11-25T14:00:00Z (got ${timestamp})`, 2);
}

/** @type {import("../server/replication.mjs").ReplicaSettings | null} */
let settings;
try {
  settings = replicationFromEnv(process.env);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (!settings)
  fail("no replica is configured: set LITESTREAM_REPLICA_URL, or BUCKET_NAME with the bucket's AWS_* variables, as the site has them.");
const binary = litestreamBinary();
if (!binary) fail(`there is no Litestream binary for ${process.platform}-${process.arch}: install it (https://litestream.io/install/).`);

// Litestream finds the replica through a database its configuration names,
// and wants that file to exist: an empty stand-in, so the site's own
// database is never read or written.
const standIn = mkdtempSync(path.join(tmpdir(), "memorial-restore-"));
const databasePath = path.join(standIn, "memorial.db");
writeFileSync(databasePath, "");
process.on("exit", () => rmSync(standIn, { recursive: true, force: true }));
/** litestream.yml's variables for the stand-in and the replica. */
const litestreamEnv = { ...process.env, DATABASE_PATH: databasePath, LITESTREAM_URL: settings.url, LITESTREAM_METRICS_PORT: "0" };

/**
 * Runs a Litestream command to its end.
 * @param {string[]} args
 * @returns {Promise<{ code: number; stdout: string; stderr: string }>}
 */
function runLitestream(args) {
  return new Promise((resolve) => {
    execFile(
      /** @type {string} */ (binary),
      [...args, "-config", CONFIG, databasePath],
      { env: litestreamEnv, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr || (error && !stdout ? error.message : "")) });
      },
    );
  });
}

/**
 * Litestream's JSON log lines, read back (anything else is skipped).
 * @param {string} text
 * @returns {Record<string, unknown>[]}
 */
function logEntries(text) {
  return text.split("\n").flatMap((line) => {
    try {
      return line.startsWith("{") ? [JSON.parse(line)] : [];
    } catch {
      return [];
    }
  });
}

/** What went wrong, in Litestream's words. @param {{ stdout: string; stderr: string }} run */
function failureOf(run) {
  const last = logEntries(run.stderr)
    .filter((entry) => entry.level === "ERROR")
    .at(-1);
  if (last) return String(last.error ?? last.msg);
  return (run.stderr || run.stdout).trim().split("\n").slice(-3).join(" ") || "no output";
}

/**
 * The replica's generations: `litestream generations`' table of name, generation, lag, start and end.
 * @returns {Promise<{ generation: string; start: string; end: string }[]>}
 */
async function listGenerations() {
  const run = await runLitestream(["generations"]);
  if (run.code !== 0) throw new Error(`litestream generations failed: ${failureOf(run)}`);
  return run.stdout
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 5 && /^[0-9a-f]{16}$/.test(columns[1] ?? ""))
    .map((columns) => ({ generation: columns[1] ?? "", start: columns[3] ?? "", end: columns[4] ?? "" }));
}

/**
 * `litestream restore` into `output` (the latest state, or the state at
 * `at`), checked with PRAGMA integrity_check. Null when the replica holds no
 * such copy.
 * @param {string} output @param {{ at?: string; generation?: string }} which
 * @returns {Promise<{ generation: string; lastTransactionAt: string | null; seconds: number } | null>}
 */
async function restoreDatabase(output, { at, generation }) {
  const started = Date.now();
  /** Litestream writes `<file>.tmp` and renames it, leaving that temporary database's -wal and -shm behind. */
  const leftovers = () => [".tmp", ".tmp-wal", ".tmp-shm"].forEach((suffix) => rmSync(`${output}${suffix}`, { force: true }));
  leftovers();
  const args = ["restore", "-if-replica-exists", "-o", output];
  if (at) args.push("-timestamp", at);
  if (generation) args.push("-generation", generation);
  const run = await runLitestream(args);
  leftovers();
  if (run.code !== 0) throw new Error(failureOf(run));
  if (!existsSync(output)) return null;
  const integrity = checkDatabase(output);
  if (integrity !== "ok") {
    rmSync(output, { force: true });
    throw new Error(`the restored database failed PRAGMA integrity_check: ${integrity}`);
  }
  const from = logEntries(run.stderr).find((entry) => entry.msg === "restoring snapshot")?.generation;
  const restored = typeof from === "string" ? from : (generation ?? "unknown");
  // The replica's own record of the generation: when its last WAL segment arrived.
  const listed = await listGenerations().catch(() => []);
  let lastTransactionAt = listed.find((entry) => entry.generation === restored)?.end ?? null;
  // Restored to a point in time: the generation went on after it.
  if (at && lastTransactionAt && Date.parse(lastTransactionAt) > Date.parse(at)) lastTransactionAt = null;
  return { generation: restored, lastTransactionAt, seconds: (Date.now() - started) / 1000 };
}

if (options.list) {
  const generations = await listGenerations().catch((error) => fail(error instanceof Error ? error.message : String(error)));
  if (generations.length === 0) {
    console.log(`The replica ${settings.description} holds no copy of the database yet.`);
  } else {
    console.log(
      `Generations in ${settings.description} (a new one starts whenever the site starts on a database Litestream did not follow):`,
    );
    for (const { generation, start, end } of generations.sort((a, b) => Date.parse(a.start) - Date.parse(b.start))) {
      console.log(`  ${generation}  from ${start}  to ${end}`);
    }
  }
  process.exit(0);
}

const output = path.resolve(/** @type {string} */ (options.output).trim());
if (existsSync(output)) fail(`${output} already exists; choose a new file (a restore never overwrites one).`);
mkdirSync(path.dirname(output), { recursive: true });

/** @type {Awaited<ReturnType<typeof restoreDatabase>>} */
let restored = null;
let note = "";
try {
  restored = await restoreDatabase(output, { at: timestamp, generation: options.generation });
  if (!restored && timestamp) {
    // Litestream restores a point in time only inside a generation's span. A
    // memorial nobody wrote to for a while has its state at that time at the
    // end of the last generation before it: restore that generation whole.
    const generations = await listGenerations();
    const before = generations
      .filter((entry) => (!options.generation || entry.generation === options.generation) && Date.parse(entry.end) <= Date.parse(timestamp))
      .sort((a, b) => Date.parse(a.end) - Date.parse(b.end))
      .at(-1);
    if (before) {
      restored = await restoreDatabase(output, { generation: before.generation });
      note = ` (nothing was replicated between ${before.end} and ${timestamp}: this is the state at ${before.end}, the end of that generation)`;
    }
  }
} catch (error) {
  fail(`could not restore from ${settings.description}: ${error instanceof Error ? error.message : error}`);
}
if (!restored) {
  fail(
    timestamp
      ? `the replica ${settings.description} holds no copy of the database at ${timestamp} (it may be older than the replica's first copy, or past its week of history): see npm run restore -- --list`
      : `the replica ${settings.description} holds no copy of the database.`,
  );
}

const copy = new Database(output, { readonly: true, fileMustExist: true });
const counts = TABLES.map((table) => {
  const row = /** @type {{ n: number } | undefined} */ (copy.prepare(`SELECT count(*) AS n FROM "${table}"`).get());
  return `${row?.n ?? 0} ${table}`;
}).join(", ");
copy.close();

const asOf = timestamp
  ? `as of ${timestamp}${note}`
  : `latest${restored.lastTransactionAt ? `, last transaction replicated at ${restored.lastTransactionAt}` : ""}`;
console.log(`Restored ${output} from ${settings.description} in ${restored.seconds.toFixed(1)} s`);
console.log(`  generation ${restored.generation}, ${asOf}`);
console.log(`  integrity ok; ${counts}`);
