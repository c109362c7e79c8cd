// Components run in the browser too: a component that names a .server module
// (even for a type) ties the view to the database code and breaks the
// house's direction (route → model → db). What a view needs to know about a
// thing lives in its domain's *.schema.ts (app/guestbook/memory.schema.ts, …).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const COMPONENTS = path.resolve(import.meta.dirname, "../../app/components");

function componentSources(): string[] {
  return readdirSync(COMPONENTS, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Module specifiers of a source's imports and re-exports that name a .server module. */
export function serverImports(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((match) => match[1]!);
  return specifiers.filter((specifier) => /\.server(?:\.[jt]sx?)?$/.test(specifier));
}

describe("components", () => {
  it("the check finds type-only, value and dynamic imports of .server modules", () => {
    expect(serverImports('import type { AdminMemory } from "~/guestbook/memory.server";')).toEqual(["~/guestbook/memory.server"]);
    expect(serverImports("import { db } from '~/platform/db.server';\nexport { x } from \"./a.server.ts\";")).toEqual([
      "~/platform/db.server",
      "./a.server.ts",
    ]);
    expect(serverImports('const m = await import("~/uploads/upload.server");')).toEqual(["~/uploads/upload.server"]);
    expect(serverImports('import type { AdminMemory } from "~/guestbook/memory.schema";')).toEqual([]);
  });

  it("import nothing from a .server module, not even a type", () => {
    const found = componentSources().flatMap((file) =>
      serverImports(readFileSync(file, "utf8")).map((specifier) => `${path.relative(COMPONENTS, file)}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });
});
