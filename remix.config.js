/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Beside the routes: their styles, tests and server-side action helpers (*.server.ts), none of them a route.
  ignoredRouteFiles: ["**/.*", "**/*.css.ts", "**/*.test.{ts,tsx}", "**/*.server.ts"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [],
  future: {
    v3_fetcherPersist: true,
    // Each page's inline manifest lists only the routes it needs; the others
    // are asked for on the way (GET /__manifest; docs/decisions/017).
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    // Named so the build does not warn about it at every deploy: the routes
    // keep Remix v2's data requests (json() with its headers, one request per
    // route); single fetch is part of a move to React Router v7, not a setting.
    v3_singleFetch: false,
    v3_throwAbortReason: true,
  },
};
