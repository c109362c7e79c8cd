/**
 * Terminal browsers (lynx, w3m, links…) show every field and every fallback
 * text, CSS or not, and lynx will not show the page of a 401 answer without
 * asking (or at all, in `lynx -dump`): a few answers differ for them.
 */
export const isTextBrowser = (userAgent: string | null | undefined) => /\b(lynx|w3m|links|elinks|browsh)\b/i.test(userAgent ?? "");
