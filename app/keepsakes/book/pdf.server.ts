import { createWriteStream } from "node:fs";
import { memorialTitle } from "~/content";
import { publishedCandles } from "~/candles/candles.server";
import { getPublishedLife } from "~/life/life.server";
import { listPoems } from "~/poems/poem.server";
import { getSiteView } from "~/site/settings.server";
import { countMemories, countPublishedVoices, publishedMedia, publishedVoices } from "./content.server";
import { type BookSize, drawQrWith, geometry, layOut } from "./layout.server";

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

/** Writes the memory book to `file`. */
export async function writeMemoryBook({ size, origin, file, now = Date.now(), onProgress, signal }: BookOptions): Promise<void> {
  const site = getSiteView(now);
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
    info: { Title: memorialTitle(site), Author: site.personName, Subject: "A memory book", CreationDate: new Date(now) },
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
