// Every spec's `test` and `expect`: Playwright's, with the site each worker
// tests against (its own production server on its own database, see
// playwright.config.ts) and a `login` that starts an admin session without
// the login form.
import { test as base, expect, type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { adminUsers } from "../../../db/schema";
import { startSite, type SiteProcess } from "../../../scripts/site-process.mjs";
import { db } from "~/platform/db.server";
import { startAdminSession } from "~/admins/session.server";
import { hydrated } from "./admin";
import { ADMIN, E2E_SERVER_ENV, e2ePort, e2eSiteDir } from "./e2e-site";

/**
 * Starts an admin session for `username` in the page's browser context and
 * opens `path` (the Admin Panel unless given), as a login through the form
 * would. The session is made by the server's own session code on the
 * worker's database, so the server sees a real, ordinary session.
 */
export type LogIn = (page: Page, path?: string, username?: string) => Promise<void>;

/** The configured admin is made just after the server starts listening: waits for its row. */
async function adminNamed(username: string) {
  for (let i = 0; ; i++) {
    const admin = db
      .select({ id: adminUsers.id, username: adminUsers.username })
      .from(adminUsers)
      .where(eq(adminUsers.username, username))
      .get();
    if (admin) return admin;
    if (i > 600) throw new Error(`no admin named ${username} on the test server`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const test = base.extend<{ login: LogIn }, { site: SiteProcess }>({
  site: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads what a fixture needs from this pattern: nothing.
    async ({}, use, workerInfo) => {
      const site = await startSite({
        dir: e2eSiteDir(workerInfo.parallelIndex),
        port: e2ePort(workerInfo.parallelIndex),
        env: E2E_SERVER_ENV,
        startTimeoutMs: 120_000,
      });
      await use(site);
      await site.stop();
    },
    { scope: "worker", auto: true },
  ],
  baseURL: async ({ site }, use) => use(site.origin),
  login: async ({ site }, use) => {
    await use(async (page, path = "/admin", username = ADMIN.username) => {
      const admin = await adminNamed(username);
      const setCookie = await startAdminSession(new Request(site.origin), admin);
      const pair = setCookie.split(";")[0]!;
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      await page.context().addCookies([{ name, value, url: site.origin, httpOnly: true, sameSite: "Lax" }]);
      await page.goto(path);
      await hydrated(page);
      await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
    });
  },
});

export { expect };
