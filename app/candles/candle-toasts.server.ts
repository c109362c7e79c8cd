import type { LitCandle } from "./candles.server";

// What a visitor is told once their candle is lit: short and plain.

const LIT = "Your candle is lit.";
const WORDS_WAIT = "Your name and words will be shown once the family has seen them.";
const COUNTED_ONCE = "Candles are counted once a day for each visitor, so this one is not counted again. Thank you for coming back.";

export function candleLitToast(lit: Pick<LitCandle, "counted" | "status">, personName: string) {
  const words = lit.status === "PENDING" ? WORDS_WAIT : `Thank you for remembering ${personName}.`;
  return { title: LIT, description: lit.counted ? words : `${COUNTED_ONCE}${lit.status === "PENDING" ? ` ${WORDS_WAIT}` : ""}` };
}
