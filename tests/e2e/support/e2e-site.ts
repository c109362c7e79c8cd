// Where each Playwright worker's site lives: its own production server on
// port E2E_PORT + the worker's index, on its own database and storage under
// tests/.tmp/e2e/. Read by playwright.config.ts (in the runner and in each
// worker) and by the `site` fixture (support/fixtures.ts).
import path from "node:path";

export const E2E_DIR = path.resolve("tests/.tmp/e2e");
const PORT_BASE = Number(process.env.E2E_PORT ?? 3210);

/** The port of worker `index`'s server (`index` is Playwright's parallelIndex: 0 up to workers − 1, kept when a worker is replaced). */
export const e2ePort = (index: number) => PORT_BASE + index;

/** The folder holding worker `index`'s database (memorial.db) and storage (uploads/). */
export const e2eSiteDir = (index: number) => path.join(E2E_DIR, `worker-${index}`);

export const E2E_SESSION_SECRET = "e2e-session-secret-not-for-production";

/** The administrator every e2e server is started with. */
export const ADMIN = { username: "admin", password: "e2e-admin-password" };

/** The environment every e2e server runs with, on top of scripts/site-process.mjs's (production mode, its own folder). */
export const E2E_SERVER_ENV: Record<string, string> = {
  SESSION_SECRET: E2E_SESSION_SECRET,
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  // Every e2e test signs from localhost; the limit itself is covered by vitest.
  SUBMISSIONS_PER_10_MINUTES: "100000",
  // Completing an upload waits for its processing however busy the machine is (1.5 s in production).
  COMPLETION_WAIT_MS: "120000",
  // Trust Fly-Client-IP as on Fly, so a test can stand for a visitor on another
  // network (every loopback connection comes from 127.0.0.1 or ::1).
  FLY_APP_NAME: "memorial-e2e",
};
