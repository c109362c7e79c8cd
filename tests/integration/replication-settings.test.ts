// What the start script (scripts/litestream-start.sh) reads from
// `node server/replication.mjs settings`, run as it runs it: a child process
// of its own with the environment the server would have.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

describe("the start script's settings", () => {
  const settings = (env: Record<string, string>) =>
    execFileSync(process.execPath, ["server/replication.mjs", "settings"], {
      env: { PATH: process.env.PATH, NODE_ENV: "test", ...env },
      stdio: "pipe",
    }).toString();

  it("give Litestream the replica, the database's absolute path, and the description without credentials", () => {
    const output = settings({ LITESTREAM_REPLICA_URL: "sftp://family:s3cret@backup.example.com/memorial", DATABASE_PATH: "data/x.db" });
    expect(output.split("\n")).toEqual([
      "sftp://family:s3cret@backup.example.com/memorial",
      path.resolve("data/x.db"),
      "sftp://backup.example.com/memorial",
      "",
    ]);
  });

  it("say nothing when the database is not replicated, and refuse a wrong replica URL in one sentence", () => {
    expect(settings({})).toBe("");
    expect(() => settings({ LITESTREAM_REPLICA_URL: "memorial-backups" })).toThrow(
      /LITESTREAM_REPLICA_URL: must be a Litestream replica URL/,
    );
  });
});
