// The family's hero photo and Karen Mode song: uploaded from the admin
// panel with plain forms, checked from their own bytes, stored with the
// media driver (local disk or S3) under names made from their contents, and
// recorded in site_settings (STORED_KEYS.heroImage, STORED_KEYS.karenSong).
// A new file replaces the old one only once its record is committed: a
// refusal (too large, not a photo, a full disk) keeps what visitors saw.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Actor } from "~/auth/actor.server";
import { config } from "~/config.server";
import { content } from "~/content";
import type { Transaction } from "~/db.server";
import { ObjectExistsError } from "~/media/disk-storage.server";
import { makeHeroCopies } from "~/media/hero-image.server";
import { getMediaStorage, scratchDirectory } from "~/media/media-storage.server";
import { isMp3File } from "~/media/mp3.server";
import { MediaProblem, sniffMediaType } from "~/media/process.server";
import { JobTimedOut } from "~/media/processing-queue.server";
import { fieldErrors, type FieldErrors } from "~/utils/http.server";
import { FormRefused, type FileSink, type MultipartForm, type MultipartFormLimits } from "~/utils/multipart.server";
import { asRefusal, Refusal, STORAGE_FULL } from "~/utils/refusal.server";
import { getStoredValue, prepareSettingsChange, setStoredValue, STORED_KEYS, updateSiteSettings } from "./settings.server";
import {
  HeroPhotoFields,
  KarenSongFields,
  KAREN_SONG_TITLE_MAX,
  MAX_HERO_PHOTO_BYTES,
  MAX_KAREN_SONG_BYTES,
  PHOTO_NOT_SUPPORTED,
  PHOTO_TOO_LARGE,
  SONG_NOT_MP3,
  SONG_REQUIRED,
  SONG_TOO_LARGE,
  StoredHeroImage,
  StoredKarenSong,
  type SiteMediaFormResult,
} from "./site-media.schema";
import { runUrgentMediaJob } from "./upload-processing.server";

/**
 * How a form was answered: done (a new file, or only the words when no file
 * was chosen: the route confirms with a redirect), or refused with the reasons.
 */
export type SiteMediaAnswer =
  { ok: true; saved: "file" | "words" } | { ok: false; status: number; result: SiteMediaFormResult; headers?: Record<string, string> };

const refused = (
  status: number,
  formErrors: string[],
  errors: FieldErrors,
  values: Record<string, string>,
  headers?: Record<string, string>,
): SiteMediaAnswer => ({ ok: false, status, result: { formErrors, fieldErrors: errors, values }, headers });

/**
 * A refusal as the form's answer, with what was typed (`values`, else the
 * fields read before the reader's refusal); anything else is a fault and is thrown.
 */
export function refusedSiteMediaForm(error: unknown, values?: Record<string, string>): SiteMediaAnswer {
  const refusal = asRefusal(error);
  if (!refusal) throw error;
  const typed = values ?? (refusal instanceof FormRefused ? { ...refusal.fields } : {});
  return refused(refusal.status, [refusal.message], {}, typed, refusal.headers);
}

// ---------------------------------------------------------------------------
// The forms: a few words and one file

/** The rest of the form around the file: its text, part headers and boundaries. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_TEXT_BYTES = 4096;
const FORM_UNREADABLE = "The form could not be read. Please go back, reload the page and try again.";
const TEXT_TOO_LONG = "The text is longer than this form accepts. Please shorten it and try again.";

/** The limits of a form of a few text fields (`fields`; any other part is read and dropped) and one file. */
function siteMediaForm(form: { file: string; maxFileBytes: number; tooLarge: string; fields: readonly string[] }): MultipartFormLimits {
  return {
    maxBodyBytes: form.maxFileBytes + FORM_OVERHEAD_BYTES,
    maxParts: 8,
    maxHeaderBytes: 8 * 1024,
    fields: form.fields,
    maxFieldBytes: MAX_TEXT_BYTES,
    fileField: form.file,
    maxFiles: 1,
    maxFileBytes: form.maxFileBytes,
    oversizedFile: { refuse: form.tooLarge },
    // The route sends only a multipart form here (the reset form is url-encoded).
    messages: {
      notAForm: FORM_UNREADABLE,
      tooLarge: form.tooLarge,
      header: FORM_UNREADABLE,
      parts: FORM_UNREADABLE,
      fieldTooLong: TEXT_TOO_LONG,
    },
  };
}

/** A form's file in scratch space, removed once the form is answered (removeScratchFiles). */
interface ScratchFile {
  path: string;
  /** Of the bytes, base64url: the stored name is made from it. */
  sha256: string;
}

let lastFullNotice = 0;

/**
 * Refuses (507, before any byte is read) a file that would bring the disk
 * below the free space it always keeps for the database and the published
 * media: the file waits in scratch space, and its copies need room too.
 */
async function requireRoom(bytes: number) {
  const free = await getMediaStorage().freeBytes();
  if (free === null || free - 2 * bytes >= config.MIN_FREE_DISK_BYTES) return;
  if (Date.now() - lastFullNotice > 60_000) {
    lastFullNotice = Date.now();
    console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", msg: "site media refused: disk full", free, bytes }));
  }
  throw new Refusal(507, "file", STORAGE_FULL);
}

/** Streams a form's file to scratch space (never into memory), hashing it on the way; the disk must have room for it first. */
function scratchFileSink(): FileSink<ScratchFile> {
  return {
    async open(bytes) {
      await requireRoom(bytes);
      await fs.mkdir(scratchDirectory(), { recursive: true });
    },
    async write({ data }) {
      const target = path.join(scratchDirectory(), `site-${randomBytes(9).toString("base64url")}`);
      const hash = createHash("sha256");
      try {
        await pipeline(
          data,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              hash.update(chunk);
              yield chunk;
            }
          },
          createWriteStream(target),
        );
      } catch (error) {
        await fs.rm(target, { force: true });
        throw error;
      }
      return { path: target, sha256: hash.digest("base64url") };
    },
    discard: (file) => fs.rm(file.path, { force: true }),
  };
}

async function removeScratchFiles(form: MultipartForm<ScratchFile>) {
  await Promise.all(form.files.map((file) => fs.rm(file.stored.path, { force: true })));
}

// ---------------------------------------------------------------------------
// Storing and replacing

const contentName = (sha256: string) => sha256.replace(/=+$/, "").slice(0, 16);

/** Stores bytes under a name made from them; the same bytes already stored are left as they are. */
async function storeOnce(key: string, body: () => Readable, options: { contentType: string; size: number }) {
  const storage = getMediaStorage();
  if (await storage.stat(key)) return;
  try {
    await storage.write(key, body(), { contentType: options.contentType, maxBytes: options.size });
  } catch (error) {
    if (!(error instanceof ObjectExistsError)) throw error;
  }
}

const heroKeys = (stored: unknown): string[] => {
  const parsed = StoredHeroImage.safeParse(stored);
  return parsed.success ? parsed.data.copies.flatMap((copy) => [copy.webp, copy.jpeg]) : [];
};
const songKeys = (stored: unknown): string[] => {
  const parsed = StoredKarenSong.safeParse(stored);
  return parsed.success ? [parsed.data.key] : [];
};

/** Every file the current records name (and so must be kept and may be served). */
function keysInUse(): Set<string> {
  return new Set([...heroKeys(getStoredValue(STORED_KEYS.heroImage)), ...songKeys(getStoredValue(STORED_KEYS.karenSong))]);
}

/** Removes files no record names any longer; a file that cannot be removed is only logged (it is never served). */
async function deleteUnused(keys: string[]) {
  const inUse = keysInUse();
  const storage = getMediaStorage();
  for (const key of new Set(keys)) {
    if (inUse.has(key)) continue;
    try {
      await storage.delete(key);
    } catch (error) {
      console.error(JSON.stringify({ level: "warn", msg: "could not delete a replaced site file", key, error: String(error) }));
    }
  }
}

/**
 * Writes a record and answers the one it replaced, in the caller's commit,
 * so two uploads at once each delete exactly what they replaced.
 */
function replaceRecord(
  tx: Transaction,
  key: typeof STORED_KEYS.heroImage | typeof STORED_KEYS.karenSong,
  value: unknown,
  by: string | null,
): unknown {
  const previous = getStoredValue<unknown>(key, tx);
  setStoredValue(tx, key, value, by);
  return previous;
}

// ---------------------------------------------------------------------------
// The hero photo

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
    const type = sniffMediaType(await readHead(file.stored.path, 64));
    if (!type || !HERO_TYPES.has(type.mime)) return refused(415, [PHOTO_NOT_SUPPORTED], {}, values);

    const copies = await prepareHeroCopies(file.stored.path, type.mime);
    const record: StoredHeroImage = { copies: [], originalName: file.filename.slice(0, 255), bytes: 0 };
    const stored: string[] = [];
    try {
      for (const copy of copies) {
        const names = {
          webp: `site/hero-${copy.width}w-${contentName(sha256(copy.webp))}.webp`,
          jpeg: `site/hero-${copy.width}w-${contentName(sha256(copy.jpeg))}.jpg`,
        };
        stored.push(names.webp, names.jpeg);
        await storeOnce(names.webp, () => Readable.from([copy.webp]), { contentType: "image/webp", size: copy.webp.length });
        await storeOnce(names.jpeg, () => Readable.from([copy.jpeg]), { contentType: "image/jpeg", size: copy.jpeg.length });
        record.copies.push({ width: copy.width, height: copy.height, ...names });
        record.bytes += copy.webp.length + copy.jpeg.length;
      }
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

// ---------------------------------------------------------------------------
// The Karen Mode song

/** The song form (POST /admin/site/song): an MP3 of up to 15 MB and its title. */
export const KAREN_SONG_FORM = siteMediaForm({
  file: "song",
  maxFileBytes: MAX_KAREN_SONG_BYTES,
  tooLarge: SONG_TOO_LARGE,
  fields: ["title"],
});

/** Where the song form's file waits while it is checked: a scratch file, once the disk has room for it. */
export const karenSongSink = () => scratchFileSink();

const DEFAULT_SONG_TITLE = "Karen Mode song";

/** "Dancing Queen.mp3" → "Dancing Queen": the title when the family gives none. */
export function songTitleFromFileName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const title = base
    .replace(/\.[^.]{1,5}$/, "")
    .replace(/[\s_]+/g, " ")
    .trim()
    .slice(0, KAREN_SONG_TITLE_MAX)
    .trim();
  return title || DEFAULT_SONG_TITLE;
}

/**
 * The song form, read (KAREN_SONG_FORM, karenSongSink): an MP3 (told from
 * its bytes) and an optional title, or once the family has a song, a new
 * title alone. Karen Mode plays it from the next page on; a refusal keeps the
 * song before. The song's scratch file is removed.
 */
export async function receiveKarenSongForm(form: MultipartForm<ScratchFile>, by: Actor): Promise<SiteMediaAnswer> {
  const values: Record<string, string> = { ...form.fields };
  const file = form.files[0];
  try {
    values.title ??= "";
    const title = KarenSongFields.safeParse({ title: values.title });
    const problems = title.success ? {} : fieldErrors(title.error);
    if (!file && !StoredKarenSong.safeParse(getStoredValue(STORED_KEYS.karenSong)).success) {
      return refused(400, [SONG_REQUIRED], problems, values);
    }
    if (!title.success) return refused(400, [], problems, values);
    if (!file) {
      // No file chosen: the family's song keeps playing under a new title (read and written in one commit).
      const newTitle = title.data.title;
      by.commit((tx) => {
        const current = StoredKarenSong.parse(getStoredValue(STORED_KEYS.karenSong, tx));
        setStoredValue(
          tx,
          STORED_KEYS.karenSong,
          { ...current, title: newTitle || songTitleFromFileName(current.originalName) },
          by.username,
        );
      });
      return { ok: true, saved: "words" };
    }
    if (!(await isMp3File(file.stored.path))) return refused(415, [SONG_NOT_MP3], {}, values);

    const key = `site/song-${contentName(file.stored.sha256)}.mp3`;
    const record: StoredKarenSong = {
      key,
      title: title.data.title || songTitleFromFileName(file.filename),
      originalName: file.filename.slice(0, 255),
      bytes: file.size,
    };
    try {
      await storeOnce(key, () => createReadStream(file.stored.path), { contentType: "audio/mpeg", size: file.size });
      const previous = by.commit((tx) => replaceRecord(tx, STORED_KEYS.karenSong, record, by.username));
      await deleteUnused(songKeys(previous));
    } catch (error) {
      await deleteUnused([key]);
      throw error;
    }
    return { ok: true, saved: "file" };
  } catch (error) {
    return refusedSiteMediaForm(error, values);
  } finally {
    await removeScratchFiles(form);
  }
}

/** Back to the loop the site came with; the family's file is deleted. */
export async function resetKarenSong(by: Actor) {
  const previous = by.commit((tx) => replaceRecord(tx, STORED_KEYS.karenSong, null, by.username));
  await deleteUnused(songKeys(previous));
}

// ---------------------------------------------------------------------------
// Serving

const CONTENT_TYPES: Record<string, string> = { webp: "image/webp", jpg: "image/jpeg", mp3: "audio/mpeg" };

/**
 * The stored file behind GET /media/site/{file}, or null: only the files the
 * current records name are served (a replaced one is gone, and nothing else
 * in storage can be reached through this address).
 */
export function findSiteMediaFile(file: string): { key: string; contentType: string } | null {
  const match = /^(?:hero|song)-[A-Za-z0-9_-]+\.(webp|jpg|mp3)$/.exec(file);
  if (!match) return null;
  const key = `site/${file}`;
  if (!keysInUse().has(key)) return null;
  return { key, contentType: CONTENT_TYPES[match[1]!]! };
}
