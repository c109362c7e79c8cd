import { inArray } from "drizzle-orm";
import { uploads } from "../../../db/schema";
import type { PublishedLife } from "~/life/life.server";
import { uploadedLifePhotoKey } from "~/life/life-photo.server";
import { storyBlocks } from "~/life/story-text";
import { db } from "~/platform/db.server";
import { formatPartialDate, parsePartialDate } from "~/site/life-dates";
import { printCopy } from "./content.server";
import type { Translate } from "~/i18n/i18n.server";
import type { PDFDoc } from "./layout.server";

// The memory book's chapter after the welcome: the family's life story and
// its timeline, with the timeline's photos, in the book's fonts.

export interface ChapterTools {
  doc: PDFDoc;
  /** Text in the book's fonts, any script. */
  say: (text: string, font: "regular" | "bold" | "italic", fontSize: number, options?: PDFKit.Mixins.TextOptions) => void;
  /** A new page unless `height` more points fit on this one. */
  keep: (height: number) => void;
  left: number;
  /** The book's words, in its language (bookLanguage). */
  t: Translate;
}

/** The stored files of the chapter's photos (the public copy first: what visitors see). */
function photoKeys(ids: number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = db
    .select({ id: uploads.id, displayKey: uploads.displayKey, storageKey: uploads.storageKey })
    .from(uploads)
    .where(inArray(uploads.id, ids))
    .all();
  return new Map(rows.map((row) => [row.id, (row.displayKey ?? row.storageKey)!]));
}

const PHOTO_BOX = { width: 260, height: 200 };
const PAGE_PHOTO_BOX = { width: 300, height: 220 };

/** A print copy fitted into `box`, at the left margin where the text is; the text goes on below it. */
function placePhoto(
  doc: PDFDoc,
  copy: { data: Buffer; width: number; height: number },
  box: { width: number; height: number },
  left: number,
) {
  const scale = Math.min(box.width / copy.width, box.height / copy.height);
  const [w, h] = [copy.width * scale, copy.height * scale];
  // A long text above may have used the room kept for it: then the photo starts the next page.
  if (doc.y + h > doc.page.height - doc.page.margins.bottom) doc.addPage();
  doc.image(copy.data, left, doc.y, { width: w, height: h });
  doc.y += h;
  doc.x = left;
}

/** "1942", "March 1942" or "March 14, 1942". */
const dateText = (value: string) => {
  const date = parsePartialDate(value);
  return date ? formatPartialDate(date) : value;
};

/** The chapter, from a new page; `lifeLine` is "Born … · Died …" when the family gave dates or places. */
export async function layOutLifeChapter({ doc, say, keep, left, t }: ChapterTools, life: PublishedLife, lifeLine: string) {
  doc.addPage();
  say(t("book.life.title"), "bold", 20);
  if (lifeLine) say(lifeLine, "italic", 11);
  doc.moveDown(0.8);
  // The page's photo: the one chosen from the gallery, else the one the family uploaded for it.
  const pageKey = life.photo ? (photoKeys([life.photo.id]).get(life.photo.id) ?? null) : uploadedLifePhotoKey();
  const pagePhoto = pageKey ? await printCopy(pageKey, PAGE_PHOTO_BOX) : null;
  if (pagePhoto) {
    placePhoto(doc, pagePhoto, PAGE_PHOTO_BOX, left);
    doc.moveDown(0.8);
  }
  for (const block of storyBlocks(life.story)) {
    if (block.type === "heading") {
      keep(60);
      doc.moveDown(0.4);
      say(block.text, "bold", 14);
      doc.moveDown(0.3);
    } else if (block.type === "list") {
      for (const item of block.items) say(`•  ${item}`, "regular", 12, { lineGap: 3, indent: 8 });
      doc.moveDown(0.8);
    } else {
      say(block.lines.join("\n"), "regular", 12, { lineGap: 3 });
      doc.moveDown(0.8);
    }
  }
  if (life.moments.length === 0) return;
  keep(120);
  doc.moveDown(0.6);
  say(t("book.life.timeline"), "bold", 16);
  doc.moveDown(0.4);
  const keys = photoKeys(life.moments.flatMap((moment) => (moment.photo ? [moment.photo.id] : [])));
  for (const moment of life.moments) {
    const key = moment.photo ? keys.get(moment.photo.id) : undefined;
    const copy = key ? await printCopy(key, PHOTO_BOX) : null;
    keep(48 + (copy ? PHOTO_BOX.height : 0));
    say(dateText(moment.date), "italic", 10);
    say(moment.title, "bold", 12);
    if (moment.text) say(moment.text, "regular", 11, { lineGap: 2 });
    if (copy) {
      doc.moveDown(0.3);
      placePhoto(doc, copy, PHOTO_BOX, left);
    }
    doc.moveDown(0.9);
  }
  doc.x = left;
}
