// Playwright's global setup: the workers' servers run the production build,
// and each would build the site itself when it is missing (server/index.mjs);
// two building at once could overwrite each other, so the runner builds first.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export default function buildFirst() {
  if (existsSync("build/index.js")) return;
  console.log("No build found: building the site first (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm run build failed");
}
