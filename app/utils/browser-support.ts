/**
 * The runtime features the client bundles call that Safari gained after
 * version 12 (the syntax itself is lowered at build time, see
 * scripts/lower-client-syntax.mjs). Where one is missing the page is not
 * hydrated: it stays the server-rendered page rather than breaking halfway.
 * The newest of them, `Array.prototype.at` and `Object.hasOwn` (used by
 * conform and Uppy), put the line at Safari 15.4, Chrome 93 and Firefox 92.
 */
export function canRunClientApp(scope: Window & typeof globalThis): boolean {
  // Typed as always present (lib ES2022); an old browser may lack any of them.
  const has = (value: unknown) => typeof value === "function";
  return (
    has(scope.AbortController) && // Remix's router: Safari 12.1
    has(scope.queueMicrotask) && // React: Safari 12.1
    has(scope.Object.fromEntries) && // Safari 12.1
    has(scope.Promise.allSettled) && // Uppy: Safari 13
    has(scope.BigInt) && // conform's zod coercion: Safari 14
    has(scope.Object.hasOwn) && // conform, Uppy: Safari 15.4
    has(scope.Array.prototype.at) // conform: Safari 15.4
  );
}
