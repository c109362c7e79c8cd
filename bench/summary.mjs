// The one table `npm run bench` ends with: each part adds its headline
// figures here (when run by bench/index.mjs, which sets BENCH_SUMMARY to a
// scratch file), each next to the reference measured in the same run.
import { appendFileSync, readFileSync } from "node:fs";

/**
 * @typedef {{ measure: string; result: string; reference: string; ratio?: string; target?: string; met?: boolean }} SummaryRow
 */

/** @param {SummaryRow[]} rows */
export function addToSummary(rows) {
  const file = process.env.BENCH_SUMMARY;
  if (!file) return;
  appendFileSync(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
}

/** @param {string} file */
export function printSummary(file) {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return;
  }
  /** @type {SummaryRow[]} */
  const rows = text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  console.log("\n## summary (every figure next to its reference from the same run)");
  console.table(
    rows.map((row) => ({
      measure: row.measure,
      result: row.result,
      reference: row.reference,
      ratio: row.ratio ?? "",
      target: row.target ? `${row.target} ${row.met === undefined ? "" : row.met ? "✅" : "❌"}`.trim() : "",
    })),
  );
}
