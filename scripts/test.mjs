// `npm test`: lint, typecheck, build, unit and integration tests, then the browser
// tests in Debian's Chromium. Chromium, ffmpeg and heif-convert (the media
// processing tools), lynx, and rsvg-convert and zbarimg (which read the
// printed QR codes back) are installed first when missing and we are root.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasCommand = (/** @type {string} */ name) => spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
const missing = [
  !existsSync(chromium) && "chromium",
  !hasCommand("ffprobe") && "ffmpeg",
  !hasCommand("heif-convert") && "libheif-examples",
  !hasCommand("lynx") && "lynx",
  !hasCommand("rsvg-convert") && "librsvg2-bin",
  !hasCommand("zbarimg") && "zbar-tools",
].filter(Boolean);

/**
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @param {import("node:child_process").SpawnSyncOptions} [options]
 */
function run(label, command, args, options = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed`);
    process.exit(result.status ?? 1);
  }
}

if (missing.length > 0) {
  if (process.getuid?.() === 0) {
    run(`install Debian packages: ${missing.join(" ")}`, "sh", [
      "-c",
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")}`,
    ]);
  } else {
    console.error(`Missing: ${missing.join(", ")}. Install with: sudo apt-get install -y ${missing.join(" ")} (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
}

run("lint (ESLint with the import boundaries and no cycles, knip, Prettier)", "npm", ["run", "lint"]);
run("typecheck", "npx", ["tsc"]);
run("build", "npm", ["run", "build"]);
run("unit and integration tests (vitest)", "npx", ["vitest", "run"]);
run("browser tests (playwright, JavaScript on and off)", "npx", ["playwright", "test"]);
console.log("\n✔ all tests passed");
