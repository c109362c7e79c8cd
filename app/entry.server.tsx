import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceProvider } from "~/utils/nonce";

// Called by server/index.mjs once the site listens, and by `npm run admin`.
export { startBackgroundWork } from "~/background.server";
export { upsertAdmin } from "~/models/admin.server";
export { handleDiskPut } from "~/media/disk-put.server";
export { closeDatabase } from "~/db.server";

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
  const html = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
}
