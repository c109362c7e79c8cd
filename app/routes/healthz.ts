import { isDatabaseHealthy } from "~/db.server";
import { NO_STORE } from "~/utils/http.server";

export async function loader() {
  const healthy = isDatabaseHealthy();
  return new Response(healthy ? "ok" : "database unavailable", {
    status: healthy ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE },
  });
}
