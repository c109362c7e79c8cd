// @ts-check
// The production server (`node server/index.mjs` on the build) as a child
// process on a database and storage folder of its own: one way to start it
// for the integration tests, the benches and the scripts.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { copyTemplateDatabase } from "./template-database.mjs";

export const ROOT = path.resolve(import.meta.dirname, "..");
const START_TIMEOUT_MS = 30_000;

/**
 * @typedef {object} SiteProcess
 * @property {import("node:child_process").ChildProcess} child
 * @property {number} pid
 * @property {number} port
 * @property {string} origin http://localhost:<port>
 * @property {string} dir the folder holding its database and storage
 * @property {Promise<{ code: number | null; signal: NodeJS.Signals | null }>} exited resolves when the process has ended
 * @property {() => string} output the last of what it printed (when `capture`), for failure messages
 * @property {(signal?: NodeJS.Signals) => Promise<void>} stop sends `signal` (SIGKILL by default) if still running, and waits until it has ended
 */

/**
 * Ports the Fetch standard blocks (a browser's and Node's `fetch` refuse them
 * with "bad port"), among those `freePort` may pick.
 */
const FETCH_BLOCKED_PORTS = new Set([3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

/** A port nothing listens on right now, from `base` up (the server cannot take port 0: it prints and uses the number given). */
export async function freePort(base = 3420) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = base + Math.floor(Math.random() * 500);
    if (FETCH_BLOCKED_PORTS.has(port)) continue;
    const free = await new Promise((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port between ${base} and ${base + 500}`);
}

/** GET on a fresh connection; resolves with the status. @param {number} port @param {string} urlPath @returns {Promise<number>} */
export function getStatus(port, urlPath) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: urlPath, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/**
 * The environment the server runs with in the tests: production mode on
 * `dir`'s database and storage, with `env` on top of the defaults.
 * @param {string} dir
 * @param {Record<string, string>} [env]
 * @returns {NodeJS.ProcessEnv}
 */
export function siteEnv(dir, env = {}) {
  return {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_PATH: path.join(dir, "memorial.db"),
    STORAGE_DIR: path.join(dir, "uploads"),
    SESSION_SECRET: "site-process-secret",
    SUBMISSIONS_PER_10_MINUTES: "100000",
    ...env,
  };
}

/**
 * The server as a child process, not waited for: production mode on `dir`'s
 * database and storage, with `env` on top of the defaults. With
 * `startScript`, through scripts/litestream-start.sh as the container and
 * `npm start` run it: the process is Litestream, the server its child, when
 * `env` names a replica. With `fromTemplate`, a folder without a database yet
 * gets a copy of the migrated template (scripts/template-database.mjs) instead
 * of the server migrating a new one; without it the server starts as on a new
 * machine (a first start's migrations, a restore from the replica).
 * @param {{ dir: string; env?: Record<string, string>; nodeArgs?: string[]; capture?: boolean; startScript?: boolean; fromTemplate?: boolean }} options
 */
export function spawnSite({ dir, env = {}, nodeArgs = [], capture = true, startScript = false, fromTemplate = false }) {
  const server = [process.execPath, ...nodeArgs, "server/index.mjs"];
  const [command = "", ...args] = startScript ? [path.join(ROOT, "scripts/litestream-start.sh"), ...server] : server;
  const environment = siteEnv(dir, env);
  const database = path.resolve(ROOT, environment.DATABASE_PATH ?? "");
  if (fromTemplate && !existsSync(database)) copyTemplateDatabase(database);
  return spawn(command, args, {
    cwd: ROOT,
    env: environment,
    stdio: ["ignore", capture ? "pipe" : "ignore", capture ? "pipe" : "inherit"],
  });
}

/**
 * Starts the server and waits until /healthz answers 200 (for up to
 * `startTimeoutMs`, 30 s unless given). Without a `port`, one is chosen and,
 * if it was taken meanwhile, another. `fromTemplate`: as for spawnSite.
 * @param {{ dir: string; port?: number; env?: Record<string, string>; nodeArgs?: string[]; capture?: boolean; startScript?: boolean; startTimeoutMs?: number; fromTemplate?: boolean }} options
 * @returns {Promise<SiteProcess>}
 */
export async function startSite({
  dir,
  port: fixedPort,
  env = {},
  nodeArgs = [],
  capture = true,
  startScript = false,
  startTimeoutMs = START_TIMEOUT_MS,
  fromTemplate = false,
}) {
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    const child = spawnSite({ dir, env: { PORT: String(port), ...env }, nodeArgs, capture, startScript, fromTemplate });
    let output = "";
    /** @param {Buffer} chunk */
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    /** @type {Promise<{ code: number | null; signal: NodeJS.Signals | null }>} */
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    /** @type {SiteProcess} */
    const site = {
      child,
      pid: /** @type {number} */ (child.pid),
      port,
      origin: `http://localhost:${port}`,
      dir,
      exited,
      output: () => output,
      async stop(signal = "SIGKILL") {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        await exited;
      },
    };
    const started = Date.now();
    /** @type {{ code: number | null; signal: NodeJS.Signals | null } | undefined} */
    let ended;
    void exited.then((result) => (ended = result));
    while (!ended && Date.now() - started < startTimeoutMs) {
      const status = await getStatus(port, "/healthz").catch(() => 0);
      // Our own server's answer: on a busy machine another test's server can hold the port we
      // were given and answer /healthz before ours gives up on it (its one-line refusal below).
      if (status === 200 && (!capture || output.includes(`listening on http://localhost:${port}`))) return site;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!ended) child.kill("SIGKILL");
    await exited;
    if (/EADDRINUSE|already in use/.test(output) && fixedPort === undefined && attempt < 5) continue;
    throw new Error(`The server did not start on port ${port} (${ended ? `exited ${JSON.stringify(ended)}` : "timed out"}):\n${output}`);
  }
}
