import http from "node:http";
import { letLitestreamCheckpoint } from "~/platform/db.server";

// How the database's replication goes, read from the metrics of the
// Litestream this server runs under (scripts/litestream-start.sh,
// docs/decisions/032-litestream-as-parent.md). The server starts the reading
// through siteHooks.replicating; the admin panel's Exports tab reads the
// report (app/keepsakes/safekeeping.server.ts). Until the server says so, the
// database is not replicated.

/** How replication goes. Times are ms since the epoch. */
export interface ReplicationReport {
  /** Where the copies go, without credentials: `s3://memorial/db at fly.storage.tigris.dev`, `file:///backups/memorial`. */
  replica: string;
  /** False while Litestream's metrics cannot be read: nothing below is known. */
  known: boolean;
  /** When the replica last held everything written (or last received a copy); null before the first copy. */
  lastReplicatedAt: number | null;
  /** Writes have waited for the replica since then, for longer than the warning threshold (a minute); null while it works. */
  failingSince: number | null;
  /** When this machine, its volume having no database, brought it back from the replica at start. */
  restoredAt: number | null;
}

interface Replicating {
  replica: string;
  metricsPort: number;
  warnAfterMs: number;
  restoredAt: number | null;
}

/** One database, one replica: labels are left aside. */
function readMetric(text: string, name: string): number | undefined {
  const match = new RegExp(`^litestream_${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text);
  return match ? Number(match[1]) : undefined;
}

function fetchMetrics(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/metrics", timeout: 2000, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve(res.statusCode === 200 ? text : null));
      res.on("error", () => resolve(null));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(null));
  });
}

let report: ReplicationReport | null = null;

/**
 * Litestream replicates this database: from now on it alone checkpoints it,
 * and its metrics are read every second. The replica holds everything once
 * its position equals the end of Litestream's shadow WAL; replication is
 * failing once the shadow WAL has been ahead of it, with no copy arriving,
 * for `warnAfterMs`. (A Litestream that resumed with nothing new to ship
 * publishes no replica position: that is not a failure.)
 */
export function replicating({ replica, metricsPort, warnAfterMs, restoredAt }: Replicating) {
  letLitestreamCheckpoint();
  const current: ReplicationReport = { replica, known: false, lastReplicatedAt: null, failingSince: null, restoredAt };
  report = current;
  let firstShadow: string | null = null;
  let replicaPosition: string | null = null;
  let waitingSince: number | null = null;
  /** When the log last warned; again every 10 minutes while it lasts. */
  let warnedAt: number | null = null;
  let polling = false;

  const poll = async () => {
    if (polling) return;
    polling = true;
    const text = await fetchMetrics(metricsPort);
    polling = false;
    const now = Date.now();
    current.known = text !== null;
    if (text === null) return;
    const shadow = `${readMetric(text, "shadow_wal_index")}:${readMetric(text, "shadow_wal_size")}`;
    const index = readMetric(text, "replica_wal_index");
    const position = index === undefined ? null : `${index}:${readMetric(text, "replica_wal_offset")}`;
    firstShadow ??= shadow;
    const moved = position !== null && position !== replicaPosition;
    replicaPosition = position;
    if (position === shadow || moved) {
      current.lastReplicatedAt = now;
      waitingSince = null;
    } else if (position !== null || shadow !== firstShadow) {
      waitingSince ??= now;
    }
    current.failingSince = waitingSince !== null && now - waitingSince > warnAfterMs ? waitingSince : null;
    if (current.failingSince !== null && (warnedAt === null || now - warnedAt >= 10 * 60_000)) {
      warnedAt = now;
      const seconds = Math.round((now - current.failingSince) / 1000);
      const msg = `The database has not been replicated for ${seconds} s: new memories are only on this machine's disk`;
      console.warn(JSON.stringify({ time: new Date(now).toISOString(), level: "warn", msg, replica }));
    } else if (current.failingSince === null && warnedAt !== null) {
      warnedAt = null;
      console.log(JSON.stringify({ time: new Date(now).toISOString(), level: "info", msg: "The database is replicated again", replica }));
    }
  };
  setInterval(() => void poll(), 1000).unref();
  void poll();
  return {
    /**
     * Before the server exits: waits (up to 5 s) until Litestream has taken up
     * the database (synced it once). One started a moment before, on a new
     * database, has not read it yet, and would exit with the server without
     * shipping anything.
     */
    async takenUp() {
      for (const started = Date.now(); Date.now() - started < 5000; await new Promise((resolve) => setTimeout(resolve, 100))) {
        const text = await fetchMetrics(metricsPort);
        // Litestream gone (or its metrics): nothing to wait for.
        if (text === null || (readMetric(text, "sync_count") ?? 0) > 0) return;
      }
    },
  };
}

/** How replication goes, or null when the database is not replicated. */
export function replicationReport(): ReplicationReport | null {
  return report && { ...report };
}
