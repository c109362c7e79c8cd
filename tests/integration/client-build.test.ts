// Old browsers: the client bundles parse in Safari 12 (iOS 12), and the app
// hydrates only where the runtime features it calls exist.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse, type Node } from "acorn";
import { describe, expect, it } from "vitest";
import { canRunClientApp } from "~/utils/browser-support";
import { bundlesIn, lowerBundle, lowerStylesheet, stylesheetsIn } from "../../scripts/lower-client-syntax.mjs";

const BUILD_DIR = path.resolve(import.meta.dirname, "../../public/build");

/** Syntax that Safari 12 cannot parse, found in a module's source, as "kind" names. */
function newerSyntax(code: string): string[] {
  const found = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const n = node as Node & Record<string, unknown>;
    if (typeof n.type === "string") {
      if (n.type === "ChainExpression") found.add("optional chaining");
      if (n.type === "LogicalExpression" && n.operator === "??") found.add("nullish coalescing");
      if (n.type === "AssignmentExpression" && ["||=", "&&=", "??="].includes(String(n.operator))) found.add("logical assignment");
      if (n.type === "PropertyDefinition") found.add("class fields");
      if (n.type === "PrivateIdentifier") found.add("private names");
      if (n.type === "StaticBlock") found.add("class static blocks");
      if (n.type === "Literal" && "bigint" in n) found.add("BigInt literals");
      if (n.type === "Literal" && typeof n.value === "number" && String(n.raw).includes("_")) found.add("numeric separators");
      if (n.type === "CatchClause" && n.param === null) found.add("optional catch binding");
    }
    for (const [key, value] of Object.entries(n)) if (key !== "type") visit(value);
  };
  visit(parse(code, { ecmaVersion: "latest", sourceType: "module" }));
  return [...found].sort();
}

describe("the client bundles", () => {
  it("lowering rewrites syntax Safari 12 cannot parse into syntax it can", async () => {
    const modern =
      "export class Memory { #id = 1; static count = 0; label = globalThis.x?.name ?? 'Recently'; get id() { return this.#id; } }\nlet a; a ??= 1; try {} catch {}";
    expect(newerSyntax(modern)).toEqual([
      "class fields",
      "logical assignment",
      "nullish coalescing",
      "optional catch binding",
      "optional chaining",
      "private names",
    ]);
    const lowered = await lowerBundle(modern);
    expect(newerSyntax(lowered.code)).toEqual([]);
    expect(lowered.warnings).toEqual([]);
  });

  it("the built bundles hold no syntax newer than Safari 12 parses, but BigInt literals (conform's form pages only)", async () => {
    if (!existsSync(BUILD_DIR)) throw new Error("public/build is missing: run `npm run build` first (npm test builds before vitest).");
    const files = (await bundlesIn(BUILD_DIR)).map((file) => path.relative(BUILD_DIR, file));
    expect(files.length).toBeGreaterThan(10);
    const findings: Record<string, string[]> = {};
    const withBigInt: string[] = [];
    for (const file of files) {
      const syntax = newerSyntax(await readFile(path.join(BUILD_DIR, file), "utf8"));
      if (syntax.includes("BigInt literals")) withBigInt.push(file);
      const rest = syntax.filter((kind) => kind !== "BigInt literals");
      if (rest.length) findings[file] = rest;
    }
    expect(findings).toEqual({});
    // BigInt cannot be lowered. Where it is missing (before Safari 14) the module
    // holding it fails to parse, nothing of that page runs, and the
    // server-rendered page stays: never the entry or the root layout.
    const entryAndRoot = files.filter((file) => /^(entry\.client|root|manifest)-/.test(file));
    expect(entryAndRoot.length).toBe(3);
    expect(withBigInt.filter((file) => entryAndRoot.includes(file))).toEqual([]);
  });
});

describe("canRunClientApp", () => {
  const FEATURES = [
    ["AbortController"],
    ["queueMicrotask"],
    ["BigInt"],
    ["Object", "fromEntries"],
    ["Object", "hasOwn"],
    ["Promise", "allSettled"],
    ["Array", "prototype", "at"],
  ] as const;

  /** This Node, as a browser's global scope, with one feature taken away. */
  function scopeWithout(feature: readonly string[]): Window & typeof globalThis {
    const clone = (value: object, rest: readonly string[]): object => {
      const [name, ...deeper] = rest;
      const copy: Record<string, unknown> = {
        ...Object.fromEntries(Object.getOwnPropertyNames(value).map((key) => [key, (value as Record<string, unknown>)[key]])),
      };
      if (deeper.length === 0) delete copy[name!];
      else copy[name!] = clone(copy[name!] as object, deeper);
      return copy;
    };
    return clone(globalThis, feature) as Window & typeof globalThis;
  }

  it("every built stylesheet is rewritten whole for the old browsers, with no rule the rewrite cannot read", async () => {
    if (!existsSync(BUILD_DIR)) throw new Error("public/build is missing: run `npm run build` first (npm test builds before vitest).");
    const sheets = await stylesheetsIn(BUILD_DIR);
    expect(sheets.length).toBeGreaterThan(0);
    const warnings: Record<string, string[]> = {};
    for (const file of sheets) {
      const lowered = await lowerStylesheet(await readFile(file, "utf8"));
      if (lowered.warnings.length > 0) warnings[path.basename(file)] = lowered.warnings;
    }
    // A rule esbuild cannot read is one every browser drops (an invalid selector, say).
    expect(warnings).toEqual({});
  });

  it("hydrates in a browser with everything the bundles call", () => {
    expect(canRunClientApp(globalThis as Window & typeof globalThis)).toBe(true);
  });

  it.each(FEATURES.map((feature) => [feature.join("."), feature] as const))(
    "keeps the server-rendered page where %s is missing",
    (_name, feature) => {
      const scope = scopeWithout(feature);
      expect(canRunClientApp(scope)).toBe(false);
    },
  );
});
