import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { OutputInfo, Sharp } from "sharp";
import type { MediaType } from "../../db/schema";
import { MediaProblem, PROCESSING_LIMITS, tooSlow, type ProcessingLimits } from "./processing-limits.server";
import { runTool, ToolFailed, toolMissing } from "./run-tool.server";
import { loadSharp } from "./sharp.server";
import { PHOTO_LONGEST_SIDE, photoWidths, THUMBNAIL_WIDTH } from "./web-sizes";

export interface SniffedType {
  mime: string;
  type: MediaType;
  /** The extension files of this type get in storage. */
  ext: string;
}

const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]);
const MP4_BRANDS = new Set([
  "isom",
  "iso2",
  "iso4",
  "iso5",
  "iso6",
  "mp41",
  "mp42",
  "avc1",
  "m4v ",
  "mp4v",
  "dash",
  "msnv",
  "ndas",
  "f4v ",
  "xavc",
  "3gp4",
  "3gp5",
  "3gp6",
  "3g2a",
]);
const AUDIO_BRANDS = new Set(["m4a ", "m4b ", "m4p "]);
const MP4_AUDIO = { mime: "audio/mp4", type: "AUDIO", ext: "m4a" } as const;
const QUICKTIME_ATOMS = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);

/**
 * What a file really is, read from its first bytes (at least 64 of them);
 * null for anything outside the spec's formats (JPEG, PNG, HEIC/HEIF, WebP,
 * GIF, MP4, MOV, AVI) and the voice recordings phones and browsers make
 * (sniffRecording), whatever its name or declared type says. An MP4 or 3GP
 * (or WebM, or Ogg) may hold sound alone: processing finds that out and makes it a voice.
 */
export function sniffMediaType(head: Buffer): SniffedType | null {
  const ascii = (start: number, end: number) => head.subarray(start, end).toString("latin1");
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return { mime: "image/jpeg", type: "IMAGE", ext: "jpg" };
  }
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { mime: "image/png", type: "IMAGE", ext: "png" };
  }
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return { mime: "image/gif", type: "IMAGE", ext: "gif" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { mime: "image/webp", type: "IMAGE", ext: "webp" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "AVI ") return { mime: "video/x-msvideo", type: "VIDEO", ext: "avi" };
  if (head.length >= 12 && ascii(4, 8) === "ftyp") {
    const boxSize = Math.min(head.readUInt32BE(0), head.length);
    const major = ascii(8, 12).toLowerCase();
    const compatible: string[] = [];
    for (let at = 16; at + 4 <= boxSize; at += 4) compatible.push(ascii(at, at + 4).toLowerCase());
    const brands = [major, ...compatible];
    if (major === "qt  ") return { mime: "video/quicktime", type: "VIDEO", ext: "mov" };
    // iPhone Voice Memos, iTunes audio and audiobooks: MP4's container, sound only.
    if (AUDIO_BRANDS.has(major)) return MP4_AUDIO;
    if (brands.some((brand) => HEIF_BRANDS.has(brand))) return { mime: "image/heic", type: "IMAGE", ext: "heic" };
    if ((major === "mif1" || major === "msf1") && !brands.includes("avif") && !brands.includes("avis")) {
      return { mime: "image/heif", type: "IMAGE", ext: "heif" };
    }
    if (brands.some((brand) => MP4_BRANDS.has(brand))) return { mime: "video/mp4", type: "VIDEO", ext: "mp4" };
    return null;
  }
  // Older QuickTime files start straight with an atom instead of "ftyp".
  if (head.length >= 8 && QUICKTIME_ATOMS.has(ascii(4, 8))) return { mime: "video/quicktime", type: "VIDEO", ext: "mov" };
  return sniffRecording(head, ascii);
}

/**
 * Recordings in containers of their own: WebM and Ogg (MediaRecorder in
 * Chrome and Firefox), MP3 (with or without its ID3 tag), AAC in ADTS, WAV,
 * and AMR (older Android phones).
 */
function sniffRecording(head: Buffer, ascii: (start: number, end: number) => string): SniffedType | null {
  // WebM and Ogg may hold pictures too (a screen recording, a video saved from a browser), as MP4 may:
  // processing finds out, and a file with sound alone becomes a voice.
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { mime: "video/webm", type: "VIDEO", ext: "webm" };
  if (ascii(0, 4) === "OggS") return { mime: "video/ogg", type: "VIDEO", ext: "ogg" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return { mime: "audio/wav", type: "AUDIO", ext: "wav" };
  if (ascii(0, 5) === "#!AMR") return { mime: "audio/amr", type: "AUDIO", ext: "amr" };
  if (ascii(0, 3) === "ID3") return { mime: "audio/mpeg", type: "AUDIO", ext: "mp3" };
  // An MPEG audio frame's sync word (11 bits), then its version and layer: layer 0 is AAC's ADTS header.
  if (head.length >= 4 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0 && ((head[1]! >> 3) & 3) !== 1) {
    const layer = (head[1]! >> 1) & 3;
    if (layer === 0) return (head[1]! & 0xf6) === 0xf0 ? { mime: "audio/aac", type: "AUDIO", ext: "aac" } : null;
    // A bitrate index of 15 and a sample-rate index of 3 are invalid: not a frame.
    if (head[2]! >> 4 !== 15 && ((head[2]! >> 2) & 3) !== 3) return { mime: "audio/mpeg", type: "AUDIO", ext: "mp3" };
  }
  return null;
}

/** The type of a container's sound alone: "video/webm" → "audio/webm" (a QuickTime movie's sound is in MP4's). */
export function soundOf(mime: string): string {
  if (mime === "video/quicktime") return "audio/mp4";
  return mime.replace(/^video\//, "audio/");
}

export interface ImageCopies {
  /** The web copies, narrowest first (widths of `photoWidths`); the last and largest is the gallery's `url`. */
  sizes: { file: string; width: number; height: number }[];
  /** JPEG, or GIF for an animation within the limits (then one size only). */
  format: { mime: "image/jpeg" | "image/gif"; ext: "jpg" | "gif" };
  /** A THUMBNAIL_WIDTH-wide JPEG of the first frame. */
  thumbnail: string;
  /** The photo's own size, upright and turned as asked. */
  width: number;
  height: number;
  /** Whether the public copy moves (an animated GIF within the limits). */
  animated: boolean;
}

export interface ImageOptions {
  /** The job's deadline: checked between steps, and it kills heif-convert. */
  signal?: AbortSignal;
  limits?: ProcessingLimits;
}

const scratchName = (dir: string, ext: string) => path.join(dir, `${randomBytes(9).toString("base64url")}.${ext}`);

const unreadablePhoto = () => new MediaProblem("unreadable", "the photo could not be read; the file may be damaged or not really a photo");

/**
 * Converts HEIC/HEIF (which sharp's bundled libvips cannot decode) to a JPEG
 * in a child process with a time and memory limit, so a 12 MP photo's
 * decoding memory is never the web server's. Null when the file cannot be
 * converted (a MediaProblem when the converter is not installed).
 */
export async function convertHeifToJpeg(input: string, workDir: string, options: ImageOptions = {}): Promise<string | null> {
  const output = scratchName(workDir, "jpg");
  try {
    await runTool("heif-convert", ["-q", "92", input, output], { timeoutMs: 60_000, signal: options.signal });
  } catch (error) {
    if (error instanceof MediaProblem) throw error;
    if (error instanceof ToolFailed && error.missing) throw toolMissing("heif-convert");
    console.error(JSON.stringify({ level: "warn", msg: "HEIC conversion failed", error: String(error) }));
    return null;
  }
  // A file holding several images comes out as name-1.jpg, name-2.jpg…: keep the first.
  for (const candidate of [output, output.replace(/\.jpg$/, "-1.jpg")]) {
    if (await fs.stat(candidate).catch(() => null)) return candidate;
  }
  return null;
}

/** mozjpeg at 82: no visible loss on a photo, about a third smaller than libjpeg's default at the same quality. */
const WEB_JPEG = { quality: 82, mozjpeg: true } as const;
const WHITE = { background: "#ffffff" };

/**
 * The web copies of an image and its thumbnail, without the camera's metadata
 * (the GPS position above all). Stills become JPEG because Safari before 14
 * shows no WebP (docs/decisions/013-photo-web-copies.md).
 */
export async function makeImageCopies(
  input: string,
  mime: string,
  quarterTurns: number,
  workDir: string,
  options: ImageOptions = {},
): Promise<ImageCopies> {
  const limits = options.limits ?? PROCESSING_LIMITS;
  const checkDeadline = () => {
    if (options.signal?.aborted) throw tooSlow(limits.imageSeconds);
  };
  const sharp = await loadSharp();
  await fs.mkdir(workDir, { recursive: true });
  let source = input;
  let converted: string | null = null;
  if (mime === "image/heic" || mime === "image/heif") {
    converted = await convertHeifToJpeg(input, workDir, options);
    if (!converted) throw new MediaProblem("unreadable", "the HEIC photo could not be converted; the file may be damaged");
    source = converted;
  }
  try {
    checkDeadline();
    // The header alone: how many pixels decoding would take, before decoding any.
    const meta = await sharp(source, { failOn: "none" })
      .metadata()
      .catch(() => null);
    const width = meta?.width;
    const frameHeight = meta?.pageHeight ?? meta?.height;
    if (!width || !frameHeight) throw unreadablePhoto();
    const framePixels = width * frameHeight;
    if (framePixels > limits.imagePixels) {
      throw new MediaProblem(
        "too-large",
        `the photo is ${width} × ${frameHeight} pixels, and photos up to ${limits.imagePixels / 1_000_000} megapixels can be shown`,
      );
    }
    const frames = meta?.pages ?? 1;
    const animated =
      mime === "image/gif" && frames > 1 && frames <= limits.animationFrames && framePixels * frames <= limits.animationPixels;
    const angle = (((quarterTurns % 4) + 4) % 4) * 90;
    const open = (allFrames: boolean) =>
      sharp(source, {
        failOn: "none",
        animated: allFrames,
        limitInputPixels: allFrames ? limits.animationPixels : limits.imagePixels,
      }).timeout({ seconds: limits.imageSeconds });
    // libheif has already applied a HEIC's own orientation to the pixels.
    const upright = (image: Sharp) => (converted ? image : image.autoOrient());
    // The box is square, so the copies' size does not depend on the turn.
    const box = { width: PHOTO_LONGEST_SIDE, height: PHOTO_LONGEST_SIDE, fit: "inside", withoutEnlargement: true } as const;

    // Decoded once: the first frame, upright, at most the largest copy's size,
    // in sRGB. Every still copy and the thumbnail are made from these pixels;
    // turning them is cheap at this size (STACK-NOTES: 360 ms on the full 24 MP).
    const decoded = await upright(open(false))
      .resize(box)
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true })
      .catch(asProblem(limits));
    checkDeadline();
    const pixels = (data: Buffer, info: OutputInfo) =>
      sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).timeout({ seconds: limits.imageSeconds });
    const turned = angle
      ? await pixels(decoded.data, decoded.info).rotate(angle).raw().toBuffer({ resolveWithObject: true }).catch(asProblem(limits))
      : decoded;
    const still = () => pixels(turned.data, turned.info);

    const sizes: ImageCopies["sizes"] = [];
    if (animated) {
      const file = scratchName(workDir, "gif");
      const image = upright(open(true));
      const info = await (angle ? image.rotate(angle) : image).resize(box).gif().toFile(file).catch(asProblem(limits));
      sizes.push({ file, width: info.width, height: info.pageHeight ?? info.height });
    } else {
      for (const copyWidth of photoWidths(turned.info.width)) {
        checkDeadline();
        const file = scratchName(workDir, "jpg");
        const resized = copyWidth === turned.info.width ? still() : still().resize({ width: copyWidth });
        const info = await resized.flatten(WHITE).jpeg(WEB_JPEG).toFile(file).catch(asProblem(limits));
        sizes.push({ file, width: info.width, height: info.height });
      }
    }
    checkDeadline();
    const thumbnail = scratchName(workDir, "jpg");
    await still()
      .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
      .flatten(WHITE)
      .jpeg({ quality: 80 })
      .toFile(thumbnail)
      .catch(asProblem(limits));
    // EXIF orientations 5 to 8 turn the picture on its side.
    const sideways = !converted && (meta?.orientation ?? 1) >= 5;
    const [uprightWidth, uprightHeight] = sideways ? [frameHeight, width] : [width, frameHeight];
    return {
      sizes,
      format: animated ? { mime: "image/gif", ext: "gif" } : { mime: "image/jpeg", ext: "jpg" },
      thumbnail,
      width: angle % 180 ? uprightHeight : uprightWidth,
      height: angle % 180 ? uprightWidth : uprightHeight,
      animated,
    };
  } finally {
    if (converted) await fs.rm(converted, { force: true });
  }
}

/** sharp's errors as the admin reads them: its own time limit, or a picture it could not decode. */
function asProblem(limits: ProcessingLimits) {
  return (error: unknown): never => {
    if (error instanceof MediaProblem) throw error;
    if (/timeout/i.test(String(error))) throw tooSlow(limits.imageSeconds);
    console.error(JSON.stringify({ level: "warn", msg: "image could not be decoded", error: String(error) }));
    throw unreadablePhoto();
  };
}
