import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Per-request nonce the server puts in the Content-Security-Policy header. */
    cspNonce?: string;
    /** The visitor's network address, for rate limits only (never stored). */
    clientIp?: string;
    /** Set by the visitor gate (app/server/visitor-gate.server.ts): whether this visitor must give the passcode first. */
    visitorLocked?: boolean;
    /** Set by the visitor gate when it answers a page with the passcode page: the page asked for, to return to. */
    passcodeAskedFor?: string;
    /**
     * Resolves once the response's socket can take more (at once when it can,
     * or when the client has gone): a long download waits for it between
     * chunks, see `streamedBody` in app/platform/http.server.ts.
     */
    responseDrained?: () => Promise<void>;
    /**
     * Aborts when the client goes away before the answer has been sent
     * (server/client-gone.mjs). A long loader listens to this rather than to
     * `request.signal`, which a garbage collection can disconnect.
     */
    clientGone?: AbortSignal;
  }
}
