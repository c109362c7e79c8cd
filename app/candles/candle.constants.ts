// The candles' numbers the public pages need in the browser, free
// of zod (which those pages must not load: docs/decisions/017).

export const CANDLE_NAME_MAX = 100;
export const CANDLE_MESSAGE_MAX = 140;
