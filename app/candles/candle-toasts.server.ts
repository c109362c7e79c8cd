import { translate } from "~/i18n/i18n.server";
import type { Language } from "~/i18n/languages";
import type { LitCandle } from "./candles.server";

// What a visitor is told once their candle is lit: short and plain, in
// their language (the `candles` catalog's toast).

export function candleLitToast(lit: Pick<LitCandle, "counted" | "status">, personName: string, language: Language = "en") {
  const t = translate(language);
  const wait = t("candles.toast.wordsWait");
  const words = lit.status === "PENDING" ? wait : t("candles.toast.thanks", { name: personName });
  const once = t("candles.toast.countedOnce");
  return { title: t("candles.toast.lit"), description: lit.counted ? words : `${once}${lit.status === "PENDING" ? ` ${wait}` : ""}` };
}
