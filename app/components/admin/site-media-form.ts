import type { FetcherWithComponents } from "@remix-run/react";
import type { SiteMediaFormResult } from "~/models/site-media.schema";

// What the hero photo and Karen Mode song forms share.

/**
 * The refusal to show: the answer to this page's last submission with
 * JavaScript, or (without JavaScript, when the form is the answer page
 * itself) the page's own; nothing while a submission is on its way.
 */
export function siteMediaAnswer(
  fetcher: FetcherWithComponents<{ result?: SiteMediaFormResult }>,
  answer: SiteMediaFormResult | undefined,
): SiteMediaFormResult | undefined {
  if (fetcher.state !== "idle") return undefined;
  return fetcher.data?.result ?? answer;
}
