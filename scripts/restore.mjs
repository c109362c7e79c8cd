// @ts-check
// `npm run restore -- --output <file> [--timestamp 2026-11-25T14:00:00Z] [--generation <id>]`:
// the database as the replica holds it (the latest state, or the state at a
// point in time) in a new file, checked with PRAGMA integrity_check. It reads
// the replica from the same variables as the site (LITESTREAM_REPLICA_URL, or
// BUCKET_NAME with the AWS_* variables) and never touches the site's own
// database: put the file in its place yourself (docs/backups.md).
// `npm run restore -- --list` shows the replica's generations.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { listGenerations, litestreamBinary, litestreamConfigFile, replicationFromEnv, restoreDatabase } from "../server/replication.mjs";

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
const config = litestreamConfigFile({ ...settings, databasePath });
const configFile = config.write();
const cleanUp = () => {
  config.remove();
  rmSync(standIn, { recursive: true, force: true });
};
process.on("exit", cleanUp);

if (options.list) {
  const generations = await listGenerations(binary, configFile, databasePath).catch((error) => fail(error.message));
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

/** @type {import("../server/replication.mjs").Restored | null} */
let restored;
let note = "";
try {
  restored = await restoreDatabase({ binary, configFile, databasePath, output, timestamp, generation: options.generation });
  if (!restored && timestamp) {
    // Litestream restores a point in time only inside a generation's span. A
    // memorial nobody wrote to for a while has its state at that time at the
    // end of the last generation before it: restore that generation whole.
    const generations = await listGenerations(binary, configFile, databasePath);
    const before = generations
      .filter((entry) => (!options.generation || entry.generation === options.generation) && Date.parse(entry.end) <= Date.parse(timestamp))
      .sort((a, b) => Date.parse(a.end) - Date.parse(b.end))
      .at(-1);
    if (before) {
      restored = await restoreDatabase({ binary, configFile, databasePath, output, generation: before.generation });
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
