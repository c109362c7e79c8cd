import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { candleSummary } from "~/candles/candles.server";
import { CandleSection } from "~/components/CandleSection";
import { isTextBrowser } from "~/utils/text-browser";

/**
 * The candle section of the home page and the guest book, as HTML for their
 * loaders to send: it has nothing to do in the browser (a plain form), so
 * the pages put it in place without loading its code (docs/decisions/035:
 * the guest book page is at its JavaScript budget). React escapes every name
 * and line, as in the mail and the keepsake page.
 */
export function candleSectionHtml(request: Request, returnTo: string): string {
  return renderToStaticMarkup(
    createElement(CandleSection, {
      summary: candleSummary(),
      returnTo,
      textBrowser: isTextBrowser(request.headers.get("User-Agent")),
    }),
  );
}
