// The widths pictures are made in for browsers to choose from (`srcset`),
// and how the copies of a gallery photo are named. Client-safe: the gallery
// builds a tile's `srcset` from the largest copy's address alone, so the
// public API keeps its fields.

/**
 * The widths for a picture `widest` pixels wide: each standard width below
 * it, then its own. A picture is never made wider than it is.
 */
export function widthsUpTo(widest: number, standard: readonly number[]): number[] {
  const widths = standard.filter((width) => width < widest);
  widths.push(widest);
  return widths;
}

/** Gallery thumbnails (JPEG) are this wide: the smallest choice of a tile's `srcset`. */
export const THUMBNAIL_WIDTH = 280;

/** A gallery photo's web copies: no side longer than this (a 4K screen's width; a phone's 12 MP photo is 4032). */
export const PHOTO_LONGEST_SIDE = 2560;
/** The standard widths of a gallery photo's copies: a phone's tile, a phone's screen or a laptop, a large screen. */
const PHOTO_WIDTHS = [640, 1280, 2560] as const;

/** The widths of a photo whose largest copy is `widest` pixels wide, narrowest first. */
export const photoWidths = (widest: number) => widthsUpTo(widest, PHOTO_WIDTHS);

/**
 * `<name>-<width>w.jpg`: every copy of one photo shares `<name>`. An
 * animation is one `.gif` copy (a GIF in several widths would cost more
 * than it saves).
 */
const COPY_NAME = /^(.+)-(\d{1,5})w\.(jpg|gif)$/;

export const photoCopyName = (name: string, width: number, ext: "jpg" | "gif") => `${name}-${width}w.${ext}`;

export interface PhotoCopy {
  /** The copy's name, or its address when given one (`/media/12/abc-1280w.jpg`). */
  name: string;
  width: number;
}

/**
 * Every web copy of a photo, narrowest first, from the name or address of
 * its largest one; null for anything else (a video, or a photo processed
 * before it had copies in several widths).
 */
export function photoCopies(largest: string | null | undefined): PhotoCopy[] | null {
  const match = largest ? COPY_NAME.exec(largest) : null;
  if (!match) return null;
  const [, name, width, ext] = match as unknown as [string, string, string, "jpg" | "gif"];
  const widest = Number(width);
  if (!(widest > 0)) return null;
  if (ext === "gif") return [{ name: largest!, width: widest }];
  return photoWidths(widest).map((each) => ({ name: photoCopyName(name, each, ext), width: each }));
}

/**
 * `srcset` of a photo's JPEG copies, with its thumbnail (`width` pixels
 * wide) as the smallest; undefined when there is nothing to choose from (an
 * animation keeps its still thumbnail in the grid).
 */
export function photoSrcSet(url: string, thumbnail?: { url: string | null; width: number }): string | undefined {
  const copies = url.endsWith(".jpg") ? photoCopies(url) : null;
  if (!copies) return undefined;
  const candidates = copies.map((copy) => `${copy.name} ${copy.width}w`);
  if (thumbnail?.url && thumbnail.width < copies[0]!.width) candidates.unshift(`${thumbnail.url} ${thumbnail.width}w`);
  return candidates.length > 1 ? candidates.join(", ") : undefined;
}
