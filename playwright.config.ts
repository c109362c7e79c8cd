import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const E2E_DIR = path.resolve("tests/.tmp/e2e");

// The tests seed data through the same model code as the app, on the same file.
process.env.DATABASE_PATH = path.join(E2E_DIR, "memorial.db");
process.env.STORAGE_DIR = path.join(E2E_DIR, "uploads");

export default defineConfig({
  testDir: "tests/e2e",
  // One server and one database: tests run one at a time so empty states are real.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  // Generous: a busy machine makes pages slower, and a slow page is not a failure (timing is never asserted).
  // A test with an axe scan took 61 s at a load average of 18 on two cores (every step passed, only slowly).
  timeout: 120_000,
  // Waiting for something to appear, never a measure of speed: 5 s (the default) was not always enough beside a CPU-burning process.
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: `rm -rf "${E2E_DIR}" && node server/index.mjs`,
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      NODE_ENV: "production",
      DATABASE_PATH: process.env.DATABASE_PATH,
      STORAGE_DIR: process.env.STORAGE_DIR,
      SESSION_SECRET: "e2e-session-secret-not-for-production",
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "e2e-admin-password",
      // Every e2e test signs from localhost; the limit itself is covered by vitest.
      SUBMISSIONS_PER_10_MINUTES: "100000",
      // Completing an upload waits for its processing however busy the machine is (1.5 s in production).
      COMPLETION_WAIT_MS: "120000",
      // Trust Fly-Client-IP as on Fly, so a test can stand for a visitor on another
      // network (every loopback connection comes from 127.0.0.1 or ::1).
      FLY_APP_NAME: "memorial-e2e",
    },
  },
});
