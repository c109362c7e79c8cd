import { once } from "node:events";
// What the family's hero photo (hero-photo.server.ts) and Karen Mode song
// (karen-song.server.ts) share: their forms' limits and the scratch file each
// form's file is streamed to, how a form is answered, and their files in
// storage (named from their contents, kept while a record in site_settings
// names them, served at /media/site/{file}).
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { config } from "~/platform/config.server";
import type { Transaction } from "~/platform/db.server";
import { ObjectExistsError } from "~/media/disk-storage.server";
import { getMediaStorage, scratchDirectory } from "~/media/media-storage.server";
import type { FieldErrors } from "~/platform/http.server";
import { FormRefused, type FileSink, type MultipartForm, type MultipartFormLimits } from "~/platform/multipart.server";
import { asRefusal, Refusal, STORAGE_FULL } from "~/platform/refusal.server";
import { getStoredValue, setStoredValue, STORED_KEYS } from "./settings.server";
import { StoredHeroImage, StoredKarenSong, type SiteMediaFormResult } from "./site-media.schema";

/**
 * How a form was answered: done (a new file, or only the words when no file
 * was chosen: the route confirms with a redirect), or refused with the reasons.
 */
export type SiteMediaAnswer =
  { ok: true; saved: "file" | "words" } | { ok: false; status: number; result: SiteMediaFormResult; headers?: Record<string, string> };

export const refused = (
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
export function siteMediaForm(form: {
  file: string;
  maxFileBytes: number;
  tooLarge: string;
  fields: readonly string[];
}): MultipartFormLimits {
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
export interface ScratchFile {
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
export function scratchFileSink(): FileSink<ScratchFile> {
  return {
    async open(bytes) {
      await requireRoom(bytes);
      await fs.mkdir(scratchDirectory(), { recursive: true });
    },
    async write({ data }) {
      const target = path.join(scratchDirectory(), `site-${randomBytes(9).toString("base64url")}`);
      const hash = createHash("sha256");
      const out = createWriteStream(target);
      try {
        await pipeline(
          data,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              hash.update(chunk);
              yield chunk;
            }
          },
          out,
        );
      } catch (error) {
        // A file refused in its first bytes can fail before the file is even open: wait for the
        // stream to close, or the file would be created after it was removed.
        if (!out.closed) await once(out, "close").catch(() => undefined);
        await fs.rm(target, { force: true });
        throw error;
      }
      return { path: target, sha256: hash.digest("base64url") };
    },
    discard: (file) => fs.rm(file.path, { force: true }),
  };
}

export async function removeScratchFiles(form: MultipartForm<ScratchFile>) {
  await Promise.all(form.files.map((file) => fs.rm(file.stored.path, { force: true })));
}

// ---------------------------------------------------------------------------
// Storing and replacing

export const contentName = (sha256: string) => sha256.replace(/=+$/, "").slice(0, 16);

/** Stores bytes under a name made from them; the same bytes already stored are left as they are. */
export async function storeOnce(key: string, body: () => Readable, options: { contentType: string; size: number }) {
  const storage = getMediaStorage();
  if (await storage.stat(key)) return;
  try {
    await storage.write(key, body(), { contentType: options.contentType, maxBytes: options.size });
  } catch (error) {
    if (!(error instanceof ObjectExistsError)) throw error;
  }
}

export const heroKeys = (stored: unknown): string[] => {
  const parsed = StoredHeroImage.safeParse(stored);
  return parsed.success ? parsed.data.copies.flatMap((copy) => [copy.webp, copy.jpeg]) : [];
};
export const songKeys = (stored: unknown): string[] => {
  const parsed = StoredKarenSong.safeParse(stored);
  return parsed.success ? [parsed.data.key] : [];
};

/** Every file the current records name (and so must be kept and may be served). */
function keysInUse(): Set<string> {
  return new Set([
    ...heroKeys(getStoredValue(STORED_KEYS.heroImage)),
    ...songKeys(getStoredValue(STORED_KEYS.karenSong)),
    ...heroKeys(getStoredValue(STORED_KEYS.lifePhoto)),
  ]);
}

/** Removes files no record names any longer; a file that cannot be removed is only logged (it is never served). */
export async function deleteUnused(keys: string[]) {
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
export function replaceRecord(
  tx: Transaction,
  key: typeof STORED_KEYS.heroImage | typeof STORED_KEYS.karenSong | typeof STORED_KEYS.lifePhoto,
  value: unknown,
  by: string | null,
): unknown {
  const previous = getStoredValue<unknown>(key, tx);
  setStoredValue(tx, key, value, by);
  return previous;
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
  const match = /^(?:hero|song|life)-[A-Za-z0-9_-]+\.(webp|jpg|mp3)$/.exec(file);
  if (!match) return null;
  const key = `site/${file}`;
  if (!keysInUse().has(key)) return null;
  return { key, contentType: CONTENT_TYPES[match[1]!]! };
}
