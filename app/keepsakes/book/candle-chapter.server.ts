import type { ChapterTools } from "./life-chapter.server";

// The memory book's candles, after the guest book's memories: how many were
// lit, and the names and words the family published.

export interface BookCandles {
  count: number;
  named: { name: string | null; message: string | null }[];
}

/** "37 candles were lit in memory of Ann." and the names with their lines; nothing when none were lit. */
export function layOutCandles(
  { doc, say, keep, t }: Pick<ChapterTools, "doc" | "say" | "keep" | "t">,
  candles: BookCandles,
  personName: string,
) {
  if (candles.count === 0 && candles.named.length === 0) return;
  doc.addPage();
  say(t("book.candles.title"), "bold", 20);
  doc.moveDown(0.6);
  say(t("book.candles.lit", { count: candles.count, name: personName }), "regular", 12);
  doc.moveDown(0.8);
  for (const candle of candles.named) {
    keep(14 * 2 + 12);
    if (candle.name) say(candle.name, "bold", 12);
    if (candle.message) say(candle.message, "regular", 11, { lineGap: 2 });
    doc.moveDown(0.6);
  }
}
