// @ts-check
// The memory book made in a process of its own (app/keepsakes/book/memory-book.server.ts
// starts it under `nice -n 19`): the build's writeMemoryBook, with the
// options given as JSON in the first argument, its progress written to
// stdout as lines the server reads. Its memory is given back when it ends.
import path from "node:path";
import { pathToFileURL } from "node:url";

const options = JSON.parse(process.argv[2] ?? "{}");
const build = await import(pathToFileURL(path.resolve("build/index.js")).href);
/** @type {import("../app/server/site-hooks.server").SiteHooks} */
const hooks = build.entry.module.siteHooks;
try {
  await hooks.writeMemoryBook({
    ...options,
    onProgress: (/** @type {unknown} */ progress) => process.stdout.write(`${hooks.bookProgressPrefix}${JSON.stringify(progress)}\n`),
  });
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  hooks.closeDatabase();
}
process.exit();
