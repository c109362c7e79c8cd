// The production server (`node server/index.mjs` on the build) on a scratch
// database and storage folder, for tests that need the real HTTP stack.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const BUILD = path.join(ROOT, "build/index.js");

export interface Site {
  port: number;
  pid: number;
  dir: string;
  output: () => string;
  stop: () => Promise<void>;
}

export function requireBuild() {
  if (!existsSync(BUILD)) {
    throw new Error(`${path.relative(ROOT, BUILD)} is missing: run \`npm run build\` first (npm test builds before vitest).`);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

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

/** Starts the site with these extra environment variables; resolves once /healthz answers. */
export async function startSite(env: Record<string, string> = {}): Promise<Site> {
  const dir = mkdtempSync(path.join(tmpdir(), "memorial-site-"));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["server/index.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_PATH: path.join(dir, "memorial.db"),
      STORAGE_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "production-site-test-secret",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) break;
    if ((await get(port, "/healthz").catch(() => 0)) === 200) return { port, pid: child.pid!, dir, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`The server did not start on port ${port}:\n${output}`);
}

/** The resident memory of a process, in bytes (Linux). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}
