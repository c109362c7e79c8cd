// What the Fly box needs from the image and fly.toml: node as the server's process, and no stop in the middle of an encode.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const dockerfile = readFileSync("Dockerfile", "utf8");
const flyToml = readFileSync("fly.toml", "utf8");
/** The value of `key = …` in fly.toml (the first one), without quotes. */
const setting = (key: string) => new RegExp(`^\\s*${key}\\s*=\\s*"?([^"\\n]+)"?`, "m").exec(flyToml)?.[1];

describe("the container and fly.toml", () => {
  it("run node itself under tini, not npm", () => {
    expect(dockerfile).toMatch(/^ENTRYPOINT \["tini", "--", /m);
    expect(dockerfile).toMatch(/^CMD \["node", "server\/index\.mjs"\]$/m);
    expect(dockerfile).not.toMatch(/^CMD \["npm"/m);
    expect(dockerfile).toMatch(/MALLOC_ARENA_MAX=2/);
    expect(dockerfile).toMatch(/MALLOC_MMAP_THRESHOLD_=131072/);
    expect(dockerfile).not.toMatch(/LD_PRELOAD=/);
  });

  it("never let the proxy stop the machine during media work: the server stops itself when idle, and a clean exit stays stopped", () => {
    expect(setting("auto_stop_machines")).toBe("off");
    expect(setting("auto_start_machines")).toBe("true");
    expect(Number(setting("IDLE_EXIT_MINUTES"))).toBeGreaterThanOrEqual(5);
    expect(flyToml).toMatch(/\[\[restart\]\]\s*\n\s*policy = "on-failure"/);
  });

  it("wake the site hourly through the proxy with a request that is no visit (docs/decisions/034-waking-on-time.md)", () => {
    const waker = readFileSync("scripts/fly-waker.sh", "utf8");
    expect(waker).toMatch(/fly machine run \S+ \\\n/);
    expect(waker).toMatch(/--schedule hourly/);
    expect(waker).toMatch(/--restart no/);
    // /healthz: the one address the idle watcher never counts as a visit, and open on a private memorial.
    expect(waker).toMatch(/"\$site_address\/healthz"/);
    expect(readFileSync("README.md", "utf8")).toContain("scripts/fly-waker.sh");
  });
});

describe("the restore steps in docs/backups.md", () => {
  const backups = readFileSync("docs/backups.md", "utf8");

  it("start the site again with the container's own command, never npm start on the machine", () => {
    const restarts = [...backups.matchAll(/fly machine update <id> --command "([^"]+)"/g)].map((match) => match[1]);
    expect(restarts.filter((command) => command !== "sleep inf")).toEqual(["node server/index.mjs", "node server/index.mjs"]);
  });

  it("say that up to about a second of writes is at risk, Litestream's sync interval", () => {
    expect(backups).toContain("up to about a second of writes (Litestream's sync interval) is at risk");
    expect(backups).not.toContain("half a second");
  });
});
