import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { BodyOnReadResponse, NULL_BODY_STATUSES } from "../server/body-on-read.mjs";
import { narrowEntryContext } from "~/narrow-manifest.server";
import { NonceProvider } from "~/utils/nonce";

// Called by server/index.mjs once the site listens, and by `npm run admin`.
export { prepareAdmins, startBackgroundWork } from "~/background.server";
export { upsertAdmin } from "~/models/admin.server";
export { handleDiskPut } from "~/disk-put.server";
export { visitorGate } from "~/visitor-gate.server";
export { closeDatabase } from "~/db.server";
export { contentVersion, renderCacheVariant, renderCacheVisit } from "~/render-cache.server";

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
  // none of the per-request stream plumbing (bench/pages.mjs).
  const url = new URL(request.url);
  // ROUTE_MATCHING=plain renders with Remix's own whole route tree (decision 018).
  const context = process.env.ROUTE_MATCHING === "plain" ? remixContext : narrowEntryContext(remixContext, url.pathname);
  const html = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={context} url={url} nonce={nonce} />
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const document = `<!DOCTYPE html>${html}`;
  const init = { headers: responseHeaders, status: responseStatusCode };
  // The body is written only if something reads it: the server sends `document` itself.
  const response = NULL_BODY_STATUSES.has(responseStatusCode) ? new Response(document, init) : new BodyOnReadResponse(() => document, init);
  documents.set(response, document);
  return response;
}

/** Each page's HTML beside its response, while the response lives. */
const documents = new WeakMap<Response, string>();

/**
 * The HTML a page's response carries, for server/index.mjs to send as it is,
 * without reading it back out of the response's stream.
 */
export const documentHtml = (response: Response): string | undefined => documents.get(response);

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
