import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { byteRange } from "./byte-range";
import { grantSearchParams } from "./signature.server";
import {
  InvalidPartsError,
  UploadTooLargeError,
  type MediaStorage,
  inlineDisposition,
  READ_CHUNK_BYTES,
  type ServeOptions,
  type StoredPart,
} from "./storage.server";

export class ObjectExistsError extends Error {
  name = "ObjectExistsError";
}

export class UnknownUploadError extends Error {
  name = "UnknownUploadError";
}

/** The address path the disk driver accepts uploads on (answered by app/server/disk-put.server.ts). */
export const DISK_PUT_PATH = "/api/uploads/put/";

const randomName = () => randomBytes(12).toString("base64url");

/** Counts bytes on their way through, failing as soon as there are too many. */
function limitBytes(maxBytes: number, counter: { size: number }) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counter.size += chunk.length;
      if (counter.size > maxBytes) done(new UploadTooLargeError(maxBytes));
      else done(null, chunk);
    },
  });
}

/**
 * Stores media as files under one directory: `objects/` for finished files,
 * `multipart/<uploadId>/` for parts still arriving and `tmp/` for bytes in
 * flight. A file appears under `objects/` only once it is whole (written to
 * tmp, flushed to disk, then linked into place), so a crash never leaves half
 * a file where a finished one is expected.
 */
export class DiskStorage implements MediaStorage {
  readonly kind = "disk" as const;
  private readonly objects: string;
  private readonly tmp: string;
  private readonly multipart: string;

  constructor(
    readonly root: string,
    private readonly secrets: string[],
  ) {
    this.objects = path.join(root, "objects");
    this.tmp = path.join(root, "tmp");
    this.multipart = path.join(root, "multipart");
  }

  private pathOf(key: string) {
    const resolved = path.resolve(this.objects, key);
    if (!resolved.startsWith(path.resolve(this.objects) + path.sep)) throw new Error(`Bad storage key: ${key}`);
    return resolved;
  }

  private uploadDir(uploadId: string) {
    if (!/^[A-Za-z0-9_-]{8,64}$/.test(uploadId)) throw new UnknownUploadError(uploadId);
    return path.join(this.multipart, uploadId);
  }

  /** Streams a body into a fresh temporary file, flushed to disk before it resolves. */
  private async receiveToTemp(body: Readable | AsyncIterable<Buffer>, maxBytes: number) {
    await fs.mkdir(this.tmp, { recursive: true });
    const tmpPath = path.join(this.tmp, randomName());
    const counter = { size: 0 };
    try {
      await pipeline(body, limitBytes(maxBytes, counter), createWriteStream(tmpPath, { flush: true }));
    } catch (error) {
      await fs.rm(tmpPath, { force: true });
      throw error;
    }
    return { tmpPath, size: counter.size };
  }

  /** Moves a finished temporary file to its key; refuses to replace an object. */
  private async place(tmpPath: string, key: string) {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.link(tmpPath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new ObjectExistsError(key);
      throw error;
    } finally {
      await fs.rm(tmpPath, { force: true });
    }
  }

  async signPutUrl(key: string, origin: string, expiresInSeconds: number) {
    const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
    return `${origin}${DISK_PUT_PATH}${key}?${grantSearchParams({ key, expires }, this.secrets)}`;
  }

  async write(key: string, body: Readable | AsyncIterable<Buffer>, options: { contentType: string; maxBytes: number }) {
    const { tmpPath, size } = await this.receiveToTemp(body, options.maxBytes);
    await this.place(tmpPath, key);
    return { size };
  }

  /**
   * Stores a finished local file under `key` by moving it (flushed first)
   * instead of copying it: the public copy of a 1 GB video then needs 1 GB
   * of free room, not 2. The file must be on the same disk (the scratch
   * folder is); otherwise it is copied.
   */
  async adopt(key: string, file: string) {
    const handle = await fs.open(file, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.link(file, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      await this.write(key, createReadStream(file), { contentType: "", maxBytes: Number.MAX_SAFE_INTEGER });
    }
    await fs.rm(file, { force: true });
  }

  /** Whether an object is already stored, so a second PUT can be refused before its body is read. */
  async exists(key: string) {
    return (await this.stat(key)) !== null;
  }

  async stat(key: string) {
    try {
      const stats = await fs.stat(this.pathOf(key));
      return stats.isFile() ? { size: stats.size } : null;
    } catch {
      return null;
    }
  }

  async readHead(key: string, length: number) {
    const handle = await fs.open(this.pathOf(key), "r");
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async read(key: string) {
    const handle = await fs.open(this.pathOf(key), "r");
    return handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
  }

  async withLocalFile<T>(key: string, fn: (file: string) => Promise<T>) {
    return fn(this.pathOf(key));
  }

  async delete(key: string) {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async freeBytes() {
    await fs.mkdir(this.root, { recursive: true });
    const stats = await fs.statfs(this.root);
    return stats.bavail * stats.bsize;
  }

  async serve(key: string, request: Request, options: ServeOptions) {
    const file = this.pathOf(key);
    let stats;
    try {
      stats = await fs.stat(file);
    } catch {
      return new Response("Not found", { status: 404 });
    }
    const etag = `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
    const headers = new Headers({
      "Content-Type": options.contentType,
      "Cache-Control": options.cacheControl,
      "Accept-Ranges": "bytes",
      ETag: etag,
      "Last-Modified": stats.mtime.toUTCString(),
    });
    if (options.downloadName) {
      headers.set("Content-Disposition", inlineDisposition(options.downloadName));
    }
    if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });

    const range = byteRange(request.headers.get("Range"), stats.size);
    if (range === "unsatisfiable") {
      headers.set("Content-Range", `bytes */${stats.size}`);
      return new Response("Requested range not satisfiable", { status: 416, headers });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? stats.size - 1;
    headers.set("Content-Length", String(Math.max(0, end - start + 1)));
    if (range) headers.set("Content-Range", `bytes ${start}-${end}/${stats.size}`);
    const body =
      request.method === "HEAD" || stats.size === 0 ? null : createReadableStreamFromReadable(createReadStream(file, { start, end }));
    return new Response(body, { status: range ? 206 : 200, headers });
  }

  async createMultipartUpload(key: string) {
    const uploadId = randomName();
    const dir = this.uploadDir(uploadId);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "key"), key);
    return uploadId;
  }

  private async requireUpload(key: string, uploadId: string) {
    const dir = this.uploadDir(uploadId);
    const stored = await fs.readFile(path.join(dir, "key"), "utf8").catch(() => null);
    if (stored !== key) throw new UnknownUploadError(uploadId);
    return dir;
  }

  async signPartUrl(key: string, uploadId: string, partNumber: number, origin: string, expiresInSeconds: number) {
    const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
    return `${origin}${DISK_PUT_PATH}${key}?${grantSearchParams({ key, uploadId, partNumber, expires }, this.secrets)}`;
  }

  /** Stores one part; sending the same part again replaces it, so a retry just works. */
  async receivePart(key: string, uploadId: string, partNumber: number, body: Readable | AsyncIterable<Buffer>, maxBytes: number) {
    const dir = await this.requireUpload(key, uploadId);
    const { tmpPath, size } = await this.receiveToTemp(body, maxBytes);
    const partPath = path.join(dir, String(partNumber));
    try {
      await fs.rename(tmpPath, partPath);
    } catch (error) {
      await fs.rm(tmpPath, { force: true });
      throw error;
    }
    return { etag: partETag(await fs.stat(partPath)), size };
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const dir = await this.requireUpload(key, uploadId);
    const names = (await fs.readdir(dir)).filter((name) => /^\d+$/.test(name));
    const parts = await Promise.all(
      names.map(async (name) => {
        const stats = await fs.stat(path.join(dir, name));
        return { PartNumber: Number(name), Size: stats.size, ETag: partETag(stats) };
      }),
    );
    return parts.sort((a, b) => a.PartNumber - b.PartNumber);
  }

  async completeMultipartUpload(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]) {
    const dir = await this.requireUpload(key, uploadId);
    const stored = new Map((await this.listParts(key, uploadId)).map((part) => [part.PartNumber, part]));
    let previous = 0;
    for (const part of parts) {
      const found = stored.get(part.PartNumber);
      if (part.PartNumber <= previous || !found || found.ETag !== normaliseETag(part.ETag)) {
        throw new InvalidPartsError(`Part ${part.PartNumber} is missing, out of order or changed`);
      }
      previous = part.PartNumber;
    }
    if (parts.length === 0) throw new InvalidPartsError("No parts were listed");
    const partFiles = parts.map((part) => path.join(dir, String(part.PartNumber)));
    async function* concatenated() {
      for (const file of partFiles) yield* createReadStream(file);
    }
    const { tmpPath } = await this.receiveToTemp(concatenated(), Number.MAX_SAFE_INTEGER);
    await this.place(tmpPath, key);
    await fs.rm(dir, { recursive: true, force: true });
  }

  async abortMultipartUpload(key: string, uploadId: string) {
    const dir = this.uploadDir(uploadId);
    const stored = await fs.readFile(path.join(dir, "key"), "utf8").catch(() => null);
    if (stored === key) await fs.rm(dir, { recursive: true, force: true });
  }

  /** Removes temporary files older than maxAgeMs (left by a crash mid-upload). */
  async sweepTemporaryFiles(maxAgeMs: number, now = Date.now()) {
    const names = await fs.readdir(this.tmp).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(this.tmp, name);
      const stats = await fs.stat(file).catch(() => null);
      // Processing leaves folders here too (a crash's work folder, a deleted video's segments).
      if (stats && now - stats.mtimeMs > maxAgeMs) await fs.rm(file, { force: true, recursive: stats.isDirectory() });
    }
  }
}

function partETag(stats: { size: number; mtimeMs: number }) {
  return `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

function normaliseETag(etag: string) {
  const bare = etag.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
  return `"${bare}"`;
}
