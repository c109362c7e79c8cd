// Crash safety of the guest book, against the real production server
// (`node server/index.mjs` on the build, as bench/lib.mjs starts it) on a
// scratch database:
//  - killed with SIGKILL while guest-book POSTs are in flight, every
//    submission it had acknowledged (201 with an id) is in the database after
//    a restart, with the same id and message, and the file is intact;
//  - stopped with SIGTERM (a deploy), every request it had already received
//    gets its full answer, it exits with code 0 within 10 s, and the data is
//    there after a restart.
// A process kill leaves the operating system's page cache alone, so this
// proves the site commits before it answers, not what survives a power cut
// (that is SQLite's synchronous=FULL, set in db/client.server.ts).
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { manageSites, postJson, scratchDir, startSite } from "../support/site-process";

manageSites();

interface Outcome {
  index: number;
  message: string;
  /** The TCP connection to the server was made. */
  connected: boolean;
  /** The whole request (headers and body) was handed to the connection. */
  sent: boolean;
  status?: number;
  /** The id from a complete 2xx answer: the submission was acknowledged. */
  id?: number;
  error?: string;
}

/**
 * POST /api/guestbook on its own connection (no keep-alive, so one request
 * never waits behind another on the client side). Never rejects: a failure
 * is an outcome.
 */
function signGuestBook(
  port: number,
  index: number,
  message: string,
  options: {
    onAnswer?: (outcome: Outcome) => void;
    /**
     * Send `Expect: 100-continue` and hold the body back: `onReceived` runs
     * when the server answers "100 Continue" (it has read the request and is
     * handling it), and the body goes out once `sendBody` resolves.
     */
    onReceived?: (outcome: Outcome) => void;
    sendBody?: Promise<void>;
  } = {},
): Promise<Outcome> {
  const outcome: Outcome = { index, message, connected: false, sent: false };
  const holdBody = options.onReceived !== undefined || options.sendBody !== undefined;
  const body = JSON.stringify({
    name: `Crash Tester ${index}`,
    email: `crash-tester-${index}@example.com`,
    message,
    canDisplay: true,
  });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      if (error !== undefined) outcome.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      resolve(outcome);
    };
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/guestbook",
        agent: false,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          ...(holdBody ? { Expect: "100-continue" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("error", settle);
        res.on("aborted", () => settle(new Error("answer cut short")));
        res.on("end", () => {
          if (!res.complete) return settle(new Error("answer cut short"));
          outcome.status = res.statusCode;
          try {
            const json = JSON.parse(text) as { id?: unknown };
            if (res.statusCode! >= 200 && res.statusCode! < 300 && typeof json.id === "number") outcome.id = json.id;
          } catch {
            outcome.error = `unreadable answer: ${text.slice(0, 200)}`;
          }
          options.onAnswer?.(outcome);
          settle();
        });
      },
    );
    req.on("socket", (socket) => {
      socket.once("connect", () => (outcome.connected = true));
    });
    req.on("finish", () => (outcome.sent = true));
    req.on("error", settle);
    if (!holdBody) return req.end(body);
    req.flushHeaders();
    req.on("continue", () => {
      options.onReceived?.(outcome);
      void (options.sendBody ?? Promise.resolve()).then(() => req.end(body));
    });
  });
}

function readUploadCount(dir: string): number {
  const sqlite = new Database(path.join(dir, "memorial.db"), { readonly: true, fileMustExist: true });
  try {
    return (sqlite.prepare("SELECT count(*) AS n FROM uploads").get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
}

interface StoredMemory {
  id: number;
  message: string;
  status: string;
}

/** The guest book rows and SQLite's own integrity check, read without writing to the file. */
function readDatabase(dir: string): { integrity: string[]; memories: StoredMemory[] } {
  const sqlite = new Database(path.join(dir, "memorial.db"), { readonly: true, fileMustExist: true });
  try {
    const integrity = sqlite.pragma("integrity_check", { simple: false }) as { integrity_check: string }[];
    const memories = sqlite.prepare("SELECT id, message, status FROM memories ORDER BY id").all() as StoredMemory[];
    return { integrity: integrity.map((row) => row.integrity_check), memories };
  } finally {
    sqlite.close();
  }
}

/** Every acknowledged submission is stored under the id it was given, with its message; nothing else is half-written. */
function expectAcknowledgedStored(dir: string, outcomes: Outcome[]) {
  const { integrity, memories } = readDatabase(dir);
  expect(integrity).toEqual(["ok"]);
  const byId = new Map(memories.map((memory) => [memory.id, memory]));
  const acknowledged = outcomes.filter((outcome) => outcome.id !== undefined);
  for (const outcome of acknowledged) {
    expect(byId.get(outcome.id!), `acknowledged submission #${outcome.index} (id ${outcome.id})`).toEqual({
      id: outcome.id,
      message: outcome.message,
      status: "PENDING",
    });
  }
  // Rows the server committed but had no time to acknowledge may be there too,
  // each one whole and only once.
  const sentMessages = new Set(outcomes.map((outcome) => outcome.message));
  for (const memory of memories) expect(sentMessages.has(memory.message), `unexpected row ${JSON.stringify(memory)}`).toBe(true);
  expect(new Set(memories.map((memory) => memory.message)).size).toBe(memories.length);
  return { stored: memories.length, acknowledged: acknowledged.length };
}

const summary = (outcomes: Outcome[]) =>
  outcomes.map((o) => `#${o.index}: ${o.id !== undefined ? `id ${o.id}` : `status ${o.status ?? "-"} ${o.error ?? ""}`}`).join("\n");

describe("crash safety of the guest book (production server)", () => {
  it("after SIGKILL with submissions in flight, every acknowledged memory is in the database after a restart", async () => {
    const dir = scratchDir();
    const first = await startSite(dir);
    const run = Math.random().toString(36).slice(2, 8);

    // Kill the server the moment it has acknowledged a few submissions (a
    // different few each run, to land at different points of its work),
    // while the rest are still on their way or being handled.
    const KILL_AFTER = 1 + Math.floor(Math.random() * 8);
    const REQUESTS = 50;
    let acknowledgedSoFar = 0;
    let killed = false;
    const outcomes = await Promise.all(
      Array.from({ length: REQUESTS }, (_, index) =>
        signGuestBook(first.port, index, `Durability run ${run}, memory number ${index}: we will remember.`, {
          onAnswer: (outcome) => {
            if (outcome.id === undefined) return;
            acknowledgedSoFar++;
            if (acknowledgedSoFar >= KILL_AFTER && !killed) {
              killed = true;
              process.kill(first.child.pid!, "SIGKILL");
            }
          },
        }),
      ),
    );
    if (!killed) process.kill(first.child.pid!, "SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });

    const acknowledged = outcomes.filter((outcome) => outcome.id !== undefined);
    const failed = outcomes.filter((outcome) => outcome.id === undefined);
    // Only answers that came before the kill count, and every other request failed for lack of an answer.
    expect(killed, `fewer than ${KILL_AFTER} submissions were acknowledged:\n${summary(outcomes)}\n${first.output()}`).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
    for (const outcome of failed) expect(outcome.status, `#${outcome.index} was answered, not cut off`).toBeUndefined();
    // The kill came while requests were being handled, not after they all finished.
    expect(
      failed.filter((outcome) => outcome.connected && outcome.sent).length,
      `no request was in flight at the kill:\n${summary(outcomes)}`,
    ).toBeGreaterThan(0);

    const second = await startSite(dir);
    const counts = expectAcknowledgedStored(dir, outcomes);
    // And the restarted site takes new memories.
    const after = await signGuestBook(second.port, REQUESTS, `Durability run ${run}, signed after the restart.`);
    expect(after.status).toBe(201);
    expect(readDatabase(dir).memories.at(-1)).toMatchObject({ id: after.id, message: after.message });

    console.info(
      `durability: killed after ${KILL_AFTER} answers: ${acknowledged.length} acknowledged, ${failed.length} failed (${failed.filter((o) => o.connected).length} in flight), ${counts.stored} stored after the kill`,
    );
    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it("on SIGTERM, requests already being handled get their full answers, the server exits with 0 within 10 s, and the data stays", async () => {
    const dir = scratchDir();
    const site = await startSite(dir);
    const run = Math.random().toString(36).slice(2, 8);
    const REQUESTS = 20;

    // Every request is sent with `Expect: 100-continue`, so the server's
    // "100 Continue" says it has read that request and is handling it. Once
    // all 20 are, SIGTERM: half of them have sent their body already, the
    // other half (slow uploads) send it only after the signal.
    let received = 0;
    let terminatedAt = 0;
    let terminated!: () => void;
    const afterSigterm = new Promise<void>((resolve) => (terminated = resolve));
    const outcomes = await Promise.all(
      Array.from({ length: REQUESTS }, (_, index) =>
        signGuestBook(site.port, index, `Shutdown run ${run}, memory number ${index}: thank you.`, {
          sendBody: index % 2 === 0 ? Promise.resolve() : afterSigterm,
          onReceived: () => {
            if (++received === REQUESTS) {
              terminatedAt = Date.now();
              site.child.kill("SIGTERM");
              terminated();
            }
          },
        }),
      ),
    );
    expect(terminatedAt, `not every request reached the server:\n${summary(outcomes)}\n${site.output()}`).toBeGreaterThan(0);

    const exit = await Promise.race([
      site.exited,
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 10_000 - (Date.now() - terminatedAt))),
    ]);
    expect(exit, site.output()).toEqual({ code: 0, signal: null });
    const stoppedInMs = Date.now() - terminatedAt;
    expect(stoppedInMs).toBeLessThan(10_000);
    console.info(`graceful shutdown: ${REQUESTS} requests answered, exited with 0 in ${stoppedInMs} ms`);
    // It closed the database: the last connection to close folds the write-ahead log into the file and removes it.
    expect(existsSync(path.join(dir, "memorial.db-wal")), "memorial.db-wal left behind: the database was not closed").toBe(false);

    // No socket hang-ups: each request got its whole 201 answer.
    expect(
      outcomes.map((outcome) => ({ index: outcome.index, status: outcome.status, acknowledged: outcome.id !== undefined })),
      summary(outcomes),
    ).toEqual(outcomes.map((outcome) => ({ index: outcome.index, status: 201, acknowledged: true })));

    const again = await startSite(dir);
    const counts = expectAcknowledgedStored(dir, outcomes);
    expect(counts).toEqual({ stored: REQUESTS, acknowledged: REQUESTS });
    again.child.kill("SIGTERM");
    expect(await again.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it("an upload cut off in the middle of its PUT leaves no upload and no file; temporary files a crash left are swept at the next start", async () => {
    const dir = scratchDir();
    const storage = path.join(dir, "uploads");
    const site = await startSite(dir);
    const signed = await postJson(site.port, "/api/uploads/sign", {});
    expect(signed.status).toBe(200);
    const { uploadURL } = JSON.parse(signed.body) as { uploadURL: string };
    const target = new URL(uploadURL);

    const files = (folder: string) =>
      existsSync(folder)
        ? readdirSync(folder, { recursive: true, withFileTypes: true })
            .filter((e) => e.isFile())
            .map((e) => e.name)
        : [];
    // Half a megabyte of a declared two, then the connection drops (a phone losing signal).
    let inFlight: string[] = [];
    const received = await new Promise<string>((resolve) => {
      const req = http.request({
        host: "127.0.0.1",
        port: site.port,
        method: "PUT",
        path: `${target.pathname}${target.search}`,
        agent: false,
        headers: { "Content-Type": "image/jpeg", "Content-Length": 2 * 1024 * 1024 },
      });
      req.on("response", (res) => resolve(`answered ${res.statusCode}`));
      req.on("error", () => resolve("cut off"));
      // Cut off once the server is writing the bytes to its temporary file (however busy the machine is).
      req.write(Buffer.alloc(512 * 1024, 0xff), async () => {
        for (let waited = 0; waited < 30_000 && inFlight.length === 0; waited += 50) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          inFlight = files(path.join(storage, "tmp"));
        }
        req.destroy();
      });
    });
    expect(received).toBe("cut off");
    expect(inFlight, "the bytes were being written to a temporary file when the connection dropped").toHaveLength(1);

    // Nothing half-written stays: the temporary file goes, no object appears, and the upload cannot be completed.
    await expect.poll(() => files(path.join(storage, "tmp")), { timeout: 5_000 }).toEqual([]);
    expect(files(path.join(storage, "objects"))).toEqual([]);
    const completed = await postJson(site.port, "/api/uploads/complete", {
      uploadURL,
      submittedBy: "Cut Off (cut@example.com)",
      type: "IMAGE",
      originalName: "half.jpg",
    });
    expect(completed.status).toBeGreaterThanOrEqual(400);
    expect(completed.status).toBeLessThan(500);
    site.child.kill("SIGTERM");
    expect(await site.exited).toEqual({ code: 0, signal: null });
    expect(readUploadCount(dir)).toBe(0);

    // A crash mid-write leaves its temporary file; the next start removes it once it is hours old, and leaves one still being written.
    mkdirSync(path.join(storage, "tmp"), { recursive: true });
    const stale = path.join(storage, "tmp", "left-by-a-crash");
    const fresh = path.join(storage, "tmp", "still-arriving");
    writeFileSync(stale, Buffer.alloc(1024));
    writeFileSync(fresh, Buffer.alloc(1024));
    const hoursAgo = new Date(Date.now() - 7 * 60 * 60 * 1000);
    utimesSync(stale, hoursAgo, hoursAgo);
    const again = await startSite(dir);
    await expect.poll(() => existsSync(stale), { timeout: 5_000 }).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    again.child.kill("SIGTERM");
    expect(await again.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
