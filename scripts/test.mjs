// `npm test`: typecheck, build, unit and integration tests, then the browser
// tests in Debian's Chromium (installed first when missing and we are root).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(label, command, args, options = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed`);
    process.exit(result.status ?? 1);
  }
}

if (!existsSync(chromium)) {
  if (process.getuid?.() === 0) {
    run("install Debian chromium", "sh", [
      "-c",
      "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium",
    ]);
  } else {
    console.error(
      `Chromium was not found at ${chromium}. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
    process.exit(1);
  }
}

run("typecheck", "npx", ["tsc"]);
run("build", "npx", ["remix", "build"]);
run("unit and integration tests (vitest)", "npx", ["vitest", "run"]);
run("browser tests (playwright, JavaScript on and off)", "npx", ["playwright", "test"]);
console.log("\n✔ all tests passed");
