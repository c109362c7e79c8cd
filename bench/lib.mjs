// Shared helpers for the bench scripts: start the production build on a
// scratch database and storage folder, and stop it again.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The production build on a scratch folder, or on `dir` (another server's database, left in place at stop). */
export async function startSite({ port = 3390, env = {}, dir: shared = undefined } = {}) {
  const dir = shared ?? mkdtempSync(path.join(tmpdir(), "memorial-bench-"));
  const child = spawn(process.execPath, ["server/index.mjs"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_PATH: path.join(dir, "memorial.db"),
      STORAGE_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "bench-secret",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const origin = `http://localhost:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    origin,
    dir,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      if (!shared) rmSync(dir, { recursive: true, force: true });
    },
  };
}
