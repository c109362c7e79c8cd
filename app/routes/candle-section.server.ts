import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { candleSummary } from "~/candles/candles.server";
import { CandleSection } from "~/components/CandleSection";
import { translate, translateError } from "~/i18n/i18n.server";
import type { Language } from "~/i18n/languages";
import { isTextBrowser } from "~/utils/text-browser";

/**
 * The candle section of the home page and the guest book, as HTML for their
 * loaders to send: it has nothing to do in the browser (a plain form), so
 * the pages put it in place without loading its code (docs/decisions/035:
 * the guest book page is at its JavaScript budget). React escapes every name
 * and line, as in the mail and the keepsake page. Its words are in the
 * visitor's `language`.
 */
export function candleSectionHtml(request: Request, returnTo: string, language: Language = "en"): string {
  return renderToStaticMarkup(
    createElement(CandleSection, {
      summary: candleSummary(),
      returnTo,
      textBrowser: isTextBrowser(request.headers.get("User-Agent")),
      words: { t: translate(language), tError: (english: string) => translateError(language, english) },
    }),
  );
}
