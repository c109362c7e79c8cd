// @ts-check
// The server's life once the app is ready: it listens; background work starts
// after the first answer; with IDLE_EXIT_MINUTES it stops itself when idle;
// under Litestream it stops when Litestream does; and it stops in order:
//   1. no new connections; requests in flight are answered (10 s at most);
//   2. background work stops: the e-mail being sent is finished and recorded
//      (no message twice after a restart);
//   3. the database is closed;
//   4. once Litestream has taken up the database, the process exits, and
//      Litestream, its parent, ships the last writes and exits too.
import http from "node:http";
import { watchIdle } from "./idle-exit.mjs";
import { applyTimeouts, serverTimeoutOptions } from "./timeouts.mjs";

/** How long requests in flight (and an e-mail on its way) may take at shutdown before they are cut off. */
const SHUTDOWN_GRACE_MS = 10_000;
/**
 * The server does not stop itself while e-mail is due this soon: the hourly
 * wake-up then finds it up, and it sends at the minute. An hour, and ten
 * minutes for the wake-up's own timing (docs/decisions/034-waking-on-time.md).
 */
const MAIL_DUE_WINDOW_MS = 70 * 60_000;
/** Background work starts at the latest this long after listening, when nobody has asked anything yet. */
const BACKGROUND_AT_THE_LATEST_MS = 10_000;

/**
 * @typedef {object} ListenOptions
 * @property {import("node:http").RequestListener} listener the site's pipeline
 * @property {import("../app/server/site-hooks.server").SiteHooks} hooks
 * @property {number} port
 * @property {import("./timeouts.mjs").Timeouts} timeouts
 * @property {number | null} idleExitMs
 * @property {{ takenUp(): Promise<void> } | null} replicator Litestream's metrics, when the database is replicated
 * @property {() => void} [onListening]
 */

/**
 * Background work (the media queue resumed, sweeps, the e-mail sender) starts
 * once the first answer has gone, or 10 s after listening: on a cold start the
 * visitor who woke the machine is answered first. On one shared CPU,
 * requeueing 200 uploads alone took 130-190 ms of the start.
 * @param {import("../app/server/site-hooks.server").SiteHooks} hooks
 */
function backgroundAfterFirstAnswer(hooks) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    hooks.startBackgroundWork().catch((error) => console.error(error));
  };
  return {
    start,
    /** @param {import("node:http").ServerResponse} res */
    answering(res) {
      if (!started) res.once("finish", () => setImmediate(start));
    },
  };
}

/**
 * Litestream gone, the site would write to a database nobody copies: it stops
 * too (exit code 1), and the platform starts both again.
 * @param {(signal: NodeJS.Signals, exitCode: number) => void} shutdown
 */
function stopWithLitestream(shutdown) {
  const litestreamPid = process.ppid;
  setInterval(() => {
    if (process.ppid === litestreamPid) return;
    console.error("Litestream, which replicates the database, has stopped: stopping the site so that both start again.");
    shutdown("SIGTERM", 1);
  }, 1000).unref();
}

/**
 * Serves `listener` on `port` until a signal, the idle timer or Litestream's
 * end stops it, in the order above.
 * @param {ListenOptions} options
 */
export function listen({ listener, hooks, port, timeouts, idleExitMs, replicator, onListening }) {
  const background = backgroundAfterFirstAnswer(hooks);
  // With IDLE_EXIT_MINUTES (on Fly), the server stops itself once nothing has
  // been asked of it for that long (a minute after a start no visitor asked
  // for), no media work is running or waiting and no e-mail is due within the hour.
  const idle = idleExitMs
    ? watchIdle({
        idleMs: idleExitMs,
        busy: () => hooks.mediaWorkPending(),
        dueSoon: () => hooks.mailDueWithin(MAIL_DUE_WINDOW_MS),
        onIdle: ({ idleMs, asked }) => {
          console.log(
            `Nothing asked for ${idleMs / 60_000} minutes${asked ? "" : " since a start no visitor asked for"}, no media work waiting and no e-mail due within the hour: stopping until the next visit.`,
          );
          shutdown("SIGTERM");
        },
      })
    : null;

  // No cap on a request's total time, an idle timeout instead (server/timeouts.mjs).
  const server = http.createServer(serverTimeoutOptions(timeouts), (req, res) => {
    background.answering(res);
    if (idle) res.once("close", idle.request(req.url));
    listener(req, res);
  });
  applyTimeouts(server, timeouts);

  // Another server on the port is the usual mistake of someone starting the site: say so in one sentence.
  server.once("error", (/** @type {NodeJS.ErrnoException} */ error) => {
    if (error.code !== "EADDRINUSE") throw error;
    console.error(`Port ${port} is already in use: stop the other server or set PORT.`);
    hooks.closeDatabase();
    process.exit(1);
  });
  server.listen(port, () => {
    console.log(`Memorial site listening on http://localhost:${port}`);
    setTimeout(background.start, BACKGROUND_AT_THE_LATEST_MS);
    onListening?.();
  });

  /** Steps 3 and 4: the database closed, then exit once Litestream has the database. @param {number} exitCode */
  const exit = (exitCode) => {
    hooks.closeDatabase();
    void (replicator?.takenUp() ?? Promise.resolve()).finally(() => process.exit(exitCode));
  };

  let shuttingDown = false;
  /** @param {NodeJS.Signals} signal @param {number} [exitCode] */
  function shutdown(signal, exitCode = 0) {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log(`${signal} received: finishing requests in flight, then stopping`);
    const backgroundStopped = hooks.stopBackgroundWork().catch((error) => console.error(error));
    let stopped = false;
    server.close(() => {
      if (stopped) return;
      stopped = true;
      void backgroundStopped.then(() => exit(exitCode));
    });
    server.closeIdleConnections();
    setTimeout(() => {
      // Whatever is still on its way (a request, an e-mail the SMTP server has not answered) is cut off.
      stopped = true;
      server.closeAllConnections();
      exit(exitCode);
    }, SHUTDOWN_GRACE_MS).unref();
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  if (replicator) stopWithLitestream(shutdown);
  return server;
}
