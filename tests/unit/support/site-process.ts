// The production server (`node server/index.mjs` on the build) as a child
// process on a scratch database and storage folder, for tests that need the
// real thing: crashes, full disks, slow connections, memory.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll } from "vitest";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
const BUILD = path.join(ROOT, "build/index.js");
const START_TIMEOUT_MS = 30_000;

export interface Site {
  child: ChildProcess;
  port: number;
  pid: number;
  /** The folder holding its database and storage. */
  dir: string;
  /** Kills it (if still running) and waits until it has ended. */
  stop: () => Promise<void>;
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last of what the server printed, for failure messages. */
  output: () => string;
}

const running = new Set<ChildProcess>();
const scratchDirs: string[] = [];

/** server/index.mjs would build the site itself when the build is missing; in a test that would be slow and could race other files, so say so instead. */
export function requireBuild() {
  if (!existsSync(BUILD)) {
    throw new Error(`${path.relative(ROOT, BUILD)} is missing: run \`npm run build\` first (npm test builds before vitest).`);
  }
}

/**
 * Registers the hooks for files whose servers live one test each: the build
 * must exist; no server outlives its test; scratch folders go at the end.
 * (A file that shares one server between tests calls requireBuild and
 * site.stop itself.)
 */
export function manageSites() {
  beforeAll(requireBuild);
  afterEach(async () => {
    await Promise.all(
      [...running].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGKILL");
          }),
      ),
    );
    running.clear();
  });
}

/** A new folder for one server's database and storage, removed when the test file's process ends. */
export function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "memorial-site-"));
  if (scratchDirs.length === 0) {
    process.once("exit", () => {
      for (const made of scratchDirs) rmSync(made, { recursive: true, force: true });
    });
  }
  scratchDirs.push(dir);
  return dir;
}

/** A port nothing listens on right now, near 3420 (the server cannot take port 0: it prints and uses the number given). */
async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 3420 + Math.floor(Math.random() * 500);
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port between 3420 and 3920");
}

/** `node server/index.mjs` in production mode on the database and storage in `dir`, with `env` on top of the test defaults. */
function spawnServer(dir: string, env: Record<string, string>) {
  return spawn(process.execPath, ["server/index.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_PATH: path.join(dir, "memorial.db"),
      STORAGE_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "site-process-test-secret",
      SUBMISSIONS_PER_10_MINUTES: "100000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Starts the production server on the database and storage in `dir` (with
 * `env` on top of the test defaults), retrying on another port if its port
 * was taken meanwhile.
 */
export async function startSite(dir: string, env: Record<string, string> = {}): Promise<Site> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawnServer(dir, { PORT: String(port), ...env });
    running.add(child);
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      running.delete(child);
    };
    const site: Site = { child, port, pid: child.pid!, dir, exited, output: () => output, stop };

    const started = Date.now();
    let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    void exited.then((result) => (ended = result));
    while (!ended && Date.now() - started < START_TIMEOUT_MS) {
      const status = await get(port, "/healthz").catch(() => 0);
      if (status === 200) return site;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!ended) child.kill("SIGKILL");
    await exited;
    running.delete(child);
    if (output.includes("EADDRINUSE") && attempt < 5) continue;
    throw new Error(`The server did not start on port ${port} (${ended ? `exited ${JSON.stringify(ended)}` : "timed out"}):\n${output}`);
  }
}

/** GET on a fresh connection; resolves with the status. */
export function get(port: number, urlPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: urlPath, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on a fresh connection, with a string body; resolves with the whole answer. */
export function request(
  port: number,
  method: string,
  urlPath: string,
  options: { body?: string | Buffer; headers?: Record<string, string | number> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers, ...(options.body !== undefined ? { "Content-Length": Buffer.byteLength(options.body) } : {}) };
    const req = http.request({ host: "127.0.0.1", port, method, path: urlPath, agent: false, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** POST a JSON body. */
export function postJson(port: number, urlPath: string, data: unknown, headers: Record<string, string> = {}) {
  return request(port, "POST", urlPath, { body: JSON.stringify(data), headers: { "Content-Type": "application/json", ...headers } });
}

/** Runs the server with `env` on a scratch folder until it exits by itself (a configuration it must refuse); killed after 30 s. */
export function runServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dir = scratchDir();
  const child = spawnServer(dir, env);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(killer);
      resolve({ code, output });
    }),
  );
}

/** The processes `pid` started, with their command names (Linux). */
export function childProcesses(pid: number): { pid: number; command: string }[] {
  let children: string;
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8");
  } catch {
    return [];
  }
  return children
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .map((child) => {
      try {
        return { pid: child, command: readFileSync(`/proc/${child}/comm`, "utf8").trim() };
      } catch {
        return { pid: child, command: "" };
      }
    });
}

/** Whether a process has ended (gone, or a zombie nobody has reaped yet). */
export function hasEnded(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** The resident memory of a process, in bytes (Linux). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}
