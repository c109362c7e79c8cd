import path from "node:path";
import { config } from "~/platform/config.server";
import { noteContentChange } from "~/platform/db.server";
import { DiskStorage } from "./disk-storage.server";
import { S3Storage } from "./s3-storage.server";
import type { MediaStorage } from "./storage.server";

/** The driver the configuration asks for: S3 when BUCKET_NAME is set, else the local disk. */
function createMediaStorage(settings = config): MediaStorage {
  if (settings.BUCKET_NAME) {
    return new S3Storage({
      bucket: settings.BUCKET_NAME,
      endpoint: settings.AWS_ENDPOINT_URL_S3,
      region: settings.AWS_REGION,
      accessKeyId: settings.AWS_ACCESS_KEY_ID,
      secretAccessKey: settings.AWS_SECRET_ACCESS_KEY,
      scratchDir: path.join(settings.STORAGE_DIR, "tmp"),
    });
  }
  return new DiskStorage(settings.STORAGE_DIR, settings.sessionSecrets);
}

/** What only reads the store; every other method (write, delete, a part received, a multipart completed…) changes it. */
const READS = new Set([
  "signPutUrl",
  "signPartUrl",
  "stat",
  "exists",
  "readHead",
  "read",
  "withLocalFile",
  "freeBytes",
  "serve",
  "listParts",
]);

/**
 * The driver, with every change to what it holds counted as a change
 * visitors may see (the render cache's version, app/platform/db.server.ts), once the
 * change has settled. The driver stays the prototype, so its own methods
 * and `instanceof` work as before.
 */
function countingChanges<T extends MediaStorage>(storage: T): T {
  const counted = Object.create(storage) as T;
  let target: object | null = storage;
  while (target && target !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(target)) {
      const method = (storage as unknown as Record<string, unknown>)[name];
      if (name === "constructor" || READS.has(name) || typeof method !== "function" || Object.hasOwn(counted, name)) continue;
      Object.defineProperty(counted, name, {
        writable: true,
        configurable: true,
        value: (...args: unknown[]) => {
          let result: unknown;
          try {
            result = (method as (...a: unknown[]) => unknown).apply(storage, args);
          } catch (error) {
            noteContentChange();
            throw error;
          }
          if (!(result instanceof Promise)) {
            noteContentChange();
            return result;
          }
          return result.finally(noteContentChange);
        },
      });
    }
    target = Object.getPrototypeOf(target) as object | null;
  }
  return counted;
}

let current: MediaStorage | undefined;

export function getMediaStorage(): MediaStorage {
  current ??= countingChanges(createMediaStorage());
  return current;
}

/** Lets a test run the same model code against another real driver (an S3 server on loopback). */
export function useMediaStorage(storage: MediaStorage) {
  current = countingChanges(storage);
}

/** Scratch space on local disk for processing, whichever driver holds the media. */
export function scratchDirectory() {
  return path.join(config.STORAGE_DIR, "tmp");
}
