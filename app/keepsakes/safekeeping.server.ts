import { config } from "~/platform/config.server";
import { replicationReport } from "~/keepsakes/replication.server";
import { relativeTime } from "~/utils/relative-time";

// Whether the family's memories would outlive this machine, for the admin
// panel's Exports tab: the database's replication (docs/backups.md) and where
// photos and videos are kept.

export type DatabaseSafekeeping =
  | { replicated: false }
  | {
      replicated: true;
      /** Where the copies go, without credentials. */
      replica: string;
      /** False while the copying program's state cannot be read: nothing below is known. */
      known: boolean;
      /** Whole seconds since the replica last held everything; null before the first copy. */
      secondsSinceReplicated: number | null;
      /** The same, in words ("about 2 hours ago"). */
      sinceReplicatedWords: string | null;
      /** Replication has made no progress for this long (past the warning threshold); null while it works. */
      failingForWords: string | null;
      /** This machine started on an empty volume and brought the database back from the replica. */
      restored: { at: string } | null;
    };

export type MediaSafekeeping = { storage: "bucket"; bucket: string } | { storage: "disk" };

export function getSafekeeping(now = Date.now()): { database: DatabaseSafekeeping; media: MediaSafekeeping } {
  const report = replicationReport();
  const media: MediaSafekeeping = config.BUCKET_NAME ? { storage: "bucket", bucket: config.BUCKET_NAME } : { storage: "disk" };
  if (!report) return { database: { replicated: false }, media };
  const since = report.lastReplicatedAt;
  return {
    database: {
      replicated: true,
      replica: report.replica,
      secondsSinceReplicated: since === null ? null : Math.max(0, Math.floor((now - since) / 1000)),
      sinceReplicatedWords: since === null ? null : relativeTime(since, now),
      failingForWords: report.failingSince === null ? null : relativeTime(report.failingSince, now).replace(/ ago$/, ""),
      known: report.known,
      restored: report.restoredAt === null ? null : { at: new Date(report.restoredAt).toISOString() },
    },
    media,
  };
}
