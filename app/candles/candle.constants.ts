// The candles' numbers and words the public pages need in the browser, free
// of zod (which those pages must not load: docs/decisions/017).

export const CANDLE_NAME_MAX = 100;
export const CANDLE_MESSAGE_MAX = 140;

/** "37 candles lit", "1 candle lit"; with none, an invitation. */
export function candleCountText(count: number): string {
  if (count === 0) return "Be the first to light a candle.";
  return `${count.toLocaleString("en-US")} ${count === 1 ? "candle" : "candles"} lit`;
}
