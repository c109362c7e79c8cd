import type { Readable } from "node:stream";

/** One part of a multipart upload as the upload widget lists it. */
export interface StoredPart {
  PartNumber: number;
  Size: number;
  ETag: string;
}

export interface ServeOptions {
  contentType: string;
  cacheControl: string;
  /** Offered as the file name when the browser saves it. */
  downloadName?: string;
}

/**
 * Where uploaded media lives: the local disk (the default) or an
 * S3-compatible bucket. Keys are always made by the server.
 */
export interface MediaStorage {
  readonly kind: "disk" | "s3";
  /** An address the browser can PUT one whole file to, once. */
  signPutUrl(key: string, origin: string, expiresInSeconds: number): Promise<string>;
  /** Stores a stream, refusing more than maxBytes (throws UploadTooLargeError). */
  write(key: string, body: Readable | AsyncIterable<Buffer>, options: { contentType: string; maxBytes: number }): Promise<{ size: number }>;
  stat(key: string): Promise<{ size: number } | null>;
  /** The first bytes of an object, to tell its real type. */
  readHead(key: string, length: number): Promise<Buffer>;
  /**
   * The object's bytes as a stream, opened (a missing object rejects here),
   * read only as fast as it is consumed; destroy it to stop early. For
   * reading many large objects one after another (the family's archive).
   */
  read(key: string): Promise<Readable>;
  /** Runs fn with a path on local disk holding the object's bytes. */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  delete(key: string): Promise<void>;
  /** Bytes free for new media (the disk's, as an unprivileged user may use them), or null when the store has no limit we can see. */
  freeBytes(): Promise<number | null>;
  /** A response that gets the object to the browser: the bytes (with Range) or a redirect. */
  serve(key: string, request: Request, options: ServeOptions): Promise<Response>;

  createMultipartUpload(key: string, contentType: string): Promise<string>;
  signPartUrl(key: string, uploadId: string, partNumber: number, origin: string, expiresInSeconds: number): Promise<string>;
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;
  completeMultipartUpload(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]): Promise<void>;
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
}

/** Read in 1 MiB chunks: at gigabytes a second, 64 KiB chunks spend more time passing chunks along than copying bytes (bench/archive.mjs). */
export const READ_CHUNK_BYTES = 1024 * 1024;

export class UploadTooLargeError extends Error {
  name = "UploadTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
  }
}

/** A multipart request that names parts the storage does not have. */
export class InvalidPartsError extends Error {
  name = "InvalidPartsError";
}

/** Content-Disposition for showing a file under its original name (RFC 6266 / 5987 encoding). */
export function inlineDisposition(filename: string) {
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename*=UTF-8''${encoded}`;
}
