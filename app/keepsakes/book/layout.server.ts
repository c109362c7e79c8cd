import type { WriteStream } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type PDFDocumentClass from "pdfkit";
import { listPoems } from "~/poems/poem.server";
import type { getSiteView } from "~/site/settings.server";
import type { PublishedLife } from "~/life/life.server";
import { lifeDates, lifeLine } from "~/site/life-dates";
import { type BookPhoto, type BookVoice, heroCopy, printCopy, publishedMemories } from "./content.server";
import { type ChapterTools, layOutLifeChapter } from "./life-chapter.server";
import { type BookCandles, layOutCandles } from "./candle-chapter.server";
import { layOutVoices } from "./voice-chapter.server";

// The memory book's pages: the cover, the welcome and the service, the
// memories, the voices, the poems, the photos and the last page, laid out by pdfkit.

export type PDFDoc = InstanceType<typeof PDFDocumentClass>;

export const BOOK_SIZES = ["a4", "letter", "trim"] as const;
export type BookSize = (typeof BOOK_SIZES)[number];

const MM = 72 / 25.4;
const BLEED = 3 * MM;

interface Geometry {
  /** The page as printed, with the bleed. */
  width: number;
  height: number;
  /** Where the text may go. */
  margins: { top: number; bottom: number; left: number; right: number };
  bleed: number;
}

export function geometry(size: BookSize): Geometry {
  if (size === "trim") {
    const inner = 0.6 * 72 + BLEED;
    return {
      width: 6 * 72 + 2 * BLEED,
      height: 9 * 72 + 2 * BLEED,
      bleed: BLEED,
      margins: { top: inner, bottom: inner + 10, left: inner, right: inner },
    };
  }
  const [width, height] = size === "a4" ? [595.28, 841.89] : [612, 792];
  return { width, height, bleed: 0, margins: { top: 64, bottom: 72, left: 64, right: 64 } };
}

const require = createRequire(import.meta.url);
const FONTS = {
  regular: require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
  bold: require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
  italic: require.resolve("@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf"),
  // The package exports only its index (in dist/); the fonts sit beside it.
  cjk: path.resolve(path.dirname(require.resolve("@embedpdf/fonts-sc")), "../fonts/NotoSansHans-Regular.otf"),
};

/** Waits while the file is behind, so the PDF never piles up in memory. */
async function caughtUp(doc: PDFDoc, file: WriteStream) {
  if (doc.readableLength > 1024 * 1024 || file.writableNeedDrain) await new Promise<void>((resolve) => file.once("drain", () => resolve()));
  await new Promise((resolve) => setImmediate(resolve));
}

export interface Layout {
  size: BookSize;
  origin: string;
  now: number;
  signal: AbortSignal | undefined;
  step: () => void;
  site: ReturnType<typeof getSiteView>;
  drawQr: (text: string, x: number, y: number, size: number) => void;
  poems: ReturnType<typeof listPoems>;
  media: BookPhoto[];
  /** The voices shared with permission, read as they are laid out. */
  voices: Iterable<BookVoice>;
  /** The published life story, or null. */
  life: PublishedLife | null;
  candles: BookCandles;
  /** The book's words and days, in its language (bookLanguage in pdf.server.ts). */
  t: ChapterTools["t"];
  longDate: (date: Date | number) => string;
}

/** Lays the book out page by page into `doc`, waiting for `out` to keep up. */
export async function layOut(
  doc: PDFDoc,
  out: WriteStream,
  { size, origin, now, signal, step, site, drawQr, poems, media, voices, life, candles, t, longDate }: Layout,
) {
  const page = geometry(size);
  doc.registerFont("regular", FONTS.regular);
  doc.registerFont("bold", FONTS.bold);
  doc.registerFont("italic", FONTS.italic);
  doc.font("regular");
  // pdfkit's embedded font keeps fontkit's, which says which letters it has.
  const latin = (doc as unknown as { _font: { font: { hasGlyphForCodePoint(cp: number): boolean } } })._font.font;
  let cjkRegistered = false;

  let pageNumber = 0;
  let numbered = false;
  doc.on("pageAdded", () => {
    pageNumber += 1;
    const box = doc.page.dictionary.data as Record<string, unknown>;
    if (page.bleed) {
      box.BleedBox = [0, 0, page.width, page.height];
      box.TrimBox = [page.bleed, page.bleed, page.width - page.bleed, page.height - page.bleed];
    }
    if (!numbered) return;
    const { x, y } = doc;
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("regular").fontSize(9).fillColor("#555555");
    doc.text(String(pageNumber), page.margins.left, page.height - page.margins.bottom + 20, {
      width: page.width - page.margins.left - page.margins.right,
      align: "center",
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
    doc.fillColor("#1a1a1a");
    doc.x = x;
    doc.y = y;
  });

  const contentWidth = page.width - page.margins.left - page.margins.right;
  const bottomY = () => page.height - page.margins.bottom;

  /** Text in runs of the font that has its letters: Noto Sans, or the CJK font for what it lacks. */
  function say(text: string, font: "regular" | "bold" | "italic", fontSize: number, options: PDFKit.Mixins.TextOptions = {}) {
    const runs: { cjk: boolean; text: string }[] = [];
    for (const char of breakLongWords(text)) {
      const cp = char.codePointAt(0)!;
      const cjk = cp > 0x2e7f && !latin.hasGlyphForCodePoint(cp);
      const last = runs[runs.length - 1];
      if (last && (last.cjk === cjk || /\s/.test(char))) last.text += char;
      else runs.push({ cjk, text: char });
    }
    // pdfkit centres each run on its own: a centred line with CJK letters is set whole in the CJK font, which has Latin letters too.
    const whole = options.align === "center" && runs.some((run) => run.cjk);
    if (runs.length === 0 || whole) runs.splice(0, runs.length, { cjk: whole, text: runs.map((run) => run.text).join("") });
    runs.forEach((run, i) => {
      if (run.cjk && !cjkRegistered) {
        doc.registerFont("cjk", FONTS.cjk);
        cjkRegistered = true;
      }
      doc.font(run.cjk ? "cjk" : font).fontSize(fontSize);
      doc.text(run.text, { width: contentWidth, ...options, continued: i < runs.length - 1 });
    });
  }

  /** A new page unless `height` more points fit on this one (a name never ends a page without its words). */
  const keep = (height: number) => {
    if (doc.y + height > bottomY()) doc.addPage();
  };
  /** One more item placed: counted, and the file has caught up. */
  const placed = async () => {
    step();
    await caughtUp(doc, out);
  };

  // The cover.
  doc.addPage();
  const heroBox = { width: page.width, height: page.height * 0.55 };
  const hero = await heroCopy(heroBox);
  if (hero) doc.image(hero.data, 0, 0, { cover: [heroBox.width, heroBox.height], align: "center", valign: "center" });
  doc.y = heroBox.height + 36;
  doc.fillColor("#1a1a1a");
  say(site.heroTitle, "regular", 14, { align: "center" });
  doc.moveDown(0.3);
  say(site.personName, "bold", 28, { align: "center" });
  // "1942 – 2026" (or the dates, as the family chose for the home page), when they gave them.
  const dates = lifeDates(site);
  if (dates) {
    const { born, died } = dates;
    doc.moveDown(0.2);
    const span =
      born && died ? `${born.text} – ${died.text}` : t(born ? "book.cover.born" : "book.cover.died", { date: (born ?? died)!.text });
    say(span, "regular", 14, { align: "center" });
  }
  if (site.heroSubtitle) {
    doc.moveDown(0.4);
    say(site.heroSubtitle, "italic", 14, { align: "center" });
  }
  numbered = true;

  // The welcome and the service.
  doc.addPage();
  const welcome = site.service.over ? site.welcomeMessageAfter : site.welcomeMessage;
  for (const paragraph of welcome.split(/\n\s*\n/).filter((p) => p.trim())) {
    say(paragraph.trim(), "regular", 12, { lineGap: 3 });
    doc.moveDown(0.8);
  }
  doc.moveDown(1);
  keep(120);
  say(site.serviceTitle, "bold", 16);
  doc.moveDown(0.3);
  say(`${site.service.dateText} (${site.timeZone})`, "regular", 12);
  if (site.venueName) say(site.venueName, "regular", 12);
  if (site.venueAddress) say(site.venueAddress, "regular", 12);
  if (site.serviceNote) {
    doc.moveDown(0.3);
    say(site.serviceNote, "italic", 11);
  }

  // The life story, once the family has published it.
  if (life) await layOutLifeChapter({ doc, say, keep, left: page.margins.left, t }, life, lifeLine(site));

  // The guest book.
  doc.addPage();
  say(t("book.memories"), "bold", 20);
  doc.moveDown(0.6);
  for (const memory of publishedMemories()) {
    signal?.throwIfAborted();
    keep(14 * 3 + 16);
    say(memory.name, "bold", 12);
    say(longDate(memory.createdAt), "italic", 9, { lineGap: 2 });
    say(memory.message, "regular", 11, { lineGap: 2 });
    doc.moveDown(0.9);
    await placed();
  }

  await layOutVoices({ doc, say, keep, left: page.margins.left, t }, { voices, origin, longDate, drawQr, signal, placed });

  layOutCandles({ doc, say, keep, t }, candles, site.personName);

  // The poems, each on its own page.
  for (const poem of poems) {
    signal?.throwIfAborted();
    doc.addPage();
    say(poem.title, "bold", 18);
    if (poem.author) say(t("book.poems.by", { author: poem.author }), "italic", 11);
    doc.moveDown(1);
    say(poem.content, "regular", 12, { lineGap: 4 });
    await placed();
  }

  // The photos and videos, one to four a page: photos of the same orientation
  // share a page (two portraits side by side, two landscapes one above the
  // other, three or four in two columns and two rows); a video has a page of
  // its own, for its poster and the QR code to it.
  const portrait = (item: BookPhoto) => (item.height ?? 1) > (item.width ?? 1);
  const captionHeight = 16;
  const areaHeight = bottomY() - page.margins.top;
  const gap = 12;
  for (let i = 0; i < media.length;) {
    signal?.throwIfAborted();
    const first = media[i]!;
    const items = [first];
    while (
      first.type === "IMAGE" &&
      items.length < 4 &&
      media[i + items.length]?.type === "IMAGE" &&
      portrait(media[i + items.length]!) === portrait(first)
    )
      items.push(media[i + items.length]!);
    doc.addPage();
    const halfWidth = (contentWidth - gap) / 2;
    const halfHeight = (areaHeight - gap) / 2 - captionHeight;
    const cells = items.map((_, n) =>
      items.length === 1
        ? {
            x: page.margins.left,
            y: page.margins.top,
            width: contentWidth,
            height: areaHeight - captionHeight - (first.type === "VIDEO" ? 110 : 0),
          }
        : items.length === 2 && portrait(first)
          ? { x: page.margins.left + n * (halfWidth + gap), y: page.margins.top, width: halfWidth, height: areaHeight - captionHeight }
          : items.length === 2
            ? { x: page.margins.left, y: page.margins.top + n * (areaHeight / 2), width: contentWidth, height: halfHeight }
            : {
                x: page.margins.left + (n % 2) * (halfWidth + gap),
                y: page.margins.top + Math.floor(n / 2) * (areaHeight / 2),
                width: halfWidth,
                height: halfHeight,
              },
    );
    for (const [n, item] of items.entries()) {
      const cell = cells[n]!;
      const key = item.type === "VIDEO" ? item.thumbnailKey : item.storageKey;
      let copy = key ? await printCopy(key, cell, item.type === "IMAGE" ? item.rotation : 0) : null;
      if (!copy && item.type === "IMAGE" && item.displayKey) copy = await printCopy(item.displayKey, cell);
      let bottom = cell.y;
      if (copy) {
        const scale = Math.min(cell.width / copy.width, cell.height / copy.height);
        const w = copy.width * scale;
        const h = copy.height * scale;
        doc.image(copy.data, cell.x + (cell.width - w) / 2, cell.y, { width: w, height: h });
        bottom = cell.y + h;
      }
      doc.fillColor("#444444");
      [doc.x, doc.y] = [cell.x, bottom + 4];
      say(t("book.photos.sharedBy", { name: item.sender }), "italic", 9, { width: cell.width, align: "center", lineBreak: false });
      doc.fillColor("#1a1a1a");
      if (item.type === "VIDEO") {
        const link = `${origin}/gallery/${item.id}`;
        drawQr(link, cell.x + (cell.width - 90) / 2, bottom + 22, 90);
        [doc.x, doc.y] = [cell.x, bottom + 116];
        say(t("book.photos.watch", { link }), "regular", 9, { width: cell.width, align: "center", lineBreak: false });
      }
      step();
      await caughtUp(doc, out);
    }
    i += items.length;
  }

  // The last page.
  doc.addPage();
  doc.y = page.height / 3;
  say(t("book.last.visit"), "bold", 16, { align: "center" });
  doc.moveDown(0.6);
  drawQr(origin, (page.width - 140) / 2, doc.y, 140);
  doc.y += 150;
  say(origin, "regular", 11, { align: "center" });
  doc.moveDown(0.6);
  say(t("book.last.madeOn", { date: longDate(now) }), "italic", 10, { align: "center" });
}

/** Longer words than this get a place to break every this many letters. */
const LONGEST_WORD = 30;

/**
 * A word longer than a line is cut by pdfkit letter by letter, measuring
 * every shorter prefix again for each line: a 5,000-letter word took the
 * server 2 to 5 s. A zero-width space (a break opportunity for pdfkit's
 * line breaker, and a glyph Noto Sans has, of no width) every 30 letters
 * lets it break such a word at once; the word reads the same.
 */
export function breakLongWords(text: string) {
  return text.replace(new RegExp(`[^\\s\u200b]{${LONGEST_WORD + 1},}`, "gu"), (word) => {
    const letters = Array.from(word);
    const pieces: string[] = [];
    for (let at = 0; at < letters.length; at += LONGEST_WORD) pieces.push(letters.slice(at, at + LONGEST_WORD).join(""));
    return pieces.join("\u200b");
  });
}
