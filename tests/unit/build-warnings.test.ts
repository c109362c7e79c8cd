// `npm run build` prints nothing a deployer cannot act on: no React Router v7
// future-flag notices from Remix, and no note about syntax that is known to
// stay as it is in the old-browser bundles.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";
import { EXPECTED_NOTES, lowerBundle } from "../../scripts/lower-client-syntax.mjs";

describe("the build's output", () => {
  it("names every future flag Remix would warn about, so it warns about none", async () => {
    const source = await readFile(createRequire(import.meta.url).resolve("@remix-run/dev/dist/config.js"), "utf8");
    const warned = [...source.matchAll(/future\.(v3_\w+) === undefined/g)].map((match) => match[1]!);
    expect(warned.length).toBeGreaterThan(0);
    const future = (remixConfig as { future: Record<string, boolean | undefined> }).future;
    for (const flag of warned) expect(future[flag], flag).toBeTypeOf("boolean");
  });

  it("keeps quiet about BigInt literals, which cannot be lowered and are known to stay, and nothing else", async () => {
    const { warnings } = await lowerBundle("export const big = 10n;");
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings)
      expect(
        EXPECTED_NOTES.some((expected) => expected.test(warning)),
        warning,
      ).toBe(true);
    expect(EXPECTED_NOTES.some((expected) => expected.test("Top-level await is not available"))).toBe(false);
  });
});
