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
import { unstable_parseMultipartFormData } from "@remix-run/node";
import { config } from "~/config.server";
import { content } from "~/content";
import { ObjectExistsError } from "~/media/disk-storage.server";
import { makeHeroCopies } from "~/media/hero-image.server";
import { getMediaStorage, scratchDirectory } from "~/media/media-storage.server";
import { isMp3File } from "~/media/mp3.server";
import { sniffMediaType } from "~/media/process.server";
import { MediaProblem } from "~/media/processing-limits.server";
import { JobTimedOut } from "~/media/processing-queue.server";
import { fieldErrors, type FieldErrors } from "~/utils/http.server";
import { limitMultipartRequest } from "~/utils/multipart-limits.server";
import { asRefusal, Refusal, STORAGE_FULL } from "~/utils/refusal.server";
import { getStoredValue, setStoredValue, STORED_KEYS, updateSiteSettings } from "./settings.server";
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

/** How a form was answered: done (the route confirms with a redirect), or refused with the reasons. */
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

// ---------------------------------------------------------------------------
// Reading a form with one file

interface MediaForm {
  /** The file input's name. */
  file: string;
  maxFileBytes: number;
  tooLarge: string;
  /** The text fields kept; any other part is read and dropped. */
  fields: readonly string[];
}

interface ReceivedFile {
  /** A scratch file holding the bytes: the caller removes it. */
  path: string;
  size: number;
  /** The name the browser gave, only ever displayed. */
  filename: string;
  /** Of the bytes, base64url: the stored name is made from it. */
  sha256: string;
}

/** The rest of the form around the file: its text, part headers and boundaries. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_TEXT_BYTES = 4096;
const FORM_UNREADABLE = "The form could not be read. Please go back, reload the page and try again.";
const TEXT_TOO_LONG = "The text is longer than this form accepts. Please shorten it and try again.";
const INTERRUPTED = "The upload was interrupted before it finished. Please try again.";

const HERO_FORM: MediaForm = { file: "photo", maxFileBytes: MAX_HERO_PHOTO_BYTES, tooLarge: PHOTO_TOO_LARGE, fields: ["heroImageAlt"] };
const SONG_FORM: MediaForm = { file: "song", maxFileBytes: MAX_KAREN_SONG_BYTES, tooLarge: SONG_TOO_LARGE, fields: ["title"] };

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

async function drain(data: AsyncIterable<Uint8Array>) {
  for await (const chunk of data) void chunk;
}

/**
 * Reads a multipart form of a few text fields and one file, bounded in
 * every way a form can be: the declared and the real size of the body, the
 * number of parts and their headers (limitMultipartRequest), each text
 * field's bytes. The text goes into `fields` as it arrives (so a refusal
 * can give back what was typed); the file is streamed to scratch space,
 * never held in memory. Throws a Refusal the form can show.
 */
async function readMediaForm(request: Request, form: MediaForm, fields: Record<string, string>): Promise<ReceivedFile | null> {
  const maxBodyBytes = form.maxFileBytes + FORM_OVERHEAD_BYTES;
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (declared > maxBodyBytes) throw new Refusal(413, form.file, form.tooLarge);
  await requireRoom(Number.isFinite(declared) ? declared : maxBodyBytes);
  const guarded = limitMultipartRequest(request, {
    maxHeaderBytes: 8 * 1024,
    maxParts: 8,
    maxBodyBytes,
    messages: { header: FORM_UNREADABLE, parts: FORM_UNREADABLE, body: form.tooLarge },
  });
  const scratch = scratchDirectory();
  await fs.mkdir(scratch, { recursive: true });
  let file: ReceivedFile | null = null;
  const written: string[] = [];
  try {
    await unstable_parseMultipartFormData(guarded, async ({ name, filename, data }) => {
      if (filename === undefined) {
        if (!form.fields.includes(name) || name in fields) return drain(data).then(() => undefined);
        const chunks: Uint8Array[] = [];
        let size = 0;
        for await (const chunk of data) {
          size += chunk.byteLength;
          if (size > MAX_TEXT_BYTES) throw new Refusal(413, name, TEXT_TOO_LONG);
          chunks.push(chunk);
        }
        fields[name] = Buffer.concat(chunks).toString("utf8");
        return undefined;
      }
      // No file chosen comes as an empty part without a name.
      if (name !== form.file || filename === "" || file) return drain(data).then(() => undefined);
      const target = path.join(scratch, `site-${randomBytes(9).toString("base64url")}`);
      written.push(target);
      const hash = createHash("sha256");
      let size = 0;
      await pipeline(
        data,
        async function* (source: AsyncIterable<Uint8Array>) {
          for await (const chunk of source) {
            size += chunk.byteLength;
            if (size > form.maxFileBytes) throw new Refusal(413, form.file, form.tooLarge);
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(target),
      );
      file = { path: target, size, filename, sha256: hash.digest("base64url") };
      return undefined;
    });
  } catch (error) {
    await Promise.all(written.map((scratchFile) => fs.rm(scratchFile, { force: true })));
    const refusal = asRefusal(error);
    if (refusal) throw refusal;
    console.error(JSON.stringify({ level: "warn", msg: "a site media form could not be read", error: String(error) }));
    throw new Refusal(400, form.file, INTERRUPTED);
  }
  return file;
}

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
 * Writes a record and answers the one it replaced, in one synchronous step
 * (SQLite here is synchronous, and nothing can run between the two calls),
 * so two uploads at once each delete exactly what they replaced.
 */
function replaceRecord(key: typeof STORED_KEYS.heroImage | typeof STORED_KEYS.karenSong, value: unknown, by: string): unknown {
  const previous = getStoredValue<unknown>(key);
  setStoredValue(key, value, by);
  return previous;
}

// ---------------------------------------------------------------------------
// The hero photo

const HERO_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"]);
/** heif-convert's minute and sharp's minute, and the wait for a visitor's upload in progress. */
const HERO_JOB_LIMIT_MS = 3 * 60_000;

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

/**
 * The hero form (POST /admin/site/hero): a JPEG, PNG, WebP or HEIC photo and
 * the words that describe it (`heroImageAlt`, saved with the settings), or
 * the words alone. The home page shows the new photo once everything is
 * stored; a refusal keeps the one before.
 */
export async function receiveHeroPhotoForm(request: Request, by: string): Promise<SiteMediaAnswer> {
  const values: Record<string, string> = {};
  let scratchFile: string | undefined;
  try {
    const file = await readMediaForm(request, HERO_FORM, values);
    scratchFile = file?.path;
    values.heroImageAlt ??= "";
    const alt = HeroPhotoFields.safeParse({ heroImageAlt: values.heroImageAlt });
    const problems = alt.success ? {} : fieldErrors(alt.error);
    if (!alt.success) return refused(400, [], problems, values);
    if (!file) {
      // No photo chosen: the description alone changes (a typo fixed, a better sentence).
      const saved = await updateSiteSettings({ heroImageAlt: alt.data.heroImageAlt }, by);
      return saved.ok ? { ok: true, saved: "words" } : refused(400, [], saved.errors, values);
    }
    const type = sniffMediaType(await readHead(file.path, 64));
    if (!type || !HERO_TYPES.has(type.mime)) return refused(415, [PHOTO_NOT_SUPPORTED], {}, values);

    const copies = await prepareHeroCopies(file.path, type.mime);
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
      const saved = await updateSiteSettings({ heroImageAlt: alt.data.heroImageAlt }, by);
      if (!saved.ok) {
        await deleteUnused(stored);
        return refused(400, [], saved.errors, values);
      }
      const previous = replaceRecord(STORED_KEYS.heroImage, record, by);
      await deleteUnused(heroKeys(previous));
    } catch (error) {
      await deleteUnused(stored);
      throw error;
    }
    return { ok: true, saved: "file" };
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    return refused(refusal.status, [refusal.message], {}, values, refusal.headers);
  } finally {
    if (scratchFile) await fs.rm(scratchFile, { force: true });
  }
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("base64url");

/** Back to the photo the site came with (and its description); the family's files are deleted. */
export async function resetHeroPhoto(by: string) {
  const previous = replaceRecord(STORED_KEYS.heroImage, null, by);
  await updateSiteSettings({ heroImageAlt: content.heroImageAlt }, by);
  await deleteUnused(heroKeys(previous));
}

// ---------------------------------------------------------------------------
// The Karen Mode song

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
 * The song form (POST /admin/site/song): an MP3 (told from its bytes) and
 * an optional title, or once the family has a song, a new title alone.
 * Karen Mode plays it from the next page on; a refusal keeps the song before.
 */
export async function receiveKarenSongForm(request: Request, by: string): Promise<SiteMediaAnswer> {
  const values: Record<string, string> = {};
  let scratchFile: string | undefined;
  try {
    const file = await readMediaForm(request, SONG_FORM, values);
    scratchFile = file?.path;
    values.title ??= "";
    const title = KarenSongFields.safeParse({ title: values.title });
    const problems = title.success ? {} : fieldErrors(title.error);
    if (!file && !StoredKarenSong.safeParse(getStoredValue(STORED_KEYS.karenSong)).success) {
      return refused(400, [SONG_REQUIRED], problems, values);
    }
    if (!title.success) return refused(400, [], problems, values);
    if (!file) {
      // No file chosen: the family's song keeps playing under a new title (read and written in one step).
      const current = StoredKarenSong.parse(getStoredValue(STORED_KEYS.karenSong));
      setStoredValue(STORED_KEYS.karenSong, { ...current, title: title.data.title || songTitleFromFileName(current.originalName) }, by);
      return { ok: true, saved: "words" };
    }
    if (!(await isMp3File(file.path))) return refused(415, [SONG_NOT_MP3], {}, values);

    const key = `site/song-${contentName(file.sha256)}.mp3`;
    const record: StoredKarenSong = {
      key,
      title: title.data.title || songTitleFromFileName(file.filename),
      originalName: file.filename.slice(0, 255),
      bytes: file.size,
    };
    try {
      await storeOnce(key, () => createReadStream(file.path), { contentType: "audio/mpeg", size: file.size });
      const previous = replaceRecord(STORED_KEYS.karenSong, record, by);
      await deleteUnused(songKeys(previous));
    } catch (error) {
      await deleteUnused([key]);
      throw error;
    }
    return { ok: true, saved: "file" };
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    return refused(refusal.status, [refusal.message], {}, values, refusal.headers);
  } finally {
    if (scratchFile) await fs.rm(scratchFile, { force: true });
  }
}

/** Back to the loop the site came with; the family's file is deleted. */
export async function resetKarenSong(by: string) {
  const previous = replaceRecord(STORED_KEYS.karenSong, null, by);
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
