import type Database from "better-sqlite3";

/**
 * Tables no visitor's page or public answer ever reads. Writes to them (a
 * login, a rate-limit hit, a signed upload address) leave rendered pages as
 * they are; a write to any other table, including one added later, counts.
 */
const UNSEEN_TABLES: ReadonlySet<string> = new Set([
  "sessions",
  "rate_limit_hits",
  "signed_uploads",
  "admin_invitations",
  "mail_outbox",
  "mail_unsubscribe_tokens",
  "mail_suppressions",
  "__drizzle_migrations",
]);

/** The table an INSERT, REPLACE, UPDATE or DELETE writes to; anything else reads as unknown. */
const WRITE_TARGET = /^\s*(?:insert|replace|update|delete)\b(?:\s+or\s+\w+)?(?:\s+into|\s+from)?\s+[`"[]?(\w+)/i;

export interface WriteVersion {
  /**
   * Changes after every write that may change what visitors see: through
   * this connection (counted as each statement runs), or committed by any
   * other connection, in this process or another (`npm run admin`, a test
   * seeding the file), which SQLite's `data_version` tells.
   */
  current(): string;
  /** Counts a change made outside the database (a file in media storage) as such a write. */
  bump(): void;
}

type Runnable = Record<"run" | "get" | "all" | "iterate", (...args: unknown[]) => unknown>;

/**
 * Watches every statement prepared on this connection from now on. Reads
 * are left untouched; a statement that writes a table visitors may see
 * counts one write each time it runs, whether it succeeds or not (a failed
 * write only costs a fresh render).
 *
 * A write inside a transaction counts before its COMMIT: better-sqlite3's
 * transactions are synchronous, so no request in this process can start
 * rendering between the two.
 */
export function watchWrites(sqlite: Database.Database): WriteVersion {
  let writes = 0;
  const bump = () => {
    writes++;
  };
  const prepare = sqlite.prepare;
  const exec = sqlite.exec;
  const dataVersion = prepare.call(sqlite, "pragma data_version").pluck() as Database.Statement<[], number>;

  sqlite.prepare = function (this: Database.Database, source: string) {
    const statement = prepare.call(this, source);
    if (statement.readonly) return statement;
    const table = WRITE_TARGET.exec(source)?.[1]?.toLowerCase();
    if (table !== undefined && UNSEEN_TABLES.has(table)) return statement;
    const methods = statement as unknown as Runnable;
    for (const name of ["run", "get", "all", "iterate"] as const) {
      const original = methods[name];
      methods[name] = function (this: unknown, ...args: unknown[]) {
        try {
          return original.apply(this, args);
        } finally {
          bump();
        }
      };
    }
    return statement;
  } as typeof sqlite.prepare;

  // Several statements of any kind at once: counted as a write.
  sqlite.exec = function (this: Database.Database, source: string) {
    try {
      return exec.call(this, source);
    } finally {
      bump();
    }
  };

  return {
    current: () => `${writes}.${dataVersion.get()}`,
    bump,
  };
}
