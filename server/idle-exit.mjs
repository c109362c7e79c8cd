// @ts-check
// On Fly the machine is not stopped by the proxy (auto_stop_machines = "off"
// in fly.toml): the proxy stops an idle machine whatever it is doing, and an
// encode cut off that way starts again from zero. The server stops itself
// instead, once it has answered nothing for IDLE_EXIT_MINUTES and its media
// queue is empty; the process exits cleanly, Fly's restart policy (on-failure)
// leaves the machine stopped, and the proxy's auto-start wakes it at the next
// request (docs/decisions/029-fly-box.md).

/**
 * IDLE_EXIT_MINUTES: unset or 0 (the default, and anywhere but Fly) never exits.
 * @param {Record<string, string | undefined>} env
 * @returns {number | null} milliseconds
 */
export function idleExitFromEnv(env) {
  const raw = env.IDLE_EXIT_MINUTES?.trim();
  if (!raw || raw === "0") return null;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes < 1) {
    throw new Error(`IDLE_EXIT_MINUTES must be a whole number of minutes (1 or more), or 0 to never stop; it is "${raw}".`);
  }
  return Math.round(minutes * 60_000);
}

/**
 * Fly's health check (fly.toml) asks for /healthz every 30 s, whether anyone
 * visits or not: counted as a visit it would keep the server up for ever.
 * @param {string | undefined} url a request's target
 */
const isHealthCheck = (url) => (url ?? "").split("?")[0] === "/healthz";

/**
 * Calls `onIdle` once, when no request has started or been in flight for
 * `idleMs` and `busy()` (media work running or waiting) is false. Checked
 * every `everyMs`; `request(url)` is called at each request's start and
 * returns its end. A health check is not activity.
 * @param {{ idleMs: number; busy: () => boolean; onIdle: () => void; everyMs?: number; now?: () => number }} options
 */
export function watchIdle({ idleMs, busy, onIdle, everyMs = 30_000, now = Date.now }) {
  let last = now();
  let inFlight = 0;
  let fired = false;
  const timer = setInterval(() => {
    if (fired || inFlight > 0) return;
    // Media work counts as activity: the idle time starts again when the queue empties.
    if (busy()) {
      last = now();
      return;
    }
    if (now() - last < idleMs) return;
    fired = true;
    clearInterval(timer);
    onIdle();
  }, everyMs);
  timer.unref();
  return {
    /** @param {string | undefined} url */
    request(url) {
      if (isHealthCheck(url)) return () => {};
      inFlight++;
      last = now();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight--;
        last = now();
      };
    },
    stop: () => clearInterval(timer),
  };
}
