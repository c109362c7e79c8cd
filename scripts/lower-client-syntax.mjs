// Part of `npm run build`, after `remix build`: rewrites the browser bundles
// in public/build to syntax that Safari 12 (iOS 12) and browsers of its age
// can parse. Remix's classic compiler has no browser target of its own and
// emits whatever syntax its dependencies are written in (class fields,
// private methods, optional chaining…), which an old browser cannot even
// parse. Parsing is only half of it: app/entry.client.tsx hydrates only where
// the runtime features the bundles call exist, and elsewhere leaves the
// server-rendered page, which works on its own (docs/decisions/002).
//
// The stylesheets are rewritten for the same browsers: esbuild's minifier
// would otherwise write `top/right/bottom/left: 0` as `inset: 0`, which
// Safari before 14.1 drops (docs/decisions/031-old-browsers-css.md).
//
// Files keep their names, so the fingerprints in Remix's manifest still
// point at them. Usage: node scripts/lower-client-syntax.mjs [dir]
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { transform } from "esbuild";

/** Browsers whose syntax the client bundles are written down to. */
export const CLIENT_TARGETS = ["safari12", "ios12", "chrome64", "edge79", "firefox67"];

/**
 * Lowers one bundle. Syntax that cannot be lowered (BigInt literals, used by
 * conform's zod coercion) is left as it is and reported: on a browser without
 * it the module fails to parse, and the page stays server-rendered.
 * @param {string} code
 */
export async function lowerBundle(code) {
  const result = await transform(code, {
    loader: "js",
    format: "esm",
    target: CLIENT_TARGETS,
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  return { code: result.code, warnings: result.warnings.map((warning) => warning.text) };
}

/**
 * Rewrites one stylesheet for the same browsers: shorthands they lack are
 * written out in full, and none is made up by the minifier.
 * @param {string} css
 */
export async function lowerStylesheet(css) {
  const result = await transform(css, { loader: "css", target: CLIENT_TARGETS, minify: true, logLevel: "silent" });
  return { code: result.code, warnings: result.warnings.map((warning) => warning.text) };
}

/** Every stylesheet under `dir`, as full paths. @param {string} dir */
export async function stylesheetsIn(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(".css")).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every JavaScript file under `dir`, as full paths. @param {string} dir */
export async function bundlesIn(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(".js")).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * What esbuild reports that is known and accepted, so the build does not ask
 * a deployer to act on it: BigInt literals (in conform's zod coercion) cannot
 * be lowered, and a browser without BigInt keeps the server-rendered page
 * (docs/decisions/002-old-browsers.md). Anything else is printed.
 */
export const EXPECTED_NOTES = [/^Big integer literals are not available in the configured target environment/];

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = path.resolve(process.argv[2] ?? "public/build");
  const files = await bundlesIn(dir);
  let before = 0;
  let after = 0;
  const notes = new Set();
  for (const file of files) {
    const code = await readFile(file, "utf8");
    const lowered = await lowerBundle(code);
    for (const warning of lowered.warnings) notes.add(warning.replace(/ \(.*?\)/, ""));
    before += Buffer.byteLength(code);
    after += Buffer.byteLength(lowered.code);
    await writeFile(file, lowered.code);
  }
  const kb = (/** @type {number} */ bytes) => `${Math.round(bytes / 1024)} KB`;
  console.log(`Client bundles lowered to ${CLIENT_TARGETS.join(", ")}: ${files.length} files, ${kb(before)} → ${kb(after)}`);
  const stylesheets = await stylesheetsIn(dir);
  for (const file of stylesheets) {
    const lowered = await lowerStylesheet(await readFile(file, "utf8"));
    for (const warning of lowered.warnings) notes.add(`${path.basename(file)}: ${warning}`);
    await writeFile(file, lowered.code);
  }
  console.log(`Stylesheets written for the same browsers: ${stylesheets.length} files`);
  for (const note of notes) if (!EXPECTED_NOTES.some((expected) => expected.test(note))) console.log(`  left as is: ${note}`);
}
