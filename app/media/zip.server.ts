import { createRequire } from "node:module";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { ZipFile } from "yazl";

// A ZIP written as a stream with yazl: one entry after another, each read
// from its source only as fast as the ZIP is consumed, so memory stays the
// same whatever the files weigh (docs/decisions/014-family-archive.md).

// yazl checks every byte with buffer-crc32, a lookup table in JavaScript
// (about 400 MB/s here, slower than the disk); Node's zlib.crc32 (20.15+,
// 22.2+) computes the same CRC-32 ten times faster. yazl calls only
// `unsigned(chunk, previous)`, with a number for `previous`.
const crc32 = createRequire(import.meta.url)("buffer-crc32") as { unsigned: (data: Buffer, previous?: number | Buffer) => number };
if (typeof zlib.crc32 === "function" && !(crc32.unsigned as { native?: boolean }).native) {
  const javascript = crc32.unsigned;
  const native = (data: Buffer, previous?: number | Buffer) =>
    Buffer.isBuffer(data) && (previous === undefined || typeof previous === "number")
      ? zlib.crc32(data, previous ?? 0)
      : javascript(data, previous);
  crc32.unsigned = Object.assign(native, { native: true });
}

export interface ZipEntry {
  /** The path inside the ZIP, with `/` between folders. */
  name: string;
  /** Opened when the entry's turn comes, never before. */
  open: () => Readable | Promise<Readable>;
  /** Deflate it (text), or store it as it is (photos and videos are compressed already). */
  compress: boolean;
  mtime?: Date;
}

/** Why a ZIP stopped before its end: an entry that could not be read. */
class ZipEntryFailed extends Error {
  name = "ZipEntryFailed";
  constructor(
    readonly entry: string,
    readonly reason: unknown,
  ) {
    super(`${entry} could not be read: ${String(reason)}`);
  }
}

/**
 * The ZIP of `entries`, in their order, as a stream. Each entry's source is
 * opened when its turn comes and piped with back-pressure. When `signal`
 * aborts (the client went away), the source being read is destroyed and the
 * stream ends there. When a source fails to open or read, the stream is
 * destroyed with a ZipEntryFailed: a reader sees a truncated ZIP.
 */
export function zipStream(entries: Iterable<ZipEntry>, { signal }: { signal?: AbortSignal } = {}): Readable {
  const zip = new ZipFile();
  // A PassThrough in fact (yazl writes into it); typed as the interface.
  const output = zip.outputStream as Readable;
  let reading: Readable | null = null;
  const stop = (error?: Error) => {
    reading?.destroy();
    reading = null;
    if (!output.destroyed) output.destroy(error);
  };
  // The reader of `output` sees the error; this only keeps an error nobody
  // is listening for any more (the client left first) from ending the process.
  output.on("error", () => {});
  zip.on("error", (error: Error) => stop(error));

  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { compress: entry.compress, mtime: entry.mtime }, (callback) => {
      if (output.destroyed) return;
      Promise.resolve()
        .then(entry.open)
        .then(
          (source) => {
            if (output.destroyed) return void source.destroy();
            reading = source;
            source.on("error", (error) => stop(new ZipEntryFailed(entry.name, error)));
            source.once("end", () => {
              if (reading === source) reading = null;
            });
            callback(null, source);
          },
          (error: unknown) => stop(new ZipEntryFailed(entry.name, error)),
        );
    });
  }
  zip.end();

  if (signal?.aborted) stop();
  const abort = () => stop();
  signal?.addEventListener("abort", abort, { once: true });
  output.once("close", () => {
    signal?.removeEventListener("abort", abort);
    reading?.destroy();
  });
  return output;
}
