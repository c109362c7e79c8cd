import { createWriteStream } from "node:fs";
import { memorialTitle } from "~/content";
import { publishedCandles } from "~/candles/candles.server";
import { getPublishedLife } from "~/life/life.server";
import { listPoems } from "~/poems/poem.server";
import { translate } from "~/i18n/i18n.server";
import { LANGUAGE_TAGS, type Language } from "~/i18n/languages";
import { getSiteView } from "~/site/settings.server";
import { formatLongDate } from "~/utils/time";
import { countMemories, countPublishedVoices, publishedMedia, publishedVoices } from "./content.server";
import type QRCodeModule from "qrcode";
import { type BookSize, geometry, layOut, type PDFDoc } from "./layout.server";

// The memory book written as a PDF (docs/decisions/030-memory-book.md): by
// pdfkit to a file one page at a time, so memory stays flat whatever the
// size of the guest book and gallery.

export interface BookProgress {
  /** Items placed (memories, voices, poems, photos) out of `total`. */
  done: number;
  total: number;
}

export interface BookOptions {
  size: BookSize;
  /** The site's address, for the QR codes. */
  origin: string;
  file: string;
  now?: number;
  onProgress?: (progress: BookProgress) => void;
  signal?: AbortSignal;
}

/**
 * The language of the book's own words (headings, captions, dates): the
 * family's main language. Arabic is written right to left, which the book's
 * layout does not reorder yet (a line mixing Arabic with numbers or Latin
 * letters would print in the wrong order): an Arabic family's book keeps
 * English headings, around the family's own Arabic texts.
 */
const bookLanguage = (main: Language): Language => (main === "ar" ? "en" : main);

/** A day as the book writes it: English as before, any other language by Intl in it. */
export function bookDate(language: Language, timeZone: string) {
  if (language === "en") return (date: Date | number) => formatLongDate(date, timeZone);
  const format = new Intl.DateTimeFormat(LANGUAGE_TAGS[language], { dateStyle: "long", timeZone });
  return (date: Date | number) => format.format(new Date(date));
}

/** Writes the memory book to `file`. */
export async function writeMemoryBook({ size, origin, file, now = Date.now(), onProgress, signal }: BookOptions): Promise<void> {
  const site = getSiteView(now);
  const language = bookLanguage(site.mainLanguage);
  const t = translate(language);
  const page = geometry(size);
  const poems = listPoems().reverse();
  const media = publishedMedia();
  const total = countMemories() + countPublishedVoices() + poems.length + media.length;
  let done = 0;
  const step = () => onProgress?.({ done: ++done, total });
  onProgress?.({ done, total });

  // pdfkit and qrcode load with the first book, not at every start of the server.
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([import("pdfkit"), import("qrcode")]);
  const drawQr = (text: string, x: number, y: number, size: number) => drawQrWith(QRCode, doc, text, x, y, size);
  const doc = new PDFDocument({
    size: [page.width, page.height],
    margins: page.margins,
    autoFirstPage: false,
    info: { Title: memorialTitle(site), Author: site.personName, Subject: t("book.subject"), CreationDate: new Date(now) },
    pdfVersion: "1.7",
  });
  const out = createWriteStream(file);
  const finished = new Promise<void>((resolve, reject) => {
    out.once("finish", resolve);
    out.once("error", reject);
  });
  // Its error is what the build throws; once the build has failed, a late one must not end the server.
  finished.catch(() => undefined);
  doc.pipe(out);
  try {
    await layOut(doc, out, {
      size,
      origin,
      now,
      signal,
      step,
      site,
      drawQr,
      poems,
      media,
      voices: publishedVoices(),
      life: getPublishedLife(),
      candles: publishedCandles(),
      t,
      longDate: bookDate(language, site.timeZone),
    });
    doc.end();
    await finished;
  } catch (error) {
    // The file is closed on every path: a book given up on leaves no descriptor open.
    doc.unpipe(out);
    if (!out.closed) {
      const closed = new Promise<void>((resolve) => out.once("close", () => resolve()));
      out.destroy();
      await closed;
    }
    throw error;
  }
}

/** A QR code drawn as squares (sharp at any size, found again by a scanner from a print). */
function drawQrWith(QRCode: typeof QRCodeModule, doc: PDFDoc, text: string, x: number, y: number, size: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const quiet = 4;
  const cell = size / (modules.size + quiet * 2);
  doc.save();
  doc.rect(x, y, size, size).fill("#ffffff");
  doc.fillColor("#000000");
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell + 0.05, cell + 0.05);
    }
  }
  doc.fill();
  doc.restore();
}
