// wrk (a C load generator, Debian's `wrk` package) run from the bench: on two
// cores a Node client tops out near bare Node's own rate, so the server's
// figures would be the client's. One wrk thread, on the core the server is not
// pinned to when taskset is there.
import { spawn, spawnSync } from "node:child_process";

/** @param {string} text e.g. "812.00us", "3.21ms", "1.02s" */
function toMs(text) {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
}

export function requireWrk() {
  if (spawnSync("wrk", ["--version"]).error) {
    console.error("wrk is not installed: apt-get install -y wrk");
    process.exit(1);
  }
}

/**
 * @param {string} url
 * @param {{ connections: number; seconds: number; headers?: Record<string, string> }} options
 * @returns {Promise<{ rate: number; p50: number; p99: number; requests: number; failed: number }>}
 */
export async function wrk(url, { connections, seconds, headers = {} }) {
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    url,
  ];
  // Not spawnSync: this process's own connections (kept alive by fetch) must see the server close them meanwhile.
  const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let errors = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stderr.on("data", (chunk) => (errors += chunk));
  const code = await new Promise((resolve) => child.once("close", resolve));
  if (code !== 0) throw new Error(`wrk ${args.join(" ")} failed: ${errors}`);
  const percentile = (p) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m").exec(out)?.[1] ?? "");
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    rate: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)),
    p50: percentile(50),
    p99: percentile(99),
    requests,
    failed: non2xx + socketErrors,
  };
}
