import { isSiteHealthy } from "~/platform/health.server";
import { NO_STORE, readOnlyAction } from "~/platform/http.server";

export async function loader() {
  const healthy = isSiteHealthy();
  return new Response(healthy ? "ok" : "database unavailable", {
    status: healthy ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE },
  });
}

export const action = readOnlyAction;
