// Which replica the environment names and what Litestream is told
// (server/replication.mjs, litestream.yml, scripts/litestream-start.sh). The
// real binary runs in replication-http.test.ts; the start script's settings as
// it reads them, in replication-settings.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { litestreamBinary, metricsPortFromEnv, replicationFromEnv, replicationWarnAfterFromEnv } from "../../server/replication.mjs";

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
      url: "s3://memorial/db",
    });
  });

  it("is LITESTREAM_REPLICA_URL when set, before the bucket", () => {
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "s3://backups/memorial", BUCKET_NAME: "media", ...TIGRIS })).toMatchObject({
      description: "s3://backups/memorial",
      url: "s3://backups/memorial",
    });
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "file:///var/backups/memorial%20copies", ...TIGRIS })).toMatchObject({
      description: "file:///var/backups/memorial copies",
      url: "file:///var/backups/memorial copies",
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
    expect(replicationFromEnv({ LITESTREAM_REPLICA_URL: "file:///backups/memorial" })?.url).toBe("file:///backups/memorial");
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
  const config = readFileSync("litestream.yml", "utf8");

  it("ships every second, keeps a week of history with a snapshot a day, and serves metrics on loopback only", () => {
    expect(config).toMatch(/^addr: "127\.0\.0\.1:\$\{LITESTREAM_METRICS_PORT\}"$/m);
    expect(config).toMatch(/^ {4}monitor-interval: 250ms$/m);
    expect(config).toMatch(/^ {8}sync-interval: 1s$/m);
    expect(config).toMatch(/^ {8}retention: 168h$/m);
    expect(config).toMatch(/^ {8}snapshot-interval: 24h$/m);
  });

  it("carries no credentials nor paths: Litestream reads them from the environment (its own ${VAR} expansion)", () => {
    for (const variable of ["DATABASE_PATH", "LITESTREAM_URL", "AWS_ENDPOINT_URL_S3", "AWS_REGION"])
      expect(config).toContain(`\${${variable}}`);
    expect(config).not.toMatch(/AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|s3:\/\/|file:\/\//);
  });

  it("comes with npm install: the binary of @flydotio/litestream for this platform", () => {
    expect(litestreamBinary({ PATH: "" })).toBe(
      path.resolve(`node_modules/@flydotio/litestream-${process.platform}-${process.arch}/litestream`),
    );
  });
});

describe("the start script's settings", () => {
  it("serve metrics on 9090 unless LITESTREAM_METRICS_PORT says otherwise", () => {
    expect(metricsPortFromEnv({})).toBe(9090);
    expect(metricsPortFromEnv({ LITESTREAM_METRICS_PORT: "9123" })).toBe(9123);
    for (const value of ["metrics", "0", "70000"]) {
      expect(() => metricsPortFromEnv({ LITESTREAM_METRICS_PORT: value }), value).toThrow(/LITESTREAM_METRICS_PORT: must be a port number/);
    }
  });
});
