// Which replica the environment names, what Litestream is told, and how its
// metrics and log become what the admin panel says (server/replication.mjs,
// server/litestream.mjs). The real binary runs in replication-http.test.ts.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createReplicationWatch, parseMetrics } from "../../server/litestream.mjs";
import {
  listGenerations,
  litestreamBinary,
  litestreamConfig,
  litestreamConfigFile,
  parseGenerations,
  replicationFromEnv,
  replicationWarnAfterFromEnv,
} from "../../server/replication.mjs";

afterEach(() => {
  vi.unstubAllEnvs();
});

const TIGRIS = { AWS_ENDPOINT_URL_S3: "https://fly.storage.tigris.dev", AWS_REGION: "auto" };

describe("the replica the environment names", () => {
  it("is none without LITESTREAM_REPLICA_URL or a bucket, and none with LITESTREAM_REPLICA_URL=off", () => {
    expect(replicationFromEnv({})).toBeNull();
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "  " })).toBeNull();
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "off", BUCKET_NAME: "memorial", ...TIGRIS })).toBeNull();
  });

  it("is the media bucket under db/ when only the bucket is set, with its endpoint and region", () => {
    expect(replicationFromEnv({ BUCKET_NAME: "memorial", DATABASE_PATH: "/data/memorial.db", ...TIGRIS })).toEqual({
      databasePath: "/data/memorial.db",
      description: "s3://memorial/db at fly.storage.tigris.dev",
      replica: { type: "s3", bucket: "memorial", path: "db", endpoint: "https://fly.storage.tigris.dev", region: "auto" },
    });
  });

  it("is LITESTREAM_REPLICA_URL when set, before the bucket; an S3 URL takes the bucket's endpoint and region", () => {
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "s3://backups/memorial", BUCKET_NAME: "media", ...TIGRIS })).toMatchObject({
      description: "s3://backups/memorial",
      replica: { url: "s3://backups/memorial", endpoint: "https://fly.storage.tigris.dev", region: "auto" },
    });
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "file:///var/backups/memorial", ...TIGRIS })).toMatchObject({
      description: "file:///var/backups/memorial",
      replica: { url: "file:///var/backups/memorial" },
    });
  });

  it("never shows credentials written into the URL", () => {
    const settings = replicationFromEnv({ LITESTREAM_REPLICA_URL: "sftp://family:secret@backup.example.com/memorial" });
    expect(settings?.description).toBe("sftp://backup.example.com/memorial");
  });

  it("refuses what is not a replica URL, naming the variable", () => {
    for (const value of ["memorial-backups", "https://example.com/db", "file:///", "s3:///db"]) {
      expect(() => replicationFromEnv({ LITESTREAM_REPLICA_URL: value }), value).toThrow(
        /LITESTREAM_REPLICA_URL: must be a Litestream replica URL/,
      );
    }
  });

  it("refuses a file replica that is not an absolute path on this machine, saying how to write one", () => {
    for (const value of ["file:backups/memorial", "file:./backups", "file://backup-host/memorial", "FILE://nas/db"]) {
      expect(() => replicationFromEnv({ LITESTREAM_REPLICA_URL: value }), value).toThrow(
        /LITESTREAM_REPLICA_URL: a file replica is an absolute path on this machine, written with three slashes: file:\/\/\/backups\/memorial/,
      );
    }
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "file:///backups/memorial" })?.replica).toEqual({
      url: "file:///backups/memorial",
    });
  });

  it("never writes a replica's password into Litestream's configuration file; Litestream reads it from the environment", async () => {
    const url = "sftp://family:s3cretPassword@127.0.0.1:1/memorial";
    vi.stubEnv("LITESTREAM_REPLICA_URL", url);
    const settings = replicationFromEnv({ LITESTREAM_REPLICA_URL: url, DATABASE_PATH: path.join(tmpdir(), "memorial-config-test.db") })!;
    writeFileSync(settings.databasePath, "");
    const config = litestreamConfigFile(settings);
    try {
      const written = readFileSync(config.write(), "utf8");
      expect(written).not.toContain("s3cretPassword");
      expect(written).toContain("${LITESTREAM_REPLICA_URL}");
      // The real binary expands it: the replica is read (nothing listed from a server that is not there), not refused as unnamed.
      const binary = litestreamBinary();
      if (binary) await expect(listGenerations(binary, config.file, settings.databasePath)).resolves.toEqual([]);
    } finally {
      config.remove();
      rmSync(settings.databasePath, { force: true });
    }
    // Without a password nothing is left to the environment.
    const file = litestreamConfigFile(replicationFromEnv({ LITESTREAM_REPLICA_URL: "file:///backups/memorial" })!);
    try {
      expect(readFileSync(file.write(), "utf8")).toContain('"url": "file:///backups/memorial"');
    } finally {
      file.remove();
    }
  });

  it("warns after a minute without progress unless REPLICATION_WARN_AFTER_MS says otherwise", () => {
    expect(replicationWarnAfterFromEnv({})).toBe(60_000);
    expect(replicationWarnAfterFromEnv({ REPLICATION_WARN_AFTER_MS: "4000" })).toBe(4000);
    for (const value of ["soon", "500", "1.5e3x"]) {
      expect(() => replicationWarnAfterFromEnv({ REPLICATION_WARN_AFTER_MS: value }), value).toThrow(/REPLICATION_WARN_AFTER_MS: must be/);
    }
  });

  it("resolves the database path as the site does", () => {
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "file:///r" })?.databasePath).toBe(path.resolve("./data/memorial.db"));
  });
});

describe("Litestream's configuration", () => {
  it("ships every second, keeps a week of history with a snapshot a day, and serves metrics on loopback only", () => {
    const settings = replicationFromEnv({ BUCKET_NAME: "memorial", DATABASE_PATH: "/data/memorial.db", ...TIGRIS })!;
    expect(litestreamConfig(settings, { metricsPort: 9123 })).toEqual({
      addr: "127.0.0.1:9123",
      logging: { level: "info", type: "json", stderr: true },
      dbs: [
        {
          path: "/data/memorial.db",
          "monitor-interval": "250ms",
          replicas: [
            {
              name: "replica",
              type: "s3",
              bucket: "memorial",
              path: "db",
              endpoint: "https://fly.storage.tigris.dev",
              region: "auto",
              "sync-interval": "1s",
              retention: "168h",
              "snapshot-interval": "24h",
            },
          ],
        },
      ],
    });
  });

  it("carries no credentials: Litestream reads them from the environment", () => {
    const settings = replicationFromEnv({
      BUCKET_NAME: "memorial",
      AWS_ACCESS_KEY_ID: "AKIA-TEST",
      AWS_SECRET_ACCESS_KEY: "s3cr3t",
      ...TIGRIS,
    })!;
    const written = JSON.stringify(litestreamConfig(settings));
    expect(written).not.toContain("AKIA-TEST");
    expect(written).not.toContain("s3cr3t");
  });

  it("comes with npm install: the binary of @flydotio/litestream for this platform", () => {
    expect(litestreamBinary({ PATH: "" })).toBe(
      path.resolve(`node_modules/@flydotio/litestream-${process.platform}-${process.arch}/litestream`),
    );
  });
});

describe("Litestream's output, read back", () => {
  it("reads the generations table", () => {
    const table = [
      "name     generation        lag     start                 end",
      "replica  e264b3dfaf6624a5  -424ms  2026-11-25T17:44:05Z  2026-11-25T17:44:07Z",
      "replica  13d2758141f1cccf  2m16s   2026-11-24T09:00:00Z  2026-11-24T10:30:00Z",
    ].join("\n");
    expect(parseGenerations(table)).toEqual([
      { generation: "e264b3dfaf6624a5", start: "2026-11-25T17:44:05Z", end: "2026-11-25T17:44:07Z" },
      { generation: "13d2758141f1cccf", start: "2026-11-24T09:00:00Z", end: "2026-11-24T10:30:00Z" },
    ]);
    expect(parseGenerations("name  generation  lag  start  end\n")).toEqual([]);
  });

  it("reads where the shadow WAL ends and how far the replica has it from the metrics", () => {
    const metrics = [
      "# HELP litestream_shadow_wal_index The current shadow WAL index",
      'litestream_shadow_wal_index{db="/data/memorial.db"} 3',
      'litestream_shadow_wal_size{db="/data/memorial.db"} 1.2345e+06',
      'litestream_replica_wal_index{db="/data/memorial.db",name="replica"} 3',
      'litestream_replica_wal_offset{db="/data/memorial.db",name="replica"} 1.2345e+06',
      'litestream_replica_wal_bytes{db="/data/memorial.db",name="replica"} 999',
      'litestream_sync_count{db="/data/memorial.db"} 41',
    ].join("\n");
    expect(parseMetrics(metrics)).toEqual({ shadowIndex: 3, shadowSize: 1234500, replicaIndex: 3, replicaOffset: 1234500, syncs: 41 });
    expect(parseMetrics('litestream_shadow_wal_index{db="x"} 0\n')).toEqual({
      shadowIndex: 0,
      shadowSize: undefined,
      replicaIndex: undefined,
      replicaOffset: undefined,
      syncs: undefined,
    });
  });
});

describe("how replication goes", () => {
  const T0 = Date.parse("2026-11-25T12:00:00Z");
  const watchFrom = (now = T0) => createReplicationWatch({ replica: "s3://memorial/db", warnAfterMs: 60_000, restored: null, now });

  it("has not replicated before the first copy, and is not failing until the threshold has passed", () => {
    const watch = watchFrom();
    watch.started(T0);
    watch.measured({ shadowIndex: 0, shadowSize: 4152 }, T0 + 1000);
    expect(watch.report(T0 + 1000)).toMatchObject({ lastReplicatedAt: null, failingSince: null, problem: null });
    expect(watch.report(T0 + 60_001).failingSince).toBe(T0);
  });

  it("counts the replica holding the whole shadow WAL as replicated now, and a copy still on its way as not", () => {
    const watch = watchFrom();
    watch.started(T0);
    watch.logged({ level: "INFO", msg: "write snapshot" }, T0 + 500);
    watch.logged({ level: "INFO", msg: "snapshot written" }, T0 + 600);
    watch.measured({ shadowIndex: 0, shadowSize: 8272, replicaIndex: 0, replicaOffset: 8272 }, T0 + 1000);
    expect(watch.report(T0 + 1000).lastReplicatedAt).toBe(T0 + 1000);
    // Idle: every poll finds the replica complete.
    watch.measured({ shadowIndex: 0, shadowSize: 8272, replicaIndex: 0, replicaOffset: 8272 }, T0 + 90_000);
    expect(watch.report(T0 + 90_000)).toMatchObject({ lastReplicatedAt: T0 + 90_000, failingSince: null });
    // A write not yet shipped: the last time stays.
    watch.measured({ shadowIndex: 0, shadowSize: 12392, replicaIndex: 0, replicaOffset: 8272 }, T0 + 91_000);
    expect(watch.report(T0 + 91_000).lastReplicatedAt).toBe(T0 + 90_000);
  });

  it("counts a replica that keeps receiving as working, even when writes never let it catch up between two readings", () => {
    const watch = watchFrom();
    watch.started(T0);
    for (let second = 1; second <= 120; second++) {
      watch.measured(
        { shadowIndex: 0, shadowSize: 5000 * second + 100, replicaIndex: 0, replicaOffset: 5000 * second },
        T0 + second * 1000,
      );
    }
    expect(watch.report(T0 + 120_000)).toMatchObject({ lastReplicatedAt: T0 + 120_000, failingSince: null });
  });

  it("warns once no copy has arrived for longer than the threshold, with Litestream's error, and stops warning when one arrives", () => {
    const watch = watchFrom();
    watch.started(T0);
    watch.measured({ shadowIndex: 0, shadowSize: 8272, replicaIndex: 0, replicaOffset: 8272 }, T0 + 1000);
    watch.logged({ level: "INFO", msg: "write wal segment" }, T0 + 2000);
    watch.logged({ level: "ERROR", msg: "monitor error", error: "AccessDenied: the key was revoked" }, T0 + 2100);
    watch.measured({ shadowIndex: 0, shadowSize: 12392, replicaIndex: 0, replicaOffset: 8272 }, T0 + 30_000);
    expect(watch.report(T0 + 30_000)).toMatchObject({ failingSince: null, problem: "AccessDenied: the key was revoked" });
    watch.measured({ shadowIndex: 0, shadowSize: 12392, replicaIndex: 0, replicaOffset: 8272 }, T0 + 61_001);
    expect(watch.failing(T0 + 61_001)).toBe(true);
    expect(watch.report(T0 + 61_001)).toMatchObject({
      lastReplicatedAt: T0 + 1000,
      failingSince: T0 + 1000,
      problem: "AccessDenied: the key was revoked",
    });
    watch.logged({ level: "INFO", msg: "wal segment written" }, T0 + 70_000);
    expect(watch.report(T0 + 70_000)).toMatchObject({ lastReplicatedAt: T0 + 70_000, failingSince: null, problem: null });
  });

  it("takes a Litestream that resumed with nothing to ship, quiet for 5 s, as holding everything", () => {
    const watch = watchFrom();
    watch.started(T0);
    watch.measured({ shadowIndex: 2, shadowSize: 4152 }, T0 + 2000);
    expect(watch.report(T0 + 2000).lastReplicatedAt).toBeNull();
    watch.measured({ shadowIndex: 2, shadowSize: 4152 }, T0 + 5000);
    expect(watch.report(T0 + 5000).lastReplicatedAt).toBe(T0 + 5000);
  });

  it("does not take a quiet Litestream that is failing or still shipping its first copy as holding everything", () => {
    const failing = watchFrom();
    failing.started(T0);
    failing.logged({ level: "INFO", msg: "write snapshot" }, T0 + 300);
    failing.logged({ level: "ERROR", msg: "monitor error", error: "mkdir /backups: permission denied" }, T0 + 310);
    failing.measured({ shadowIndex: 0, shadowSize: 4152 }, T0 + 10_000);
    expect(failing.report(T0 + 10_000)).toMatchObject({ lastReplicatedAt: null, problem: "mkdir /backups: permission denied" });

    const shipping = watchFrom();
    shipping.started(T0);
    shipping.logged({ level: "INFO", msg: "write snapshot" }, T0 + 300);
    shipping.measured({ shadowIndex: 0, shadowSize: 4152 }, T0 + 10_000);
    expect(shipping.report(T0 + 10_000).lastReplicatedAt).toBeNull();
  });

  it("counts a run as having taken up the database once Litestream has read it, or failed", () => {
    const watch = watchFrom();
    watch.started(T0);
    expect(watch.settled()).toBe(false);
    watch.measured({ shadowIndex: 0, shadowSize: 0, syncs: 0 }, T0 + 100);
    expect(watch.settled()).toBe(false);
    watch.measured({ shadowIndex: 0, shadowSize: 4152, syncs: 1 }, T0 + 400);
    expect(watch.settled()).toBe(true);
    watch.started(T0 + 1000);
    expect(watch.settled()).toBe(false);
    watch.logged({ level: "ERROR", msg: "monitor error", error: "mkdir /backups: permission denied" }, T0 + 1300);
    expect(watch.settled()).toBe(true);
  });

  it("says when Litestream stopped, until a copy arrives again", () => {
    const watch = watchFrom();
    watch.started(T0);
    watch.stopped(T0 + 1000, "killed by SIGKILL");
    expect(watch.report(T0 + 1000).problem).toBe("Litestream stopped (killed by SIGKILL); it is being started again");
    watch.started(T0 + 2000);
    watch.logged({ level: "INFO", msg: "snapshot written" }, T0 + 3000);
    expect(watch.report(T0 + 3000)).toMatchObject({ problem: null, lastReplicatedAt: T0 + 3000 });
  });
});
