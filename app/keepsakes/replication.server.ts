import { letLitestreamCheckpoint } from "~/platform/db.server";

// What the Node server (server/litestream.mjs) knows of the database's
// replication, handed to the app through siteHooks.replicating: the admin
// panel's Exports tab reads it (app/keepsakes/safekeeping.server.ts). Until the
// server says so, the database is not replicated.

/** How replication goes, as the server reports it. Times are ms since the epoch. */
export interface ReplicationReport {
  /** Where the copies go, without credentials: `s3://memorial/db at fly.storage.tigris.dev`, `file:///backups/memorial`. */
  replica: string;
  /** When the replica last held everything written (or last received a copy); null before the first copy. */
  lastReplicatedAt: number | null;
  /** Replication has made no progress since then, for longer than the warning threshold (a minute); null while it works. */
  failingSince: number | null;
  /** Litestream's last error, in its words; null while it works. */
  problem: string | null;
  /** What this machine brought back from the replica at start, its volume having no database. */
  restored: { generation: string; lastTransactionAt: string | null; at: number } | null;
}

let readReport: (() => ReplicationReport) | null = null;

/**
 * The server runs Litestream for this database: from now on Litestream alone
 * checkpoints it, and `read` says how replication goes.
 */
export function replicating(read: () => ReplicationReport) {
  letLitestreamCheckpoint();
  readReport = read;
}

/** How replication goes, or null when the database is not replicated. */
export function replicationReport(): ReplicationReport | null {
  return readReport?.() ?? null;
}
