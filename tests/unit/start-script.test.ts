// `npm start` builds first when the sources are newer than the build (after a
// `git pull`), and not otherwise: scripts/start.mjs's check on a folder of its own.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildNeeded } from "../../scripts/start.mjs";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A project folder with every file dated `at` (seconds since 1970). */
function project(at: number) {
  const root = mkdtempSync(path.join(tmpdir(), "memorial-start-"));
  roots.push(root);
  for (const file of ["app/routes/gallery.tsx", "app/root.tsx", "db/schema.ts", "remix.config.js", "package.json", "build/index.js"]) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), "");
  }
  for (const entry of [
    "app/routes/gallery.tsx",
    "app/routes",
    "app/root.tsx",
    "app",
    "db/schema.ts",
    "db",
    "remix.config.js",
    "package.json",
  ])
    utimesSync(path.join(root, entry), at, at);
  return root;
}

const touch = (root: string, file: string, at: number) => utimesSync(path.join(root, file), at, at);

describe("npm start's build check", () => {
  it("builds when there is no build yet", () => {
    const root = project(1_000);
    rmSync(path.join(root, "build"), { recursive: true });
    expect(buildNeeded(root)).toBe("No build found");
  });

  it("serves the build as it is when nothing changed since it was made", () => {
    const root = project(1_000);
    touch(root, "build/index.js", 2_000);
    expect(buildNeeded(root)).toBeNull();
  });

  it("builds again when a source, however deep, or the build's settings changed after it (a git pull)", () => {
    for (const changed of ["app/routes/gallery.tsx", "db/schema.ts", "remix.config.js", "package.json"]) {
      const root = project(1_000);
      touch(root, "build/index.js", 2_000);
      touch(root, changed, 3_000);
      expect(buildNeeded(root), changed).toBe(`${changed.split("/")[0]} changed since the last build`);
    }
  });
});
