import { sweepExpiredSessions } from "~/auth/session.server";
import { config } from "~/config.server";
import { startMediaMaintenance } from "~/media/maintenance.server";
import { ensureConfiguredAdmin } from "~/models/admin.server";

let started = false;

/**
 * Once per server process, after it starts listening: the configured admin
 * exists, expired sessions are swept (now and hourly), and media
 * maintenance runs.
 */
export async function startBackgroundWork() {
  if (started) return;
  started = true;
  try {
    await ensureConfiguredAdmin(config.ADMIN_USERNAME, config.ADMIN_PASSWORD);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "could not set up the configured admin", error: String(error) }));
  }
  sweepExpiredSessions();
  setInterval(() => sweepExpiredSessions(), 60 * 60 * 1000).unref();
  startMediaMaintenance();
}
