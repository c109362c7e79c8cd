// A memorial that outlives its machine, against the production server started
// as the container and npm start start it (scripts/litestream-start.sh), with
// the real Litestream binary as its parent replicating to a file replica
// (Litestream's own `file://` replica; docs/backups.md):
//  - 16 visitors and the family write 300 guest-book entries, RSVPs and
//    approvals, and one more keeps signing until the end; 2 s later the server
//    and Litestream are killed with SIGKILL and the database, its -wal and its
//    -shm are deleted (the volume is lost);
//  - started again on the empty folder, Litestream restores the database
//    before the site answers, SQLite finds it intact, and every write
//    acknowledged 2 s or more before the kill is in it;
//  - `npm run restore -- --timestamp T` between two writes finds the first and
//    not the second;
//  - on SIGTERM, Litestream ships a write made a moment before;
//  - a Litestream that dies on its own takes the site with it (the platform
//    starts both again), and what was written reaches the replica after the
//    next start;
//  - a replica that cannot be read on an empty volume stops the start: no
//    site, no empty database.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/site-process.mjs";
import {
  childProcesses,
  hasEnded,
  manageSites,
  postJson,
  request,
  ROOT,
  runServer,
  scratchDir,
  startSite as startSiteProcess,
  type Answer,
} from "../support/site-process";

manageSites();

const ADMIN = { username: "keeper", password: "replication-test-password" };
const CLIENTS = 16;
const WRITES = 300;
/** The promise: nothing acknowledged this long before a crash is lost. */
const PROMISED_MS = 2000;

type Write =
  | { kind: "memory"; id: number; message: string; ackedAt: number }
  | { kind: "rsvp"; id: number; name: string; ackedAt: number }
  | { kind: "approval"; id: number; ackedAt: number };

async function loginAdmin(port: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    // The configured admin is made just after the server starts listening.
    const login = await postJson(port, "/api/admin/login", ADMIN);
    if (login.status === 200 || attempt > 40) {
      expect(login.status, login.body).toBe(200);
      return (login.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!).join("; ");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** POST /api/guestbook; the memory, once acknowledged (201 with its id), else null. */
async function signGuestBook(port: number, message: string): Promise<Write | null> {
  const answer = await postJson(port, "/api/guestbook", {
    name: "Replica Tester",
    email: "replica@example.com",
    message,
    canDisplay: true,
  }).catch(() => null);
  const id = answer?.status === 201 ? (JSON.parse(answer.body) as { id?: number }).id : undefined;
  return typeof id === "number" ? { kind: "memory", id, message, ackedAt: Date.now() } : null;
}

/**
 * The site as the container starts it: Litestream as the parent, with metrics
 * on a port of its own, on the volume as it is (no template database: an
 * empty volume is restored from the replica).
 */
async function startSite(dir: string, env: Record<string, string>) {
  return startSiteProcess(
    dir,
    { LITESTREAM_METRICS_PORT: String(await freePort(9400)), ...env },
    { startScript: true, fromTemplate: false },
  );
}

/** The server under Litestream (the process started is Litestream itself). */
function serverUnder(litestreamPid: number) {
  return childProcesses(litestreamPid).find((child) => child.command === "node");
}

const expectStatus = (answer: Answer, status: number, what: string) => expect(answer.status, `${what}: ${answer.body}`).toBe(status);

/** The database file as SQLite sees it, read without writing to it. */
function readDatabase(file: string) {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (sqlite.pragma("integrity_check") as { integrity_check: string }[]).map((row) => row.integrity_check);
    const memories = new Map(
      (sqlite.prepare("SELECT id, message, status FROM memories").all() as { id: number; message: string; status: string }[]).map((row) => [
        row.id,
        row,
      ]),
    );
    const rsvps = new Map(
      (sqlite.prepare("SELECT id, name FROM rsvps").all() as { id: number; name: string }[]).map((row) => [row.id, row]),
    );
    return { integrity, memories, rsvps };
  } finally {
    sqlite.close();
  }
}

/** `npm run restore -- ...args` with the site's replica settings. */
function runRestore(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/restore.mjs", ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

/** Polls the replica (a restore of its latest state into a scratch file) until it holds `message`. */
async function waitUntilReplicated(message: string, env: Record<string, string>, scratch: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const output = path.join(scratch, `probe-${attempt}.db`);
    const run = await runRestore(["--output", output], env);
    if (run.code === 0) {
      const sqlite = new Database(output, { readonly: true });
      const found = sqlite.prepare("SELECT count(*) AS n FROM memories WHERE message = ?").get(message) as { n: number };
      sqlite.close();
      if (found.n > 0) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`"${message}" never reached the replica`);
}

describe("replication with Litestream (production server, file replica)", () => {
  it("after kill -9 of the server and Litestream and a lost volume, a new start restores every write acknowledged 2 s before the kill; a point in time restores exactly the first of two writes", async () => {
    const dir = scratchDir();
    const replica = path.join(scratchDir(), "memorial");
    const env = { LITESTREAM_REPLICA_URL: `file://${replica}`, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };
    const database = path.join(dir, "memorial.db");

    const first = await startSite(dir, env);
    expect(first.output()).toContain(`Replicating the database to file://${replica}`);
    const cookie = await loginAdmin(first.port);
    const run = Math.random().toString(36).slice(2, 8);

    // 300 writes from 16 clients: a guest-book entry, an RSVP, and the
    // family approving an entry acknowledged earlier, in turn.
    const writes: Write[] = [];
    const approvable: number[] = [];
    let next = 0;
    const client = async () => {
      for (let index = next++; index < WRITES; index = next++) {
        const turn = index % 3;
        if (turn === 2 && approvable.length > 0) {
          const id = approvable.shift()!;
          const answer = await request(first.port, "PATCH", `/api/admin/memories/${id}`, {
            body: JSON.stringify({ status: "APPROVED" }),
            headers: { "Content-Type": "application/json", Cookie: cookie },
          });
          expectStatus(answer, 200, `approval of memory ${id}`);
          writes.push({ kind: "approval", id, ackedAt: Date.now() });
        } else if (turn === 1) {
          const name = `Guest ${run}-${index}`;
          const answer = await postJson(first.port, "/api/rsvp", { name, email: `guest-${index}@example.com`, guestCount: 2, notes: "" });
          expectStatus(answer, 201, `RSVP #${index}`);
          writes.push({ kind: "rsvp", id: (JSON.parse(answer.body) as { id: number }).id, name, ackedAt: Date.now() });
        } else {
          const memory = await signGuestBook(first.port, `Replication run ${run}, memory number ${index}: we remember.`);
          expect(memory, `guest-book entry #${index}`).not.toBeNull();
          writes.push(memory!);
          approvable.push(memory!.id);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(writes).toHaveLength(WRITES);

    // One more visitor keeps signing until the end, so the last seconds before the kill have writes to measure.
    let killed = false;
    const late: Write[] = [];
    const lateWriter = (async () => {
      for (let index = 0; !killed; index++) {
        const memory = await signGuestBook(first.port, `Replication run ${run}, late memory ${index}.`);
        if (memory && !killed) late.push(memory);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, PROMISED_MS));

    // The machine is lost: the server and Litestream die at once, then the volume's database files go.
    const server = serverUnder(first.pid);
    expect(server, `no server under Litestream:\n${first.output()}`).toBeDefined();
    const killAt = Date.now();
    killed = true;
    process.kill(first.pid, "SIGKILL");
    process.kill(server!.pid, "SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    await lateWriter;
    await expect.poll(() => hasEnded(server!.pid), { timeout: 10_000 }).toBe(true);
    for (const file of [database, `${database}-wal`, `${database}-shm`]) rmSync(file, { force: true });
    expect(readdirSync(dir).filter((name) => name.startsWith("memorial.db"))).toEqual([]);

    // A new start on the empty folder, with the same environment.
    const restartedAt = Date.now();
    const second = await startSite(dir, env);
    const restoreSeconds = (Date.now() - restartedAt) / 1000;
    expect(second.output()).toMatch(/Restored the database from file:\/\/\S+ in \d+ s \(PRAGMA integrity_check: ok\)/);

    const { integrity, memories, rsvps } = readDatabase(database);
    expect(integrity).toEqual(["ok"]);
    const survived = (write: Write) =>
      write.kind === "memory"
        ? memories.get(write.id)?.message === write.message
        : write.kind === "rsvp"
          ? rsvps.get(write.id)?.name === write.name
          : memories.get(write.id)?.status === "APPROVED";
    const all = [...writes, ...late];
    const promised = all.filter((write) => write.ackedAt <= killAt - PROMISED_MS);
    const lost = promised.filter((write) => !survived(write));
    expect(lost, `acknowledged 2 s or more before the kill and lost:\n${JSON.stringify(lost.slice(0, 10))}`).toEqual([]);
    expect(promised.length).toBeGreaterThanOrEqual(WRITES);

    const recent = all.filter((write) => write.ackedAt > killAt - PROMISED_MS);
    const recentSurvived = recent.filter(survived);
    const newestSurvivor = Math.max(...all.filter(survived).map((write) => write.ackedAt));
    const recentLost = recent.filter((write) => !survived(write));
    console.info(
      `replication: ${all.length} writes acknowledged (${writes.length} from ${CLIENTS} clients, ${late.length} late), all ${promised.length} acknowledged ≥ ${PROMISED_MS} ms before the kill restored; ` +
        `${recentSurvived.length} of ${recent.length} acknowledged in the last ${PROMISED_MS} ms restored too; ` +
        `newest restored write acknowledged ${killAt - newestSurvivor} ms before the kill` +
        (recentLost.length > 0
          ? `, oldest lost ${killAt - Math.min(...recentLost.map((write) => write.ackedAt))} ms before it`
          : ", none lost") +
        `; restart with restore answered in ${restoreSeconds.toFixed(1)} s`,
    );

    // The restored site takes writes and replicates them; a point in time between two of them restores the first only.
    const scratch = scratchDir();
    const firstMessage = `Replication run ${run}: before the point in time.`;
    const secondMessage = `Replication run ${run}: after the point in time.`;
    expect(await signGuestBook(second.port, firstMessage)).not.toBeNull();
    await waitUntilReplicated(firstMessage, env, scratch);
    const pointInTime = new Date().toISOString();
    // Litestream dates each WAL segment when it reaches the replica: the second write's is strictly later.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await signGuestBook(second.port, secondMessage)).not.toBeNull();
    await waitUntilReplicated(secondMessage, env, scratch);

    const pointInTimeCopy = path.join(scratch, "point-in-time.db");
    const restored = await runRestore(["--timestamp", pointInTime, "--output", pointInTimeCopy], env);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain(`as of ${pointInTime}`);
    expect(restored.output).toContain("integrity ok");
    const copy = readDatabase(pointInTimeCopy);
    expect(copy.integrity).toEqual(["ok"]);
    const messages = [...copy.memories.values()].map((memory) => memory.message);
    expect(messages).toContain(firstMessage);
    expect(messages).not.toContain(secondMessage);
    // And the copy has everything the lost machine had given up to the first write.
    for (const write of promised.filter((entry) => entry.kind === "memory")) expect(copy.memories.has(write.id)).toBe(true);
    expect(existsSync(`${pointInTimeCopy}.tmp-wal`)).toBe(false);

    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 240_000);

  it("on SIGTERM, a write acknowledged a moment before reaches the replica before the server exits", async () => {
    const dir = scratchDir();
    const replica = path.join(scratchDir(), "memorial");
    const env = { LITESTREAM_REPLICA_URL: `file://${replica}` };
    const site = await startSite(dir, env);
    // As soon as the site answers (Litestream may not have read the database yet).
    const message = `Signed just before a deploy ${Math.random().toString(36).slice(2, 8)}.`;
    expect(await signGuestBook(site.port, message)).not.toBeNull();
    site.child.kill("SIGTERM");
    expect(await site.exited).toEqual({ code: 0, signal: null });
    expect(site.output()).toContain("litestream shut down");

    const copy = path.join(scratchDir(), "after-deploy.db");
    const restored = await runRestore(["--output", copy], env);
    expect(restored.code, restored.output).toBe(0);
    expect([...readDatabase(copy).memories.values()].map((memory) => memory.message)).toContain(message);
  }, 60_000);

  it("a Litestream that dies on its own takes the site with it, and what was written reaches the replica once both start again", async () => {
    const dir = scratchDir();
    const replica = path.join(scratchDir(), "memorial");
    const env = { LITESTREAM_REPLICA_URL: `file://${replica}` };
    const site = await startSite(dir, env);
    const server = serverUnder(site.pid);
    expect(server).toBeDefined();
    const message = `Signed just before Litestream died ${Math.random().toString(36).slice(2, 8)}.`;
    expect(await signGuestBook(site.port, message)).not.toBeNull();
    process.kill(site.pid, "SIGKILL");
    // The site notices within a second or two and stops with an error, for the platform to start both again.
    await expect.poll(() => hasEnded(server!.pid), { timeout: 15_000 }).toBe(true);
    expect(site.output()).toContain("Litestream, which replicates the database, has stopped: stopping the site so that both start again.");

    const again = await startSite(dir, env);
    await waitUntilReplicated(message, env, scratchDir());
    again.child.kill("SIGTERM");
    expect(await again.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it("on an empty volume, a replica that cannot be read stops the start: no site, no empty database", async () => {
    const dir = scratchDir();
    // An SFTP server that is not there; the password stays in the environment, never in a file.
    const { code, output } = await runServer(
      {
        LITESTREAM_REPLICA_URL: "sftp://family:s3cretPassword@127.0.0.1:1/memorial",
        LITESTREAM_METRICS_PORT: String(await freePort(9400)),
      },
      { dir, startScript: true, fromTemplate: false },
    );
    expect(code).toBe(1);
    expect(output).toContain("Could not restore the database from sftp://127.0.0.1:1/memorial");
    expect(output).toContain("Refusing to start with an empty database");
    expect(output).not.toContain("Memorial site listening");
    expect(output).not.toContain("s3cretPassword");
    expect(readdirSync(dir).filter((name) => name.startsWith("memorial.db"))).toEqual([]);
  }, 60_000);
});
