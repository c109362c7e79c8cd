// A site of a spec's own that sends e-mail to a real SMTP server (the shared
// e2e server sends none): its own folder, port and family admin, with the
// links in its e-mails leading back to it, as they do in production.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { startSite, type SiteProcess } from "../../../scripts/site-process.mjs";
import { startSmtpServer, type TestSmtpServer } from "../../support/smtp-server";
import { e2ePort } from "./e2e-site";

export interface MailSite {
  site: SiteProcess;
  smtp: TestSmtpServer;
  /** The site's folder (its database is memorial.db in it). */
  dir: string;
  admin: { username: string; password: string };
  /** Logs the family admin in through the API (it is made just after the server starts listening). */
  asFamily(request: APIRequestContext): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the SMTP server and the site. `name` names the folder, secret and
 * password; `portOffset` keeps each spec's port apart from the others'.
 */
export async function startMailSite(
  name: string,
  portOffset: number,
  parallelIndex: number,
  env: Record<string, string> = {},
): Promise<MailSite> {
  const smtp = await startSmtpServer();
  const dir = mkdtempSync(path.join(tmpdir(), `memorial-${name}-`));
  const port = e2ePort(parallelIndex) + portOffset;
  const admin = { username: "keeper", password: `${name}-e2e-password` };
  const site = await startSite({
    dir,
    port,
    env: {
      SESSION_SECRET: `${name}-e2e-secret`,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Memorial <memorial@memorial.test>",
      PUBLIC_URL: `http://localhost:${port}`,
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      ...env,
    },
  });
  return {
    site,
    smtp,
    dir,
    admin,
    async asFamily(request) {
      for (let i = 0; ; i++) {
        const login = await request.post(`${site.origin}/api/admin/login`, { data: admin });
        if (login.ok()) return;
        if (i > 60) throw new Error(`login failed: ${login.status()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      await site.stop();
      await smtp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
