import { createWriteStream, existsSync, type WriteStream } from "node:fs";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { and, asc, count, eq, gt, isNotNull, sql } from "drizzle-orm";
import type PDFDocumentClass from "pdfkit";
import type QRCodeModule from "qrcode";
import { memories, uploads } from "../../db/schema";
import { bundledMedia, memorialTitle } from "~/content";
import { db } from "~/db.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { startLowPriority } from "~/media/run-tool.server";
import { loadSharp } from "~/media/sharp.server";
import { formatIsoDate, formatLongDate, formatDateTime } from "~/utils/time";
import { parseSubmittedBy } from "./export.server";
import { listPoems } from "./poem.server";
import { getStoredValue, getSiteView, STORED_KEYS } from "./settings.server";
import { StoredHeroImage } from "./site-media.schema";

// The memory book: everything published, as a PDF to print
// (docs/decisions/030-memory-book.md). Written by pdfkit to a file in the
// temporary folder one page at a time, so memory stays flat whatever the
// size of the guest book and gallery; photos are made by sharp one at a time.

type PDFDoc = InstanceType<typeof PDFDocumentClass>;

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

function geometry(size: BookSize): Geometry {
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

/** Print resolution aimed at: over 200 dpi at the placed size, when the photo has the pixels. */
const TARGET_DPI = 220;

const require = createRequire(import.meta.url);
const FONTS = {
  regular: require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
  bold: require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
  italic: require.resolve("@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf"),
  // The package exports only its index (in dist/); the fonts sit beside it.
  cjk: path.resolve(path.dirname(require.resolve("@embedpdf/fonts-sc")), "../fonts/NotoSansHans-Regular.otf"),
};

interface BookProgress {
  /** Items placed (memories, poems, photos) out of `total`. */
  done: number;
  total: number;
}

interface BookPhoto {
  id: number;
  type: "IMAGE" | "VIDEO";
  sender: string;
  storageKey: string | null;
  displayKey: string | null;
  thumbnailKey: string | null;
  rotation: number;
  width: number | null;
  height: number | null;
}

const senderName = (submittedBy: string | null) =>
  (submittedBy ? (parseSubmittedBy(submittedBy)?.name ?? submittedBy.replace(/\S+@\S+/g, "").trim()) : "") || "Anonymous";

function publishedMedia(): BookPhoto[] {
  const listed: BookPhoto[] = [];
  for (let lastId = 0; ;) {
    const batch = db
      .select({
        id: uploads.id,
        type: uploads.type,
        submittedBy: uploads.submittedBy,
        storageKey: uploads.storageKey,
        displayKey: uploads.displayKey,
        thumbnailKey: uploads.thumbnailKey,
        rotation: uploads.rotation,
        width: uploads.width,
        height: uploads.height,
      })
      .from(uploads)
      .where(and(eq(uploads.status, "APPROVED"), isNotNull(uploads.storageKey), gt(uploads.id, lastId)))
      .orderBy(asc(uploads.id))
      .limit(500)
      .all();
    for (const row of batch) listed.push({ ...row, sender: senderName(row.submittedBy) });
    if (batch.length < 500) return listed;
    lastId = batch[batch.length - 1]!.id;
  }
}

function* publishedMemories() {
  for (let lastId = 0; ;) {
    const batch = db
      .select({ id: memories.id, name: memories.name, message: memories.message, createdAt: memories.createdAt })
      .from(memories)
      .where(and(sql`+${memories.status} = 'APPROVED'`, eq(memories.canDisplay, true), gt(memories.id, lastId)))
      .orderBy(asc(memories.id))
      .limit(500)
      .all();
    yield* batch;
    if (batch.length < 500) return;
    lastId = batch[batch.length - 1]!.id;
  }
}

const countMemories = () =>
  db
    .select({ n: count() })
    .from(memories)
    .where(and(eq(memories.status, "APPROVED"), eq(memories.canDisplay, true)))
    .get()?.n ?? 0;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A JPEG of `key` no larger than the placed size needs, without its metadata (EXIF, GPS). */
async function printCopy(
  key: string,
  box: { width: number; height: number },
  turn = 0,
): Promise<{ data: Buffer; width: number; height: number } | null> {
  try {
    const bytes = await readAll(await getMediaStorage().read(key));
    const sharp = await loadSharp();
    let image = sharp(bytes, { limitInputPixels: 100_000_000, sequentialRead: true }).autoOrient();
    if (turn) image = sharp(await image.toBuffer()).rotate(turn * 90);
    const { data, info } = await image
      .resize(Math.ceil((box.width / 72) * TARGET_DPI), Math.ceil((box.height / 72) * TARGET_DPI), {
        fit: "inside",
        withoutEnlargement: true,
      })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: false })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    return null;
  }
}

async function heroCopy(box: { width: number; height: number }) {
  const stored = StoredHeroImage.safeParse(getStoredValue(STORED_KEYS.heroImage));
  if (stored.success) {
    const largest = [...stored.data.copies].sort((a, b) => b.width - a.width)[0]!;
    return printCopy(largest.jpeg, box);
  }
  const bundled = path.resolve("public", `.${bundledMedia.heroImage}`);
  if (!existsSync(bundled)) return null;
  const sharp = await loadSharp();
  const { data, info } = await sharp(bundled)
    .resize(Math.ceil((box.width / 72) * TARGET_DPI), undefined, { withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Waits while the file is behind, so the PDF never piles up in memory. */
async function caughtUp(doc: PDFDoc, file: WriteStream) {
  if (doc.readableLength > 1024 * 1024 || file.writableNeedDrain) await new Promise<void>((resolve) => file.once("drain", () => resolve()));
  await new Promise((resolve) => setImmediate(resolve));
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
  const total = countMemories() + poems.length + media.length;
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
    await layOut(doc, out, { size, origin, now, signal, step, site, drawQr, poems, media });
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

interface Layout {
  size: BookSize;
  origin: string;
  now: number;
  signal: AbortSignal | undefined;
  step: () => void;
  site: ReturnType<typeof getSiteView>;
  drawQr: (text: string, x: number, y: number, size: number) => void;
  poems: ReturnType<typeof listPoems>;
  media: BookPhoto[];
}

/** Lays the book out page by page into `doc`, waiting for `out` to keep up. */
async function layOut(doc: PDFDoc, out: WriteStream, { size, origin, now, signal, step, site, drawQr, poems, media }: Layout) {
  const { timeZone } = site;
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
    if (runs.length === 0) runs.push({ cjk: false, text: "" });
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
  say(`${site.service.dateText} (${timeZone})`, "regular", 12);
  if (site.venueName) say(site.venueName, "regular", 12);
  if (site.venueAddress) say(site.venueAddress, "regular", 12);
  if (site.serviceNote) {
    doc.moveDown(0.3);
    say(site.serviceNote, "italic", 11);
  }

  // The guest book.
  doc.addPage();
  say("Memories", "bold", 20);
  doc.moveDown(0.6);
  for (const memory of publishedMemories()) {
    signal?.throwIfAborted();
    keep(14 * 3 + 16);
    say(memory.name, "bold", 12);
    say(formatLongDate(memory.createdAt, timeZone), "italic", 9, { lineGap: 2 });
    say(memory.message, "regular", 11, { lineGap: 2 });
    doc.moveDown(0.9);
    step();
    await caughtUp(doc, out);
  }

  // The poems, each on its own page.
  for (const poem of poems) {
    signal?.throwIfAborted();
    doc.addPage();
    say(poem.title, "bold", 18);
    if (poem.author) say(`By ${poem.author}`, "italic", 11);
    doc.moveDown(1);
    say(poem.content, "regular", 12, { lineGap: 4 });
    step();
    await caughtUp(doc, out);
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
      doc.font("italic").fontSize(9).fillColor("#444444");
      doc.text(`Shared by ${item.sender}`, cell.x, bottom + 4, { width: cell.width, align: "center", lineBreak: false });
      doc.fillColor("#1a1a1a");
      if (item.type === "VIDEO") {
        const link = `${origin}/gallery/${item.id}`;
        drawQr(link, cell.x + (cell.width - 90) / 2, bottom + 22, 90);
        doc
          .font("regular")
          .fontSize(9)
          .text(`Watch the video: ${link}`, cell.x, bottom + 116, { width: cell.width, align: "center", lineBreak: false });
      }
      step();
      await caughtUp(doc, out);
    }
    i += items.length;
  }

  // The last page.
  doc.addPage();
  doc.y = page.height / 3;
  say("Visit the memorial", "bold", 16, { align: "center" });
  doc.moveDown(0.6);
  drawQr(origin, (page.width - 140) / 2, doc.y, 140);
  doc.y += 150;
  say(origin, "regular", 11, { align: "center" });
  doc.moveDown(0.6);
  say(`This book was made on ${formatLongDate(now, timeZone)}.`, "italic", 10, { align: "center" });
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

/** "memory-book-2025-09-01-a4.pdf", the day in the family's time zone. */
export function bookFileName(size: BookSize, now = Date.now()) {
  return `memory-book-${formatIsoDate(now, getSiteView(now).timeZone)}-${size}.pdf`;
}

// One book at a time on the machine: a second asks waits for the first.
let queue: Promise<unknown> = Promise.resolve();
let progress: (BookProgress & { size: BookSize; startedAt: string }) | null = null;

/** How far the book being made has got, for the Exports tab's progress line; null when none is being made. */
export function bookProgress() {
  return progress;
}

/** The script that makes a book in a process of its own (server/memory-book-process.mjs); null: in this one. */
let bookProcessScript: string | null = null;

/**
 * Called by the Node server at start: from now on each book is made by
 * `script` in a child process at the lowest CPU priority (`nice -n 19`), so
 * on one shared CPU visitors' pages go first and the server's own memory
 * stays as it was (the child's is given back when it ends). Tests and
 * `remix dev` make books in process.
 */
export function makeBooksApart(script: string) {
  bookProcessScript = script;
}

/** Prefix of the child's progress lines on its stdout (anything else it prints is passed on to the log). */
export const BOOK_PROGRESS = "memory-book-progress ";

function writeMemoryBookApart(script: string, { onProgress, signal, ...options }: BookOptions) {
  return new Promise<void>((resolve, reject) => {
    const { child, kill } = startLowPriority(process.execPath, [script, JSON.stringify(options)]);
    const onAbort = () => kill();
    signal?.addEventListener("abort", onAbort, { once: true });
    let pending = "";
    let errors = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith(BOOK_PROGRESS)) onProgress?.(JSON.parse(line.slice(BOOK_PROGRESS.length)) as BookProgress);
        else if (line.trim()) console.log(line);
      }
    });
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => (errors = (errors + chunk).slice(-4000)));
    child.once("error", reject);
    child.once("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) return reject(signal.reason);
      if (code === 0) return resolve();
      reject(new Error(`The memory book's process ended with ${String(code)}: ${errors.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

/** How long the last book took per item placed, measured; null until one has been made since the server started. */
let lastPace: { secondsPerItem: number } | null = null;

/**
 * Per item when no book has been made since the server started: at a
 * shared CPU's baseline a book of 100 memories took 213 s, about 2 s a
 * memory, and a photo costs more (it is read and resized); at full speed
 * it is a tenth of that.
 */
const GUESSED_SECONDS = { memory: 2, photo: 4 };

/** What the next book would hold and about how long it would take to make, for the Exports tab. */
export function bookEstimate() {
  const memoriesCount = countMemories();
  const poems = listPoems().length;
  const photos = publishedMedia().length;
  const seconds = lastPace
    ? (memoriesCount + poems + photos) * lastPace.secondsPerItem
    : (memoriesCount + poems) * GUESSED_SECONDS.memory + photos * GUESSED_SECONDS.photo;
  return { memories: memoriesCount, poems, photos, seconds: Math.round(seconds), measured: lastPace !== null };
}

/** The temporary folders of books this process is making or sending now. */
const liveFolders = new Set<string>();
/** A book's temporary folder names the process that made it: `memory-book-<pid>-<random>`. */
const FOLDER_PREFIX = "memory-book-";

/**
 * Makes the book in a temporary file, one at a time; the caller sends it and
 * calls `done` (as often as it likes). A book whose `signal` is aborted
 * while it waits its turn is never begun; one aborted while being made
 * stops, and its folder goes.
 */
export function makeMemoryBook(options: Omit<BookOptions, "file">): Promise<{ file: string; done: () => Promise<void> }> {
  const run = async () => {
    options.signal?.throwIfAborted();
    const dir = await fs.mkdtemp(path.join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
    liveFolders.add(dir);
    const remove = async () => {
      await fs.rm(dir, { recursive: true, force: true });
      liveFolders.delete(dir);
    };
    const file = path.join(dir, "book.pdf");
    const startedAt = formatDateTime(new Date(options.now ?? Date.now()), getSiteView().timeZone);
    progress = { size: options.size, done: 0, total: 0, startedAt };
    const began = Date.now();
    let placed = 0;
    const onProgress = (p: BookProgress) => {
      placed = p.done;
      progress = { size: options.size, startedAt, ...p };
      options.onProgress?.(p);
    };
    try {
      if (bookProcessScript) await writeMemoryBookApart(bookProcessScript, { ...options, file, onProgress });
      else await writeMemoryBook({ ...options, file, onProgress });
      if (placed > 0) lastPace = { secondsPerItem: (Date.now() - began) / 1000 / placed };
    } catch (error) {
      await remove();
      throw error;
    } finally {
      progress = null;
    }
    return { file, done: remove };
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

const STALE_AFTER_MS = 60 * 60 * 1000;

/**
 * Removes books left in the temporary folder: by this process and no longer
 * being sent, by a process that has ended (a crash, a restart), or older
 * than an hour. At start and hourly (app/background.server.ts). A file still
 * being read by a download is unaffected: the open file stays readable.
 */
export async function sweepStaleBooks(now = Date.now()) {
  const root = tmpdir();
  const names = await fs.readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const dir = path.join(root, name);
    if (liveFolders.has(dir)) continue;
    const pid = Number(/^memory-book-(\d+)-/.exec(name)?.[1]);
    const stat = await fs.stat(dir).catch(() => null);
    if (!stat) continue;
    const ours = pid === process.pid;
    const ownerAlive = !ours && Number.isInteger(pid) && pid > 0 && processAlive(pid);
    if (ownerAlive && now - stat.mtimeMs < STALE_AFTER_MS) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

function processAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
