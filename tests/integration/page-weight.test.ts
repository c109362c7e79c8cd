// The JavaScript budget: no public page loads more than 100 KB of gzipped
// JavaScript before interaction, counted from the built client manifest
// (npm test builds before vitest runs). A size, so the same on every run.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstLoadJs, JS_BUDGET_BYTES, LAZY_ROUTE_DISCOVERY, PUBLIC_PAGES } from "../../scripts/first-load-js.mjs";

const BUILD_DIR = path.resolve(import.meta.dirname, "../../public/build");

const pages = Object.entries(PUBLIC_PAGES);

describe("the JavaScript each public page loads first, gzipped", () => {
  it.each(pages)("%s (%s) stays within its budget", async (page, routeId) => {
    if (!existsSync(BUILD_DIR)) throw new Error("public/build is missing: run `npm run build` first (npm test builds before vitest).");
    const { bytes, files } = await firstLoadJs(BUILD_DIR, routeId);
    expect(files.length).toBeGreaterThan(3);
    expect(bytes, `${page} loads ${bytes} bytes of gzipped JavaScript first, over the budget of ${JS_BUDGET_BYTES}`).toBeLessThanOrEqual(
      JS_BUDGET_BYTES,
    );
  });

  it("counts the entry, the layout, the route and all their imports", async () => {
    if (!existsSync(BUILD_DIR)) throw new Error("public/build is missing: run `npm run build` first.");
    const notFound = await firstLoadJs(BUILD_DIR, "routes/$");
    const guestbook = await firstLoadJs(BUILD_DIR, "routes/guestbook");
    // React, React DOM and Remix are one shared chunk of at least 80 KB gzipped: a page that loads it is counted with it.
    expect(notFound.bytes).toBeGreaterThan(80_000);
    expect(notFound.files.some((file) => /^\/build\/entry\.client-/.test(file))).toBe(true);
    expect(notFound.files.some((file) => /^\/build\/root-/.test(file))).toBe(true);
    // With lazy route discovery the page's part of the manifest is inline, and the manifest file is not loaded.
    expect(notFound.files.some((file) => /^\/build\/manifest-/.test(file))).toBe(!LAZY_ROUTE_DISCOVERY);
    expect(guestbook.files.some((file) => /^\/build\/routes\/guestbook-/.test(file))).toBe(true);
    expect(guestbook.bytes).toBeGreaterThan(notFound.bytes);
  });

  it("a page past the budget fails with its name and bytes", async () => {
    const { bytes } = await firstLoadJs(BUILD_DIR, "routes/$");
    const check = () => expect(bytes, `404 loads ${bytes} bytes`).toBeLessThanOrEqual(bytes - 1);
    expect(check).toThrow(`404 loads ${bytes} bytes`);
  });

  it("no public page loads zod or conform", async () => {
    const { readFile } = await import("node:fs/promises");
    for (const [page, routeId] of pages) {
      const { files } = await firstLoadJs(BUILD_DIR, routeId);
      for (const file of files) {
        const code = await readFile(path.join(BUILD_DIR, file.replace(/^\/build\//, "")), "utf8");
        // zod's and conform's own words, which survive minifying.
        expect(code.includes("Invalid input") || code.includes("conform"), `${page}: ${file}`).toBe(false);
      }
    }
  });
});
