// @ts-check
// Litestream beside the server (docs/decisions/023-litestream-replication.md):
// started once the database is open, started again with backoff when it
// dies, stopped after the last answer so it ships the last writes, and
// watched: its metrics say whether the replica holds everything written, its
// log says what went wrong. What the admin panel shows comes from here.
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { createInterface } from "node:readline";
import { expandFlags, litestreamConfigFile } from "./replication.mjs";
import { warnLine } from "./request-log.mjs";

/** @typedef {import("../app/keepsakes/replication.server").ReplicationReport} ReplicationReport */
/** @typedef {import("./replication.mjs").ReplicaSettings} ReplicaSettings */
/** @typedef {import("./replication.mjs").Restored} Restored */

/** How often the metrics are read: the panel's "N seconds ago" is this fine. */
const POLL_MS = 1000;
/** How long Litestream may take to ship the last writes at shutdown (fly.toml's kill_timeout leaves room for it and the requests). */
const STOP_TIMEOUT_MS = 10_000;
/** How long a stop waits for a Litestream started a moment before to take up the database. */
const SETTLE_TIMEOUT_MS = 5000;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A run this long was healthy: the next restart waits the first backoff again. */
const HEALTHY_RUN_MS = 60_000;
/** While replication keeps failing, the warning is repeated this often. */
const REMINDER_MS = 10 * 60_000;
/**
 * A Litestream that resumed a generation whose WAL it had already shipped
 * publishes no replica position until the next write. Once it has run this
 * long without shipping anything or failing, the replica is taken to hold
 * everything (it checks for new frames every 250 ms and ships them within 1 s).
 */
const RESUMED_QUIET_MS = 5000;

/** Litestream logs these for every segment it ships, twice a second while visitors write: the state keeps them, the log does not. */
const QUIET = new Set(["write wal segment", "wal segment written"]);
/** A copy reached the replica. */
const ARRIVED = new Set(["wal segment written", "snapshot written"]);
/** A copy is on its way. */
const SHIPPING = new Set(["write wal segment", "write snapshot"]);

/**
 * The series read from Litestream's Prometheus metrics (one database, one
 * replica, so labels are ignored): where its shadow WAL ends, how far the
 * replica has received it, and how many times it has read the database.
 * @param {string} text
 * @returns {{ shadowIndex?: number; shadowSize?: number; replicaIndex?: number; replicaOffset?: number; syncs?: number }}
 */
export function parseMetrics(text) {
  /** @type {Record<string, number>} */
  const values = {};
  for (const line of text.split("\n")) {
    const match =
      /^litestream_(shadow_wal_index|shadow_wal_size|replica_wal_index|replica_wal_offset|sync_count)(?:\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match?.[1] && match[2]) values[match[1]] = Number(match[2]);
  }
  return {
    shadowIndex: values.shadow_wal_index,
    shadowSize: values.shadow_wal_size,
    replicaIndex: values.replica_wal_index,
    replicaOffset: values.replica_wal_offset,
    syncs: values.sync_count,
  };
}

/**
 * The replication's state from what Litestream says, without processes or
 * timers (the supervisor below feeds it; the tests feed it directly).
 * Progress is a copy reaching the replica, or the replica found holding
 * everything; replication is failing once there has been no progress for
 * `warnAfterMs`.
 * @param {{ replica: string; warnAfterMs: number; restored: Restored | null; now: number }} options
 */
export function createReplicationWatch({ replica, warnAfterMs, restored, now }) {
  let running = false;
  let runStartedAt = now;
  let shippedThisRun = false;
  let failedThisRun = false;
  let syncedThisRun = false;
  /** @type {string | null} */
  let replicaPosition = null;
  /** @type {number | null} */
  let lastReplicatedAt = null;
  let lastProgressAt = now;
  /** @type {string | null} */
  let problem = null;

  /** @param {number} at */
  const progress = (at) => {
    lastReplicatedAt = at;
    lastProgressAt = at;
    problem = null;
  };

  return {
    /** @param {number} at */
    started(at) {
      running = true;
      runStartedAt = at;
      shippedThisRun = false;
      failedThisRun = false;
      syncedThisRun = false;
      replicaPosition = null;
    },
    /** @param {number} _at @param {string} how */
    stopped(_at, how) {
      running = false;
      problem = `Litestream stopped (${how}); it is being started again`;
    },
    /** One of Litestream's JSON log lines. @param {Record<string, unknown>} entry @param {number} at */
    logged(entry, at) {
      const msg = String(entry.msg ?? "");
      if (SHIPPING.has(msg)) shippedThisRun = true;
      if (ARRIVED.has(msg)) progress(at);
      if (entry.level === "ERROR") {
        failedThisRun = true;
        problem = String(entry.error ?? msg);
      }
    },
    /** Litestream's metrics, read at `at`. @param {ReturnType<typeof parseMetrics>} metrics @param {number} at */
    measured(metrics, at) {
      const { shadowIndex, shadowSize, replicaIndex, replicaOffset, syncs } = metrics;
      if (syncs !== undefined && syncs > 0) syncedThisRun = true;
      if (replicaIndex !== undefined && replicaOffset !== undefined) {
        const position = `${replicaIndex}:${replicaOffset}`;
        const holdsEverything = replicaIndex === shadowIndex && replicaOffset === shadowSize;
        if (position !== replicaPosition || holdsEverything) progress(at);
        replicaPosition = position;
      } else if (running && at - runStartedAt >= RESUMED_QUIET_MS && !shippedThisRun && !failedThisRun) {
        progress(at);
      }
    },
    /**
     * Whether this run of Litestream has taken up the database (read it once)
     * or failed. It reads the database only from its first check on, 250 ms
     * after it starts; stopped before that, it would exit without shipping
     * anything.
     */
    settled() {
      return syncedThisRun || failedThisRun;
    },
    /** @param {number} at */
    failing(at) {
      return at - lastProgressAt > warnAfterMs;
    },
    /** @param {number} at @returns {ReplicationReport} */
    report(at) {
      return {
        replica,
        lastReplicatedAt,
        failingSince: at - lastProgressAt > warnAfterMs ? lastProgressAt : null,
        problem,
        restored: restored ? { generation: restored.generation, lastTransactionAt: restored.lastTransactionAt, at: restored.at } : null,
      };
    },
  };
}

/** A loopback port nothing listens on right now, for Litestream's metrics. */
function freePort() {
  return /** @type {Promise<number>} */ (
    new Promise((resolve, reject) => {
      const probe = net.createServer();
      probe.once("error", reject);
      probe.listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))));
      });
    })
  );
}

/** @param {number} port @returns {Promise<string>} */
function readMetrics(port) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/metrics", timeout: 2000, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`metrics answered ${res.statusCode}`))));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("metrics timed out")));
    req.on("error", reject);
  });
}

/**
 * Runs `litestream replicate` for the database until `stop`, and reports how
 * it goes. On Linux, Litestream's `-exec` runs a `tail --pid` that ends when
 * this server does, so a Litestream whose server was killed outright ships
 * what it has and exits instead of staying behind (a second one on the same
 * database would corrupt the replica). Its own process group keeps a
 * terminal's Ctrl-C from stopping it before the server has answered its last
 * requests.
 * @param {{ settings: ReplicaSettings; binary: string; restored: Restored | null; warnAfterMs: number }} options
 */
export function superviseLitestream({ settings, binary, restored, warnAfterMs }) {
  const config = litestreamConfigFile(settings);
  const watch = createReplicationWatch({ replica: settings.description, warnAfterMs, restored, now: Date.now() });
  /** @type {import("node:child_process").ChildProcess | null} */
  let child = null;
  /** @type {Promise<void>} */
  let exited = Promise.resolve();
  let metricsPort = 0;
  let stopping = false;
  let backoffMs = FIRST_BACKOFF_MS;
  /** @type {NodeJS.Timeout | undefined} */
  let restartTimer;
  /** @type {number | null} */
  let warnedAt = null;
  let polling = false;

  /** @param {string} line */
  const onLine = (line) => {
    if (!line.trim()) return;
    /** @type {Record<string, unknown> | null} */
    let entry = null;
    try {
      entry = line.startsWith("{") ? JSON.parse(line) : null;
    } catch {
      entry = null;
    }
    if (!entry) {
      process.stderr.write(`${line}\n`);
      return;
    }
    watch.logged(entry, Date.now());
    if (!QUIET.has(String(entry.msg))) process.stderr.write(`${JSON.stringify({ ...entry, component: "litestream" })}\n`);
    // Its metrics are how the panel knows the replica holds everything: without them, start it again on another port.
    if (entry.msg === "cannot start metrics server") child?.kill("SIGTERM");
  };

  async function start() {
    if (stopping) return;
    metricsPort = await freePort();
    config.write({ metricsPort });
    const args = ["replicate", "-config", config.file, ...expandFlags(config.file)];
    if (process.platform === "linux") args.push("-exec", `tail -f /dev/null --pid=${process.pid} -s 1`);
    const startedAt = Date.now();
    const proc = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
    child = proc;
    watch.started(startedAt);
    createInterface({ input: /** @type {import("node:stream").Readable} */ (proc.stdout) }).on("line", onLine);
    createInterface({ input: /** @type {import("node:stream").Readable} */ (proc.stderr) }).on("line", onLine);
    exited = new Promise((resolve) => {
      let done = false;
      /** @param {string} how */
      const ended = (how) => {
        if (done) return;
        done = true;
        if (child === proc) child = null;
        // What it started (the watcher) goes with it.
        try {
          if (proc.pid) process.kill(-proc.pid, "SIGKILL");
        } catch {
          // nothing left in its group
        }
        resolve();
        if (stopping) return;
        watch.stopped(Date.now(), how);
        warnLine({ msg: "Litestream stopped; starting it again", how, inSeconds: backoffMs / 1000 });
        restartTimer = setTimeout(() => void start().catch(failedToStart), backoffMs);
        restartTimer.unref();
        backoffMs = Date.now() - startedAt > HEALTHY_RUN_MS ? FIRST_BACKOFF_MS : Math.min(backoffMs * 2, MAX_BACKOFF_MS);
      };
      proc.once("exit", (code, signal) => ended(signal ? `killed by ${signal}` : `exit code ${code}`));
      proc.once("error", (error) => ended(error.message));
    });
  }

  /** @param {unknown} error */
  function failedToStart(error) {
    watch.stopped(Date.now(), String(error));
    restartTimer = setTimeout(() => void start().catch(failedToStart), backoffMs);
    restartTimer.unref();
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  }

  async function poll(whileStopping = false) {
    if (polling || (stopping && !whileStopping)) return;
    polling = true;
    try {
      if (child) {
        const text = await readMetrics(metricsPort).catch(() => null);
        if (text !== null) watch.measured(parseMetrics(text), Date.now());
      }
      const now = Date.now();
      const report = watch.report(now);
      if (report.failingSince !== null && (warnedAt === null || now - warnedAt >= REMINDER_MS)) {
        warnedAt = now;
        warnLine({
          msg: `The database has not been replicated for ${Math.round((now - report.failingSince) / 1000)} s: new memories are only on this machine's disk`,
          replica: report.replica,
          problem: report.problem,
        });
      } else if (report.failingSince === null && warnedAt !== null) {
        warnedAt = null;
        console.log(
          JSON.stringify({
            time: new Date(now).toISOString(),
            level: "info",
            msg: "The database is replicated again",
            replica: report.replica,
          }),
        );
      }
    } finally {
      polling = false;
    }
  }

  const poller = setInterval(() => void poll(), POLL_MS);
  poller.unref();
  // A crash of the server itself: Litestream still ships what it has.
  const onExit = () => {
    if (child?.pid && child.exitCode === null) {
      try {
        process.kill(child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  };
  process.on("exit", onExit);

  return {
    /** Starts Litestream; resolves once it is spawned. */
    start: () => start(),
    /** @returns {ReplicationReport} */
    report: () => watch.report(Date.now()),
    /** The running Litestream's process id (tests kill it). */
    pid: () => child?.pid ?? null,
    /** After the last answer: Litestream ships the last writes and exits (killed after 10 s). */
    async stop() {
      stopping = true;
      clearInterval(poller);
      clearTimeout(restartTimer);
      process.off("exit", onExit);
      const proc = child;
      if (proc?.pid && proc.exitCode === null && proc.signalCode === null) {
        // Just started: let it take up the database first, so it ships what the server wrote.
        for (let waited = 0; waited < SETTLE_TIMEOUT_MS && !watch.settled() && proc.exitCode === null; waited += 100) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          await poll(true);
        }
        proc.kill("SIGTERM");
        const timedOut = await Promise.race([
          exited.then(() => false),
          new Promise((resolve) => setTimeout(() => resolve(true), STOP_TIMEOUT_MS).unref()),
        ]);
        if (timedOut) {
          warnLine({
            msg: `Litestream did not stop within ${STOP_TIMEOUT_MS / 1000} s: killed; the last writes reach the replica at the next start`,
          });
          try {
            process.kill(-proc.pid, "SIGKILL");
          } catch {
            // gone meanwhile
          }
          await exited;
        }
      }
      config.remove();
    },
  };
}
