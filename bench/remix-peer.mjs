// The reference the page figures are measured against: `../shared/bench/remix-peer`
// (a bare Remix v2 app on the same versions, rendering ten guest-book-like
// cards, served by remix-serve; read its README). It is read-only and outside
// the repository, so it is copied to a scratch folder kept between runs, and
// installed (`npm ci`) and built there once.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const SOURCE = process.env.REMIX_PEER_DIR ?? path.resolve("../shared/bench/remix-peer");

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(result.stderr ?? "");
    throw new Error(`remix-peer: \`${command} ${args.join(" ")}\` failed in ${cwd}`);
  }
}

/** The peer's copy, installed and built: `npm ci` only when its lockfile changed. */
export function preparePeer() {
  if (!existsSync(path.join(SOURCE, "package.json"))) {
    throw new Error(`remix-peer not found at ${SOURCE} (set REMIX_PEER_DIR)`);
  }
  const copy = path.join(tmpdir(), "memorial-bench-remix-peer");
  const lock = readFileSync(path.join(SOURCE, "package-lock.json"), "utf8");
  const stamp = path.join(copy, ".installed-lock");
  const installed = existsSync(stamp) && readFileSync(stamp, "utf8") === lock;
  if (!installed) rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  // The app's own files, fresh each run (it may have changed); node_modules stays.
  for (const name of ["app", "package.json", "package-lock.json", "remix.config.js", "tsconfig.json"]) {
    cpSync(path.join(SOURCE, name), path.join(copy, name), { recursive: true, force: true });
  }
  if (!installed) {
    console.log("remix-peer: npm ci (first run only)…");
    run("npm", ["ci", "--no-audit", "--no-fund"], copy);
    writeFileSync(stamp, lock);
  }
  rmSync(path.join(copy, "build"), { recursive: true, force: true });
  run("npm", ["run", "build"], copy);
  return copy;
}

/** Builds and starts the peer on `port`; resolves once it answers. */
export async function startRemixPeer({ port = 3394 } = {}) {
  const dir = preparePeer();
  // remix-serve through its bin link, as `npm start` in the peer would run it.
  const child = spawn(process.execPath, [path.join(dir, "node_modules/.bin/remix-serve"), "./build/index.js"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const origin = `http://localhost:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${origin}/`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    origin,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
