// What the candles route's loader and action use, in one module (the browser
// build replaces a `.server` module with one empty module: docs/decisions/017).
export { json } from "@remix-run/node";
export { candleLitToast } from "~/candles/candle-toasts.server";
export { candleVisitor } from "~/candles/candle-visitor.server";
export { CANDLE_BODY_BYTES, candleForm, candleSummary, lightCandle } from "~/candles/candles.server";
export { noStoreHeaders, readFormData } from "~/platform/http.server";
export { replyIfRefused } from "~/platform/refusal.server";
export { redirectWithToast } from "~/platform/toast.server";
export { getSiteSettings } from "~/site/settings.server";
export { safeRedirect } from "~/utils/safe-redirect";
export { pageWords, translateError } from "~/i18n/i18n.server";
export { visitorLanguage } from "~/site/language.server";
