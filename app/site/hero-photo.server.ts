// The family's hero photo: uploaded from the admin panel with a plain form,
// checked from its own bytes, made into copies of several widths, stored with
// the media driver (local disk or S3) under names made from their contents,
// and recorded in site_settings (STORED_KEYS.heroImage). A new photo replaces
// the old one only once its record is committed: a refusal (too large, not a
// photo, a full disk) keeps what visitors saw.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import type { Actor } from "~/platform/actor.server";
import { content } from "~/content";
import { makeHeroCopies } from "~/media/hero-image.server";
import { runUrgentMediaJob } from "~/media/media-jobs.server";
import { scratchDirectory } from "~/media/media-storage.server";
import { sniffMediaType } from "~/media/process.server";
import { MediaProblem } from "~/media/processing-limits.server";
import { JobTimedOut } from "~/media/processing-queue.server";
import { fieldErrors } from "~/platform/http.server";
import type { MultipartForm } from "~/platform/multipart.server";
import { Refusal } from "~/platform/refusal.server";
import { prepareSettingsChange, STORED_KEYS, updateSiteSettings } from "./settings.server";
import {
  contentName,
  deleteUnused,
  heroKeys,
  refused,
  refusedSiteMediaForm,
  removeScratchFiles,
  replaceRecord,
  scratchFileSink,
  siteMediaForm,
  storeOnce,
  type ScratchFile,
  type SiteMediaAnswer,
} from "./site-media-files.server";
import { HeroPhotoFields, MAX_HERO_PHOTO_BYTES, PHOTO_NOT_SUPPORTED, PHOTO_TOO_LARGE, StoredHeroImage } from "./site-media.schema";

/** The hero form (POST /admin/site/hero): a photo of up to 25 MB and the words that describe it. */
export const HERO_PHOTO_FORM = siteMediaForm({
  file: "photo",
  maxFileBytes: MAX_HERO_PHOTO_BYTES,
  tooLarge: PHOTO_TOO_LARGE,
  fields: ["heroImageAlt"],
});

/** Where the hero form's photo waits while it is checked: a scratch file, once the disk has room for it and its copies. */
export const heroPhotoSink = () => scratchFileSink();

const HERO_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"]);
/** heif-convert's minute and sharp's minute, and the wait for a visitor's upload in progress. */
const HERO_JOB_LIMIT_MS = 3 * 60_000;

async function readHead(file: string, length: number) {
  const handle = await fs.open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The copies of the photo in `file`, made in the media queue; refusals say why the photo cannot be used. */
async function prepareHeroCopies(file: string, mime: string) {
  try {
    return await runUrgentMediaJob((signal) => makeHeroCopies(file, mime, scratchDirectory(), { signal }), HERO_JOB_LIMIT_MS);
  } catch (error) {
    if (error instanceof MediaProblem) {
      const status = error.kind === "too-large" ? 413 : error.kind === "failed" ? 503 : 422;
      throw new Refusal(status, "photo", `This photo could not be used: ${error.message}.`);
    }
    if (error instanceof JobTimedOut) {
      throw new Refusal(422, "photo", "Preparing this photo took too long, so it was stopped. Please try a smaller photo.");
    }
    throw error;
  }
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("base64url");

/**
 * The photo in a form's scratch `file` as web copies of several widths,
 * stored under `site/<prefix>-…` (names made from their contents), and the
 * record that names them; null when the file is not a photo the site can
 * use. Copies stored before a failure are deleted again.
 */
export async function storePhotoCopies(
  file: { stored: ScratchFile; filename: string },
  prefix: "hero" | "life",
): Promise<{ record: StoredHeroImage; stored: string[] } | null> {
  const type = sniffMediaType(await readHead(file.stored.path, 64));
  if (!type || !HERO_TYPES.has(type.mime)) return null;
  const copies = await prepareHeroCopies(file.stored.path, type.mime);
  const record: StoredHeroImage = { copies: [], originalName: file.filename.slice(0, 255), bytes: 0 };
  const stored: string[] = [];
  try {
    for (const copy of copies) {
      const names = {
        webp: `site/${prefix}-${copy.width}w-${contentName(sha256(copy.webp))}.webp`,
        jpeg: `site/${prefix}-${copy.width}w-${contentName(sha256(copy.jpeg))}.jpg`,
      };
      stored.push(names.webp, names.jpeg);
      await storeOnce(names.webp, () => Readable.from([copy.webp]), { contentType: "image/webp", size: copy.webp.length });
      await storeOnce(names.jpeg, () => Readable.from([copy.jpeg]), { contentType: "image/jpeg", size: copy.jpeg.length });
      record.copies.push({ width: copy.width, height: copy.height, ...names });
      record.bytes += copy.webp.length + copy.jpeg.length;
    }
  } catch (error) {
    await deleteUnused(stored);
    throw error;
  }
  return { record, stored };
}

/**
 * The hero form, read (HERO_PHOTO_FORM, heroPhotoSink): a JPEG, PNG, WebP or
 * HEIC photo and the words that describe it (`heroImageAlt`, saved with the
 * settings), or the words alone. The home page shows the new photo once
 * everything is stored; a refusal keeps the one before. The photo's scratch
 * file is removed.
 */
export async function receiveHeroPhotoForm(form: MultipartForm<ScratchFile>, by: Actor): Promise<SiteMediaAnswer> {
  const values: Record<string, string> = { ...form.fields };
  const file = form.files[0];
  try {
    values.heroImageAlt ??= "";
    const alt = HeroPhotoFields.safeParse({ heroImageAlt: values.heroImageAlt });
    const problems = alt.success ? {} : fieldErrors(alt.error);
    if (!alt.success) return refused(400, [], problems, values);
    if (!file) {
      // No photo chosen: the description alone changes (a typo fixed, a better sentence).
      const saved = await updateSiteSettings({ heroImageAlt: alt.data.heroImageAlt }, by);
      return saved.ok ? { ok: true, saved: "words" } : refused(400, [], saved.errors, values);
    }
    const photo = await storePhotoCopies(file, "hero");
    if (!photo) return refused(415, [PHOTO_NOT_SUPPORTED], {}, values);
    const { record, stored } = photo;
    try {
      const words = await prepareSettingsChange({ heroImageAlt: alt.data.heroImageAlt });
      if (!words.ok) {
        await deleteUnused(stored);
        return refused(400, [], words.errors, values);
      }
      // The photo and its words change together, or (the admin's session ended meanwhile) neither.
      const previous = by.commit((tx) => {
        words.write(tx, by.username);
        return replaceRecord(tx, STORED_KEYS.heroImage, record, by.username);
      });
      await deleteUnused(heroKeys(previous));
    } catch (error) {
      await deleteUnused(stored);
      throw error;
    }
    return { ok: true, saved: "file" };
  } catch (error) {
    return refusedSiteMediaForm(error, values);
  } finally {
    await removeScratchFiles(form);
  }
}

/** Back to the photo the site came with (and its description); the family's files are deleted. */
export async function resetHeroPhoto(by: Actor) {
  const words = await prepareSettingsChange({ heroImageAlt: content.heroImageAlt });
  const previous = by.commit((tx) => {
    // The description the site came with always passes the rules.
    if (words.ok) words.write(tx, by.username);
    return replaceRecord(tx, STORED_KEYS.heroImage, null, by.username);
  });
  await deleteUnused(heroKeys(previous));
}
