// @ts-check
// `npm start`'s first step: builds the site when its sources are newer than
// the build (after a `git pull`, say). Up to date, the check is a walk of the
// sources' modification times: a few milliseconds. npm start then becomes
// scripts/litestream-start.sh, which runs the server (under Litestream when
// the database is replicated).
// Usage: node scripts/start.mjs
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/** What the build is made from: the app, the schema it bundles, and the build's own settings. */
const BUILD_SOURCES = ["app", "db", "remix.config.js", "package.json", "package-lock.json", "tsconfig.json"];

/** Written by every build (the server's bundle). */
const BUILD_OUTPUT = "build/index.js";

/** The newest modification time under `entry` (a file or a folder), 0 when it does not exist. @param {string} entry @returns {number} */
function newestUnder(entry) {
  let stats;
  try {
    stats = statSync(entry);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry, { withFileTypes: true })) {
    // Dot files are editors' and tools'.
    if (child.name.startsWith(".")) continue;
    newest = Math.max(newest, newestUnder(path.join(entry, child.name)));
  }
  return newest;
}

/**
 * Why the site needs building before it starts, or null when the build is
 * up to date: there is none, or a source is newer than it.
 * @param {string} [root]
 * @returns {string | null}
 */
export function buildNeeded(root = ROOT) {
  const output = path.join(root, BUILD_OUTPUT);
  if (!existsSync(output)) return "No build found";
  const built = statSync(output).mtimeMs;
  const changed = BUILD_SOURCES.find((source) => newestUnder(path.join(root, source)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const reason = buildNeeded();
  if (reason) {
    if (!existsSync(path.join(ROOT, "node_modules", "@remix-run", "dev"))) {
      // An install without the build tools (npm ci --omit=dev) serves the build it has.
      console.warn(`${reason}, but the build tools are not installed (npm install): serving the build as it is.`);
    } else {
      console.log(`${reason}: building the site first (npm run build)…`);
      const result = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
      if (result.status !== 0) process.exit(result.status ?? 1);
    }
  }
}
