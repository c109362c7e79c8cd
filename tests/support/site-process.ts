// The production server for tests that need the real thing (crashes, full
// disks, slow connections, memory): scripts/site-process.mjs, with vitest's
// hooks and a few ways to talk to it.
import { type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll } from "vitest";
import { getStatus, ROOT, spawnSite, startSite as startSiteProcess, type SiteProcess } from "../../scripts/site-process.mjs";

export { ROOT };
const BUILD = path.join(ROOT, "build/index.js");

export type Site = SiteProcess;

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

/**
 * Starts the production server on the database and storage in `dir`, with
 * `env` on top of the test defaults; with `startScript`, through
 * scripts/litestream-start.sh as the container and npm start run it. A `dir`
 * without a database gets a copy of the migrated template first, unless
 * `fromTemplate` is false: a start on an empty volume is what is under test
 * (a restore from the replica).
 */
export async function startSite(
  dir: string,
  env: Record<string, string> = {},
  { startScript = false, fromTemplate = true } = {},
): Promise<Site> {
  const site = await startSiteProcess({ dir, env: { SESSION_SECRET: "site-process-test-secret", ...env }, startScript, fromTemplate });
  running.add(site.child);
  void site.exited.then(() => running.delete(site.child));
  return site;
}

/** GET on a fresh connection; resolves with the status. */
export const get = getStatus;

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

/**
 * Runs the server with `env` on a scratch folder until it exits by itself (a
 * configuration it must refuse); killed after 30 s. `fromTemplate`: as for startSite.
 */
export function runServer(
  env: Record<string, string>,
  { dir = scratchDir(), startScript = false, fromTemplate = true } = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawnSite({ dir, env: { SESSION_SECRET: "site-process-test-secret", ...env }, startScript, fromTemplate });
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

/** The processes `pid` started, from any of its threads (Litestream, in Go, starts the server from another), with their command names (Linux). */
export function childProcesses(pid: number): { pid: number; command: string }[] {
  let children = "";
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) children += ` ${readFileSync(`/proc/${pid}/task/${task}/children`, "utf8")}`;
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

/** The processes `pid` started, with their whole command lines (Linux's /proc/<pid>/cmdline, arguments joined by spaces). */
export function childCommandLines(pid: number): { pid: number; commandLine: string }[] {
  return childProcesses(pid).flatMap((child) => {
    try {
      return [{ pid: child.pid, commandLine: readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0").join(" ") }];
    } catch {
      return [];
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

/**
 * Logs the configured admin in through POST /api/admin/login and returns the
 * session's Cookie header. The configured admin is made just after the server
 * starts listening, so a refusal is asked again for a moment.
 */
export async function adminCookieFor(site: Site, admin: { username: string; password: string }): Promise<string> {
  for (let i = 0; ; i++) {
    const answer = await postJson(site.port, "/api/admin/login", admin);
    if (answer.status === 200 || i > 40) {
      if (answer.status !== 200) throw new Error(`admin login answered ${answer.status}: ${answer.body}`);
      return (answer.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!).join("; ");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
