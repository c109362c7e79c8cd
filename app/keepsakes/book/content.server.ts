import { existsSync } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { memories, uploads } from "../../../db/schema";
import { bundledMedia } from "~/content";
import { getMediaStorage } from "~/media/media-storage.server";
import { loadSharp } from "~/media/sharp.server";
import { db } from "~/platform/db.server";
import { getStoredValue, STORED_KEYS } from "~/site/settings.server";
import { StoredHeroImage } from "~/site/site-media.schema";
import { parseSubmittedBy } from "~/utils/submitted-by";

// What goes into the memory book: the published memories, voices and photos,
// read in batches, and each photo as a print copy made by sharp one at a time.

/** Print resolution aimed at: over 200 dpi at the placed size, when the photo has the pixels. */
const TARGET_DPI = 220;

export interface BookPhoto {
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

/** The photos and videos a book holds: published, with a stored original. Voice memories have a chapter of their own. */
const inTheBook = and(eq(uploads.status, "APPROVED"), isNotNull(uploads.storageKey), inArray(uploads.type, ["IMAGE", "VIDEO"]));

export function publishedMedia(): BookPhoto[] {
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
      .where(and(inTheBook, gt(uploads.id, lastId)))
      .orderBy(asc(uploads.id))
      .limit(500)
      .all();
    for (const row of batch) listed.push({ ...row, type: row.type === "VIDEO" ? "VIDEO" : "IMAGE", sender: senderName(row.submittedBy) });
    if (batch.length < 500) return listed;
    lastId = batch[batch.length - 1]!.id;
  }
}

export function* publishedMemories() {
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

export interface BookVoice {
  id: number;
  sender: string;
  createdAt: Date;
  durationSec: number | null;
  caption: string | null;
}

/**
 * The voices a book holds: published, with the sender's permission for the
 * guest book (the book is meant to be shared; one for the family only stays
 * in the keepsake ZIP), and with the web copy its QR code leads to.
 */
const voiceInTheBook = and(
  eq(uploads.status, "APPROVED"),
  eq(uploads.type, "AUDIO"),
  eq(uploads.canDisplay, true),
  isNull(uploads.processingError),
  isNotNull(uploads.displayKey),
);

/** The book's voices, oldest first, read 500 at a time as the book is laid out. */
export function* publishedVoices(): Generator<BookVoice> {
  for (let lastId = 0; ;) {
    const batch = db
      .select({
        id: uploads.id,
        submittedBy: uploads.submittedBy,
        createdAt: uploads.createdAt,
        durationSec: uploads.durationSec,
        caption: uploads.caption,
      })
      .from(uploads)
      .where(and(voiceInTheBook, gt(uploads.id, lastId)))
      .orderBy(asc(uploads.id))
      .limit(500)
      .all();
    for (const { submittedBy, ...row } of batch) yield { ...row, sender: senderName(submittedBy) };
    if (batch.length < 500) return;
    lastId = batch[batch.length - 1]!.id;
  }
}

export const countPublishedVoices = () => db.select({ n: count() }).from(uploads).where(voiceInTheBook).get()?.n ?? 0;

/** How many photos and videos a book would hold, without reading them (the Exports tab's estimate). */
export const countPublishedMedia = () => db.select({ n: count() }).from(uploads).where(inTheBook).get()?.n ?? 0;

export const countMemories = () =>
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
export async function printCopy(
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

export async function heroCopy(box: { width: number; height: number }) {
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
