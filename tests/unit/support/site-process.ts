// The production server (`node server/index.mjs` on the build) as a child
// process on a scratch database and storage folder, for tests that need the
// real thing: crashes, full disks, slow connections, memory.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
const BUILD = path.join(ROOT, "build/index.js");
const START_TIMEOUT_MS = 30_000;

export interface Site {
  child: ChildProcess;
  port: number;
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last of what the server printed, for failure messages. */
  output: () => string;
}

const running = new Set<ChildProcess>();
const scratchDirs: string[] = [];

/** Registers the hooks: the build must exist; no server outlives its test; scratch folders go at the end. */
export function manageSites() {
  beforeAll(() => {
    // server/index.mjs would build the site itself when the build is missing;
    // here that would be slow and could race other test files, so say so instead.
    if (!existsSync(BUILD)) {
      throw new Error(`${path.relative(ROOT, BUILD)} is missing: run \`npm run build\` first (npm test builds before vitest).`);
    }
  });
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
  afterAll(() => {
    for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
  });
}

export function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "memorial-site-"));
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

/**
 * Starts the production server on the database and storage in `dir` (with
 * `env` on top of the test defaults), retrying on another port if its port
 * was taken meanwhile.
 */
export async function startSite(dir: string, env: Record<string, string> = {}): Promise<Site> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, ["server/index.mjs"], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATABASE_PATH: path.join(dir, "memorial.db"),
        STORAGE_DIR: path.join(dir, "uploads"),
        SESSION_SECRET: "site-process-test-secret",
        SUBMISSIONS_PER_10_MINUTES: "100000",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
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
    const site: Site = { child, port, exited, output: () => output };

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
