// The JavaScript a page of the built site loads before any interaction,
// gzipped, from Remix's client manifest in public/build: the entry and its
// imports, the manifest itself, and every route module of the page's route
// chain (root first) with its imports. It is what the document's
// modulepreloads and its inline `import` name (bench/page-weight.mjs counts
// the same files from the HTML). Used by tests/integration/page-weight.test.ts and
// bench/page-weight.mjs.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import remixConfig from "../remix.config.js";

/** Whether pages carry only their part of the manifest (Remix's `v3_lazyRouteDiscovery`). */
export const LAZY_ROUTE_DISCOVERY = remixConfig.future?.v3_lazyRouteDiscovery === true;

/** The most gzipped JavaScript any public page may load before interaction (bytes; 1 KB = 1,000 bytes). */
export const JS_BUDGET_BYTES = 100_000;

/** The public pages and the route each one is (the 404 page is the splat route). */
export const PUBLIC_PAGES = {
  "/": "routes/_index",
  "/guestbook": "routes/guestbook",
  "/share": "routes/share",
  "/gallery": "routes/gallery",
  "/poems": "routes/poems",
  "/rsvp": "routes/rsvp",
  "/slideshow": "routes/slideshow",
  "/voices": "routes/voices",
  // "/passcode" is sent without scripts (its handle says hydrate: false).
  404: "routes/$",
};

/** Remix's client manifest: `window.__remixManifest = {...}` in public/build/manifest-*.js (all routes). @param {string} buildDir */
export async function readManifest(buildDir) {
  const name = (await readdir(buildDir)).find((file) => /^manifest-.*\.js$/.test(file));
  if (!name) throw new Error(`No manifest-*.js in ${buildDir}: run \`npm run build\` first.`);
  const source = await readFile(path.join(buildDir, name), "utf8");
  /** @type {{ __remixManifest?: any }} */
  const window = {};
  new Function("window", source)(window);
  return { file: `/build/${name}`, manifest: window.__remixManifest };
}

/**
 * The files (as /build/... URLs) and gzipped bytes a route's page loads first
 * (with lazy route discovery, its inline part of the manifest included).
 * @param {string} buildDir public/build
 * @param {string} routeId e.g. "routes/guestbook"
 */
export async function firstLoadJs(buildDir, routeId) {
  const { file, manifest } = await readManifest(buildDir);
  if (!manifest.routes[routeId]) throw new Error(`No route ${routeId} in the manifest`);
  const chain = [];
  for (let route = manifest.routes[routeId]; route; route = manifest.routes[route.parentId]) chain.unshift(route);
  const files = new Set(LAZY_ROUTE_DISCOVERY ? [] : [file]);
  files.add(manifest.entry.module);
  for (const url of manifest.entry.imports) files.add(url);
  for (const route of chain) for (const url of [route.module, ...(route.imports ?? [])]) files.add(url);
  let bytes = 0;
  if (LAZY_ROUTE_DISCOVERY) {
    // As Remix's <Scripts> writes it: the page's matches and those of "/" (the layout and its index route).
    const ids = new Set(chain.map((route) => route.id));
    for (const route of Object.values(manifest.routes)) if (route.index && !route.path && route.parentId === "root") ids.add(route.id);
    const routes = Object.fromEntries([...ids].map((id) => [id, manifest.routes[id]]));
    const inline = `window.__remixManifest = ${JSON.stringify({ ...manifest, routes }, null, 2)};`;
    bytes += gzipSync(inline, { level: 6 }).length;
  }
  for (const url of files) {
    const code = await readFile(path.join(buildDir, url.replace(/^\/build\//, "")));
    bytes += gzipSync(code, { level: 6 }).length;
  }
  return { files: [...files], bytes };
}
