// @ts-check
// Decision 018's changes to how Remix routes and loads a request
// (docs/decisions/018-remembered-route-matching.md), installed before anything
// imports Remix: an ES module's named imports of a CommonJS package are fixed
// when the package is first imported, so `json` must be replaced first.
// ROUTE_MATCHING=plain leaves Remix's own, should an upgrade break these.
import { createRequire } from "node:module";
import { bodilessDataStrategy, json, keepLoaderJson, loadWithoutCopies } from "./loader-json.mjs";
import { narrowDataHandlers, rememberRouteMatching } from "./route-matching.mjs";

if (process.env.ROUTE_MATCHING !== "plain") {
  const load = createRequire(import.meta.url);
  const router = load("@remix-run/router");
  // The runtime @remix-run/node itself loads (one copy in this app; resolved from it to be sure).
  const runtime = createRequire(load.resolve("@remix-run/node"));
  const responses = runtime("@remix-run/server-runtime/dist/responses.js");
  rememberRouteMatching(router);
  keepLoaderJson([runtime("@remix-run/server-runtime"), responses]);
  loadWithoutCopies(runtime("@remix-run/server-runtime/dist/data.js"), responses);
  narrowDataHandlers(router, { dataStrategy: bodilessDataStrategy(router.data) });
  // Had an ES module imported @remix-run/node already, the app would still hold Remix's own json().
  if ((await import("@remix-run/node")).json !== json) throw new Error("remix-fast-paths: installed after @remix-run/node was imported");
}
