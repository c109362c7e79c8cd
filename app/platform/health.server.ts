import { isDatabaseHealthy } from "~/platform/db.server";

/** Whether the site can serve: the database answers. (/healthz, Fly's health check.) */
export function isSiteHealthy(): boolean {
  return isDatabaseHealthy();
}
