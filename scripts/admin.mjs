// `npm run admin -- <username>`: creates that administrator, or gives an
// existing one a new password. The password is read from the terminal (never
// from the command line, where it would stay in the shell history), or from
// standard input when it is not a terminal.
import { existsSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const username = process.argv[2]?.trim();
if (!username) {
  console.error("Usage: npm run admin -- <username>");
  process.exit(2);
}

/** @param {string} prompt */
function askHidden(prompt) {
  return new Promise((resolve) => {
    const input = process.stdin;
    if (!input.isTTY) {
      const lines = createInterface({ input });
      lines.once("line", (line) => {
        resolve(line);
        lines.close();
      });
      lines.once("close", () => resolve(""));
      return;
    }
    process.stdout.write(prompt);
    input.setRawMode(true);
    input.resume();
    input.setEncoding("utf8");
    let value = "";
    /** @param {string} chunk */
    const onData = (chunk) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") {
          input.setRawMode(false);
          input.pause();
          input.off("data", onData);
          process.stdout.write("\n");
          resolve(value);
          return;
        }
        if (char === "\u0003") process.exit(130);
        if (char === "\u007f") value = value.slice(0, -1);
        else value += char;
      }
    };
    input.on("data", onData);
  });
}

const password = String(await askHidden(`New password for ${username}: `));
if (process.stdin.isTTY && String(await askHidden("Repeat it: ")) !== password) {
  console.error("The two passwords differ; nothing was changed.");
  process.exit(1);
}

const buildPath = path.resolve("build/index.js");
if (!existsSync(buildPath)) {
  console.error("Build the site first: npm run build");
  process.exit(1);
}
// Tells the configuration that no cookies are signed here (no SESSION_SECRET warning).
process.env.MEMORIAL_SCRIPT = "admin";
const build = await import(pathToFileURL(buildPath).href);
try {
  const { created } = await build.entry.module.siteHooks.upsertAdmin(username, password);
  console.log(created ? `Administrator "${username}" created.` : `Password of "${username}" changed.`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
