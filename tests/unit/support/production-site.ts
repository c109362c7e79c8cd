// Starts the production server (`node server/index.mjs` on the build) on a
// scratch database and storage folder, as tests/unit/durability.test.ts does,
// with extra environment variables.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
const BUILD = path.join(ROOT, "build/index.js");

export interface Site {
  child: ChildProcess;
  port: number;
  dir: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the server printed so far (stdout and stderr). */
  output: () => string;
  stop: () => Promise<void>;
}

export function requireBuild() {
  if (!existsSync(BUILD)) {
    throw new Error(`${path.relative(ROOT, BUILD)} is missing: run \`npm run build\` first (npm test builds before vitest).`);
  }
}

async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 3920 + Math.floor(Math.random() * 500);
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port between 3920 and 4420");
}

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/healthz", agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200));
    });
    req.on("error", () => resolve(false));
  });
}

/** Runs the server with `env` until it exits; for configurations it must refuse. */
export function runServer(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "memorial-site-"));
  const child = spawn(process.execPath, ["server/index.mjs"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", SESSION_SECRET: "site-test-secret", DATABASE_PATH: path.join(dir, "memorial.db"), STORAGE_DIR: path.join(dir, "uploads"), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(killer);
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, output });
    }),
  );
}

export async function startSite(env: Record<string, string> = {}): Promise<Site> {
  const dir = mkdtempSync(path.join(tmpdir(), "memorial-site-"));
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
        SESSION_SECRET: "site-test-secret",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => (output += chunk.toString());
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    let ended = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => {
        ended = true;
        resolve({ code, signal });
      }),
    );
    const stop = async () => {
      if (!ended) child.kill("SIGKILL");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    };
    const started = Date.now();
    while (!ended && Date.now() - started < 30_000) {
      if (await healthy(port)) return { child, port, dir, exited, output: () => output, stop };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!ended) child.kill("SIGKILL");
    await exited;
    if (output.includes("EADDRINUSE") && attempt < 5) continue;
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`The server did not start on port ${port}:\n${output}`);
  }
}
