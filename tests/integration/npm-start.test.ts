// `npm start` as a deployer runs it: the site answers, and stopping the npm
// process (SIGTERM, as a terminal's or a service manager's stop sends) stops
// the server too, leaving nothing listening.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, getStatus } from "../../scripts/site-process.mjs";
import { buildNeeded } from "../../scripts/start.mjs";
import { requireBuild, ROOT, scratchDir } from "../support/site-process";

const answers = (port: number) => getStatus(port, "/healthz").catch(() => 0);

describe("npm start", () => {
  it("serves the site, and stopping npm stops the server", async () => {
    requireBuild();
    // A stale build would be rebuilt here, slowly and beside other tests: npm test builds first.
    expect(buildNeeded(), "run npm run build first").toBeNull();
    const dir = scratchDir();
    const port = await freePort();
    const npm = spawn("npm", ["start"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_PATH: path.join(dir, "memorial.db"),
        STORAGE_DIR: path.join(dir, "uploads"),
        SESSION_SECRET: "npm-start-secret",
      },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => npm.once("exit", resolve));
    try {
      await expect.poll(() => answers(port), { timeout: 30_000, interval: 200 }).toBe(200);
      npm.kill("SIGTERM");
      await exited;
      await expect.poll(() => answers(port), { timeout: 10_000, interval: 200 }).toBe(0);
    } finally {
      npm.kill("SIGKILL");
    }
  }, 60_000);
});
