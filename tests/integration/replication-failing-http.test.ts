// What the family and the operator are told about the database's safety,
// against the production server:
//  - without a replica, the log and the Exports tab say the database is not
//    replicated, and that photos and videos exist only on this machine's disk;
//  - with a replica Litestream cannot write to (a read-only folder), visitors'
//    writes still succeed on the volume, the log and the Exports tab warn once
//    replication has made no progress past the threshold, and nothing crashes;
//  - with a replica that works, the Exports tab says when it last held
//    everything, and that this machine brought the database back when it
//    started on an empty volume;
//  - when Litestream's metrics cannot be read, the Exports tab says the state
//    of replication is unknown.
import { spawnSync } from "node:child_process";
import net from "node:net";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/site-process.mjs";
import { childProcesses, get, manageSites, postJson, request, scratchDir, startSite, type Site } from "../support/site-process";

manageSites();

const ADMIN = { username: "keeper", password: "replication-test-password" };

async function exportsTab(site: Site): Promise<string> {
  let cookie = "";
  for (let attempt = 0; ; attempt++) {
    const login = await postJson(site.port, "/api/admin/login", ADMIN);
    if (login.status === 200 || attempt > 40) {
      expect(login.status, login.body).toBe(200);
      cookie = (login.headers["set-cookie"] ?? []).map((value) => value.split(";")[0]!).join("; ");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const page = await request(site.port, "GET", "/admin/exports", { headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  // The page's text as a person reads it.
  return page.body
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

/** Whether a file can be made in `dir` by this process. */
function writable(dir: string): boolean {
  try {
    writeFileSync(path.join(dir, ".probe"), "");
    rmSync(path.join(dir, ".probe"));
    return true;
  } catch {
    return false;
  }
}

let unlock: (() => void) | null = null;
afterEach(() => {
  unlock?.();
  unlock = null;
});

/**
 * A folder nobody may write in: read-only, and immutable too when the tests
 * run as root (who ignores the permission bits).
 */
function readOnlyFolder(): string {
  const dir = path.join(scratchDir(), "read-only");
  mkdirSync(dir);
  chmodSync(dir, 0o555);
  let immutable = false;
  if (writable(dir)) immutable = spawnSync("chattr", ["+i", dir]).status === 0;
  unlock = () => {
    if (immutable) spawnSync("chattr", ["-i", dir]);
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  };
  expect(writable(dir), `${dir} could not be made read-only`).toBe(false);
  return dir;
}

async function sign(site: Site, from: number, count: number, run: string) {
  const ids: number[] = [];
  for (let index = from; index < from + count; index++) {
    const answer = await postJson(site.port, "/api/guestbook", {
      name: "Careful Tester",
      email: "careful@example.com",
      message: `Unreplicated run ${run}, memory ${index}: still kept.`,
      canDisplay: true,
    });
    expect(answer.status, answer.body).toBe(201);
    ids.push((JSON.parse(answer.body) as { id: number }).id);
  }
  return ids;
}

function storedIds(dir: string): number[] {
  const sqlite = new Database(path.join(dir, "memorial.db"), { readonly: true, fileMustExist: true });
  try {
    return (sqlite.prepare("SELECT id FROM memories ORDER BY id").all() as { id: number }[]).map((row) => row.id);
  } finally {
    sqlite.close();
  }
}

describe("what the site says about replication (production server)", () => {
  it("without a replica, the log and the Exports tab say the database is not replicated and the media is only on this disk", async () => {
    const site = await startSite(scratchDir(), {
      LITESTREAM_REPLICA_URL: "",
      BUCKET_NAME: "",
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    });
    expect(site.output()).toContain("The database is not replicated");
    expect(childProcesses(site.pid).map((child) => child.command)).not.toContain("litestream");
    const text = await exportsTab(site);
    expect(text).toContain("The database is not replicated.");
    expect(text).toContain("not replicated");
    expect(text).toContain("saved only on this machine's disk");
    expect(text).toContain("Photos and videos exist only on this machine's disk");
    site.child.kill("SIGTERM");
    expect(await site.exited).toEqual({ code: 0, signal: null });
  });

  it("with a replica it cannot write to, writes still succeed, the log and the Exports tab warn, and nothing crashes", async () => {
    const dir = scratchDir();
    const replica = path.join(readOnlyFolder(), "memorial");
    const site = await startSite(
      dir,
      {
        LITESTREAM_REPLICA_URL: `file://${replica}`,
        LITESTREAM_METRICS_PORT: String(await freePort(9400)),
        // A minute in production; long enough here for Litestream to start and fail.
        REPLICATION_WARN_AFTER_MS: "4000",
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      },
      { startScript: true },
    );
    const run = Math.random().toString(36).slice(2, 8);
    const ids = await sign(site, 0, 10, run);
    expect(storedIds(dir)).toEqual(ids);

    await expect
      .poll(() => site.output(), { timeout: 30_000, interval: 200 })
      .toMatch(/"level":"warn","msg":"The database has not been replicated for \d+ s/);
    const warning = site
      .output()
      .split("\n")
      .find((line) => line.includes("has not been replicated"))!;
    expect(JSON.parse(warning)).toMatchObject({ replica: `file://${replica}` });
    // Litestream's own log, beside the site's, says why.
    expect(site.output()).toMatch(new RegExp(`"level":"ERROR".*${replica.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const text = await exportsTab(site);
    expect(text).toContain("Last replicated: not yet");
    expect(text).toMatch(
      /Copying to safe storage has not worked for [^.]+\. New memories are saved on this machine, but are not yet anywhere else\./,
    );
    expect(text).toContain(`Safe storage: file://${replica}`);

    // Nothing crashed: the site answers and takes writes, under the same Litestream.
    expect(await get(site.port, "/healthz")).toBe(200);
    const more = await sign(site, 10, 5, run);
    expect(storedIds(dir)).toEqual([...ids, ...more]);
    expect(site.child.exitCode).toBeNull();
    expect(childProcesses(site.pid).map((child) => child.command)).toContain("node");
    expect(site.output()).not.toContain("Litestream, which replicates the database, has stopped");

    // Stopped, the site finishes cleanly; Litestream's last copy fails too, and it says so with its exit code.
    site.child.kill("SIGTERM");
    expect(await site.exited).toEqual({ code: 1, signal: null });
    expect(site.output()).toContain("SIGTERM received: finishing requests in flight, then stopping");
  }, 90_000);

  it("with a replica that works, the Exports tab says it was replicated seconds ago, and when this machine brought the database back", async () => {
    const dir = scratchDir();
    const env = {
      LITESTREAM_REPLICA_URL: `file://${path.join(scratchDir(), "memorial")}`,
      LITESTREAM_METRICS_PORT: String(await freePort(9400)),
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    };
    const first = await startSite(dir, env, { startScript: true });
    await sign(first, 0, 3, Math.random().toString(36).slice(2, 8));
    await expect.poll(async () => exportsTab(first), { timeout: 15_000, interval: 500 }).toMatch(/Last replicated: \d+ seconds? ago/);
    const text = await exportsTab(first);
    expect(text).toContain("is copied to safe storage within seconds");
    expect(text).not.toContain("brought it back from safe storage");
    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });

    // The volume is lost; the next start brings the database back and says so.
    for (const file of ["memorial.db", "memorial.db-wal", "memorial.db-shm"]) rmSync(path.join(dir, file), { force: true });
    const second = await startSite(dir, env, { startScript: true, fromTemplate: false });
    expect(await exportsTab(second)).toContain("This machine started without the database and brought it back from safe storage on");
    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it("when Litestream's metrics cannot be read, the Exports tab says the state of replication is unknown", async () => {
    const metricsPort = await freePort(9400);
    // Another program holds the port Litestream would serve its metrics on.
    const holder = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => holder.listen(metricsPort, "127.0.0.1", resolve));
    try {
      const site = await startSite(
        scratchDir(),
        {
          LITESTREAM_REPLICA_URL: `file://${path.join(scratchDir(), "memorial")}`,
          LITESTREAM_METRICS_PORT: String(metricsPort),
          ADMIN_USERNAME: ADMIN.username,
          ADMIN_PASSWORD: ADMIN.password,
        },
        { startScript: true },
      );
      const text = await exportsTab(site);
      expect(text).toContain("Last replicated: unknown");
      expect(text).toContain("The state of the copying to safe storage cannot be read right now.");
      site.child.kill("SIGTERM");
      expect(await site.exited).toEqual({ code: 0, signal: null });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 60_000);
});
