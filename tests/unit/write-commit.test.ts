// In autocommit mode SQLite commits an INSERT/UPDATE/DELETE … RETURNING when
// the statement halts. better-sqlite3's .get() reads the first row and stops:
// the halt's error (SQLITE_FULL on a full disk) is then never raised, and the
// write is acknowledged though it was not kept (tests/integration/full-disk.test.ts
// shows it against the server). Every write outside a transaction must read
// its RETURNING rows with .all(); inside db.transaction the COMMIT raises.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.resolve(import.meta.dirname, "../../app");

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Writes whose statement reads only the first RETURNING row, outside a transaction (`tx.`). */
export function firstRowOnlyWrites(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\.returning\([^)]*\)\s*\.get\(\)/g)) {
    // Walk back to the start of the expression, over balanced brackets.
    let start = match.index!;
    for (let depth = 0; start > 0; start--) {
      const char = source[start - 1]!;
      if (")]}".includes(char)) depth++;
      else if ("([{".includes(char)) depth--;
      if (depth < 0 || (depth === 0 && (char === ";" || char === "="))) break;
    }
    const statement = source.slice(start, match.index! + match[0].length).trim();
    if (!/^(return\s+)?tx\s*\./.test(statement)) found.push(statement.replace(/\s+/g, " "));
  }
  return found;
}

describe("writes that acknowledge something", () => {
  it("the check finds a first-row-only write and lets a transaction's through", () => {
    expect(firstRowOnlyWrites("const row = db.insert(t).values(v).returning().get();")).toHaveLength(1);
    expect(firstRowOnlyWrites("return db\n  .update(t)\n  .set(v)\n  .returning({ id: t.id })\n  .get();")).toHaveLength(1);
    expect(firstRowOnlyWrites("db.transaction((tx) => { const row = tx.insert(t).values(v).returning().get(); });")).toEqual([]);
    expect(firstRowOnlyWrites("const [row] = db.insert(t).values(v).returning().all();")).toEqual([]);
  });

  it("read all their RETURNING rows (or run in a transaction), so a failed commit is never acknowledged", () => {
    const offenders = sources(APP).flatMap((file) =>
      firstRowOnlyWrites(readFileSync(file, "utf8")).map((statement) => `${path.relative(APP, file)}: ${statement}`),
    );
    expect(offenders).toEqual([]);
  });
});
