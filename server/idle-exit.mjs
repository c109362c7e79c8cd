// @ts-check
// On Fly the machine is not stopped by the proxy (auto_stop_machines = "off"
// in fly.toml): the proxy stops an idle machine whatever it is doing, and an
// encode cut off that way starts again from zero. The server stops itself
// instead, once it has answered nothing for IDLE_EXIT_MINUTES and its media
// queue is empty; the process exits cleanly, Fly's restart policy (on-failure)
// leaves the machine stopped, and the proxy's auto-start wakes it at the next
// request (docs/decisions/029-fly-box.md). It stays up while e-mail is due
// within the hour, and an hourly wake-up starts it so that e-mail goes out on
// time with nobody visiting (docs/decisions/034-waking-on-time.md).

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
 * visits or not, and the hourly wake-up asks for it too: counted as a visit
 * it would keep the server up for ever.
 * @param {string | undefined} url a request's target
 */
const isHealthCheck = (url) => (url ?? "").split("?")[0] === "/healthz";

/**
 * How long a start nobody asked for stays up with nothing to do: the hourly
 * wake-up (docs/decisions/034-waking-on-time.md) or a restart, answered only
 * health checks. Long enough for the e-mail sender's first round, which
 * sends what fell due while the machine was stopped.
 */
export const UNASKED_IDLE_MS = 60_000;

/**
 * Calls `onIdle` once, when no request has started or been in flight for
 * `idleMs` (`unaskedIdleMs` while no visitor has asked anything since the
 * start), and neither `busy()` (media work running or waiting) nor
 * `dueSoon()` (e-mail due within the hour) is true. Checked every `everyMs`;
 * `request(url)` is called at each request's start and returns its end. A
 * health check is not activity.
 * @param {{ idleMs: number; busy: () => boolean; onIdle: (why: { idleMs: number; asked: boolean }) => void; dueSoon?: () => boolean; unaskedIdleMs?: number; everyMs?: number; now?: () => number }} options
 */
export function watchIdle({
  idleMs,
  busy,
  onIdle,
  dueSoon = () => false,
  unaskedIdleMs = UNASKED_IDLE_MS,
  everyMs = 30_000,
  now = Date.now,
}) {
  let last = now();
  let inFlight = 0;
  let fired = false;
  let asked = false;
  const timer = setInterval(() => {
    if (fired || inFlight > 0) return;
    // Media work and e-mail due soon count as activity: the idle time starts again once they are done.
    if (busy() || dueSoon()) {
      last = now();
      return;
    }
    const limit = asked ? idleMs : Math.min(idleMs, unaskedIdleMs);
    if (now() - last < limit) return;
    fired = true;
    clearInterval(timer);
    onIdle({ idleMs: limit, asked });
  }, everyMs);
  timer.unref();
  return {
    /** @param {string | undefined} url */
    request(url) {
      if (isHealthCheck(url)) return () => {};
      asked = true;
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
