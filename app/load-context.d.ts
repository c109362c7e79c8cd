import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Per-request nonce the server puts in the Content-Security-Policy header. */
    cspNonce?: string;
    /** The visitor's network address, for rate limits only (never stored). */
    clientIp?: string;
  }
}
