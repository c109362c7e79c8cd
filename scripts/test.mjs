// `npm test`: every check, the independent ones side by side.
//   1. lint, typecheck and the unit tests (no build needed);
//   2. the build;
//   3. stylelint on the built CSS, the integration tests and the browser tests
//      (these at a lower priority).
// The first failure stops everything at once and says which step failed.
// Chromium's headless shell, ffmpeg and heif-convert (the media processing tools), lynx, and
// rsvg-convert and zbarimg (which read the printed QR codes back) are
// installed first when missing and we are root.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

// The browser tests run in Debian's Chromium headless shell unless CHROMIUM_PATH names another (playwright.config.ts).
const hasCommand = (/** @type {string} */ name) => spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
const missing = [
  process.env.CHROMIUM_PATH
    ? !existsSync(process.env.CHROMIUM_PATH) && "chromium"
    : !existsSync("/usr/bin/chromium-headless-shell") && "chromium-headless-shell",
  !hasCommand("ffprobe") && "ffmpeg",
  !hasCommand("heif-convert") && "libheif-examples",
  !hasCommand("lynx") && "lynx",
  !hasCommand("rsvg-convert") && "librsvg2-bin",
  !hasCommand("zbarimg") && "zbar-tools",
].filter(Boolean);

if (missing.length > 0) {
  if (process.getuid?.() !== 0) {
    console.error(`Missing: ${missing.join(", ")}. Install with: sudo apt-get install -y ${missing.join(" ")} (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  console.log(`▶ install Debian packages: ${missing.join(" ")}`);
  const installed = spawnSync(
    "sh",
    ["-c", `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")}`],
    { stdio: "inherit" },
  );
  if (installed.status !== 0) process.exit(installed.status ?? 1);
}

/** @typedef {{ name: string; command: string; args: string[] }} Step */

/** @type {Map<import("node:child_process").ChildProcess, string>} */
const running = new Map();
/** @type {{ name: string; seconds: number }[]} */
const times = [];
const started = Date.now();
const seconds = (/** @type {number} */ since) => Math.round((Date.now() - since) / 100) / 10;

/** Stops every step still running (each is the leader of its own process group) and exits. */
function stopAll(/** @type {number} */ code) {
  for (const child of running.keys()) {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  process.exit(code);
}
process.on("SIGINT", () => stopAll(130));
process.on("SIGTERM", () => stopAll(143));

/**
 * Runs one step, its output line by line behind its name (the steps of a
 * phase print side by side); resolves when it passes, and on a failure stops
 * everything.
 * @param {Step} step
 * @returns {Promise<void>}
 */
function run(step) {
  const since = Date.now();
  console.log(`▶ ${step.name}`);
  const child = spawn(step.command, step.args, {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "0" },
  });
  running.set(child, step.name);
  const prefix = `[${step.name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (/** @type {string} */ chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(prefix + line + "\n");
    });
    stream.on("end", () => rest && process.stdout.write(prefix + rest + "\n"));
  }
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      running.delete(child);
      times.push({ name: step.name, seconds: seconds(since) });
      if (code === 0) {
        console.log(`✔ ${step.name} (${seconds(since)} s)`);
        return resolve();
      }
      console.error(`\n✖ ${step.name} failed (${signal ?? `exit ${code}`}) after ${seconds(since)} s, ${seconds(started)} s into npm test`);
      stopAll(code || 1);
    });
  });
}

/** @param {Step[]} steps */
const together = (steps) => Promise.all(steps.map(run));

const npx = (/** @type {string[]} */ ...args) => ({ command: "npx", args });
const npm = (/** @type {string[]} */ ...args) => ({ command: "npm", args });

await together([
  { name: "lint", ...npm("run", "--silent", "lint:code") },
  { name: "typecheck", ...npx("tsc") },
  // Two workers: lint and typecheck are done about half-way, and the unit tests then have both cores.
  { name: "unit", ...npx("vitest", "run", "--project", "unit", "--maxWorkers", "2") },
]);
await run({ name: "build", ...npm("run", "--silent", "build") });
await together([
  { name: "css", ...npm("run", "--silent", "lint:built-css") },
  { name: "integration", ...npx("vitest", "run", "--project", "integration") },
  // The browser tests assert no timing and wait generously; the integration
  // tests hold real processes to real clocks (Litestream's one-second sync
  // before a kill -9, the server's timeouts), so they get the CPU first.
  { name: "browser", command: "nice", args: ["-n", "10", "npx", "playwright", "test"] },
]);

console.log(`\n✔ all tests passed in ${seconds(started)} s`);
for (const { name, seconds: s } of times) console.log(`  ${name.padEnd(12)} ${s} s`);
