import fs from "node:fs/promises";
import { convertHeifToJpeg, type ImageOptions } from "./process.server";
import { MediaProblem, PROCESSING_LIMITS, tooSlow, type ProcessingLimits } from "./processing-limits.server";
import { loadSharp } from "./sharp.server";
import { widthsUpTo } from "./web-sizes";

// The family's hero photo in the widths browsers choose from (`srcset`):
// WebP for the browsers that show it, JPEG for the others and for link
// previews. Turned upright, in sRGB, with every piece of metadata (the
// camera, the date, the GPS position) left behind.

/** The widths made, never wider than the photo itself. */
const HERO_WIDTHS = [640, 1280, 1920] as const;
const WIDEST = 1920;
/** A very tall photo is made at most this tall (it is shown cropped to a wide box anyway). */
const MAX_HEIGHT = 3840;

/** The widths for a photo `width` pixels wide: the standard ones below it, and the photo's own up to the widest. */
export const heroWidths = (width: number): number[] => widthsUpTo(Math.min(width, WIDEST), HERO_WIDTHS);

export interface HeroCopy {
  width: number;
  height: number;
  /** The encoded files (tens to hundreds of kilobytes each). */
  webp: Buffer;
  jpeg: Buffer;
}

const unreadable = () => new MediaProblem("unreadable", "the photo could not be read; the file may be damaged or not really a photo");

/**
 * The copies of a JPEG, PNG, WebP or HEIC photo (`mime` as sniffed), one
 * WebP and one JPEG per width, narrowest first. The photo is decoded once,
 * within the pixel and time limits of every upload; a MediaProblem says why
 * it could not be used.
 */
export async function makeHeroCopies(input: string, mime: string, workDir: string, options: ImageOptions = {}): Promise<HeroCopy[]> {
  const limits: ProcessingLimits = options.limits ?? PROCESSING_LIMITS;
  const checkDeadline = () => {
    if (options.signal?.aborted) throw tooSlow(limits.imageSeconds);
  };
  const sharp = await loadSharp();
  await fs.mkdir(workDir, { recursive: true });
  const heif = mime === "image/heic" || mime === "image/heif";
  const converted = heif ? await convertHeifToJpeg(input, workDir, options) : null;
  if (heif && !converted) throw new MediaProblem("unreadable", "the HEIC photo could not be converted; the file may be damaged");
  const source = converted ?? input;
  try {
    checkDeadline();
    // The header alone: how many pixels decoding would take, before decoding any.
    const meta = await sharp(source, { failOn: "none" })
      .metadata()
      .catch(() => null);
    const height = meta?.pageHeight ?? meta?.height;
    if (!meta?.width || !height) throw unreadable();
    if (meta.width * height > limits.imagePixels) {
      throw new MediaProblem(
        "too-large",
        `the photo is ${meta.width} × ${height} pixels, and photos up to ${limits.imagePixels / 1_000_000} megapixels can be used`,
      );
    }
    // libheif has already applied a HEIC's own orientation to the pixels.
    const opened = sharp(source, { failOn: "none", limitInputPixels: limits.imagePixels }).timeout({ seconds: limits.imageSeconds });
    const { data, info } = await (converted ? opened : opened.autoOrient())
      .resize({ width: WIDEST, height: MAX_HEIGHT, fit: "inside", withoutEnlargement: true })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true })
      .catch(asProblem(limits));
    checkDeadline();
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const copies: HeroCopy[] = [];
    for (const width of heroWidths(info.width)) {
      const resized = () => sharp(data, raw).resize({ width }).timeout({ seconds: limits.imageSeconds });
      const webp = await resized().webp({ quality: 80 }).toBuffer({ resolveWithObject: true }).catch(asProblem(limits));
      const jpeg = await resized()
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: 82, progressive: true })
        .toBuffer()
        .catch(asProblem(limits));
      copies.push({ width: webp.info.width, height: webp.info.height, webp: webp.data, jpeg });
      checkDeadline();
    }
    return copies;
  } finally {
    if (converted) await fs.rm(converted, { force: true });
  }
}

/** sharp's errors as the family reads them: its own time limit, or a picture it could not decode. */
function asProblem(limits: ProcessingLimits) {
  return (error: unknown): never => {
    if (error instanceof MediaProblem) throw error;
    if (/timeout/i.test(String(error))) throw tooSlow(limits.imageSeconds);
    console.error(JSON.stringify({ level: "warn", msg: "hero photo could not be decoded", error: String(error) }));
    throw unreadable();
  };
}
