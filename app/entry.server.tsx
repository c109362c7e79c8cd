import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceProvider } from "~/components/nonce";

// What the Node server and the admin CLI take from the build besides the routes.
export { siteHooks } from "~/server/site-hooks.server";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  // No route defers data or suspends, so a streamed render would send the
  // same document only once it is whole anyway (to people and crawlers
  // alike); rendering to a string takes about a third less CPU time, with
  // none of the per-request stream plumbing (docs/decisions/005-render-to-string.md).
  const html = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * An unexpected error in a loader, an action or the render: one JSON log line
 * beside the request lines, with its stack, and without the query string
 * (which may carry what a visitor typed). Requests the visitor abandoned are
 * not errors.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const where = { time: new Date().toISOString(), method: request.method, path: new URL(request.url).pathname };
  // A made-up address or method (404, 405) is the client's mistake, not a
  // fault: one warning line, no stack. Faults keep the error level.
  if (isRouteErrorResponse(error) && error.status < 500) {
    console.warn(JSON.stringify({ ...where, level: "warn", status: error.status, msg: error.statusText }));
    return;
  }
  // A route's error response may wrap the thrown error itself.
  const cause = isRouteErrorResponse(error) ? (error as { error?: unknown }).error || error : error;
  console.error(
    JSON.stringify({
      ...where,
      level: "error",
      error: cause instanceof Error ? cause.message : String(cause),
      stack: cause instanceof Error ? cause.stack : undefined,
    }),
  );
};
