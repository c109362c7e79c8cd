import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { copyTemplateDatabase } from "./scripts/template-database.mjs";
import { E2E_DIR, E2E_SESSION_SECRET, e2eSiteDir } from "./tests/e2e/support/e2e-site";

// Each worker tests its own production server on its own database (the `site`
// fixture, tests/e2e/support/fixtures.ts); the tests seed data through the
// same model code as the app, on that same file. This file is read by the
// runner first, which starts from nothing, then by each worker, which learns
// its index from TEST_PARALLEL_INDEX.
// (The runner reads the spec files too, to list their tests: it gets a
// database of its own, which no server uses.)
const workerIndex = process.env.TEST_PARALLEL_INDEX;
if (workerIndex === undefined) rmSync(E2E_DIR, { recursive: true, force: true });
const dir = workerIndex === undefined ? path.join(E2E_DIR, "runner") : e2eSiteDir(Number(workerIndex));
process.env.DATABASE_PATH = path.join(dir, "memorial.db");
// From the migrated template, before a spec's imports open it (a worker that
// replaces a failed one carries on with the database as it was).
if (!existsSync(process.env.DATABASE_PATH)) copyTemplateDatabase(process.env.DATABASE_PATH);
process.env.STORAGE_DIR = path.join(dir, "uploads");
// The `login` fixture makes sessions with the server's own session code, signed as the server signs them.
process.env.SESSION_SECRET = E2E_SESSION_SECRET;

/**
 * Debian's Chromium. Its headless shell (package chromium-headless-shell, the
 * same engine without the browser's own windows, what Playwright itself runs
 * headless) where installed: a new browser context cost 0.12 CPU seconds
 * there against 0.44 in the full browser, which preloads its address bar's
 * pages into every context. CHROMIUM_PATH names another.
 */
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

/** Two workers on the 2-core machine; more where CI has the cores (E2E_WORKERS overrides). */
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/support/build-first.ts",
  // Files are shared out between the workers; the tests of one file run one
  // at a time, on that worker's database, so empty states are real.
  workers: WORKERS,
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
    // A trace costs every test its recording (about a tenth of the run here):
    // on CI, the retry of a failed test records one; here, `--trace on`.
    trace: "on-first-retry",
    launchOptions: {
      executablePath: CHROMIUM,
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
    // Every test, with JavaScript.
    { name: "js", use: { javaScriptEnabled: true } },
    // Again without JavaScript, only the tests tagged @no-js: every public
    // form, and every admin form the family uses without JavaScript.
    { name: "no-js", use: { javaScriptEnabled: false }, grep: /@no-js/ },
  ],
});
