import path from "node:path";
import { config } from "~/config.server";
import { DiskStorage } from "./disk-storage.server";
import { S3Storage } from "./s3-storage.server";
import type { MediaStorage } from "./storage.server";

/** The driver the configuration asks for: S3 when BUCKET_NAME is set, else the local disk. */
export function createMediaStorage(settings = config): MediaStorage {
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

let current: MediaStorage | undefined;

export function getMediaStorage(): MediaStorage {
  current ??= createMediaStorage();
  return current;
}

/** Lets a test run the same model code against another real driver (an S3 server on loopback). */
export function useMediaStorage(storage: MediaStorage) {
  current = storage;
}

/** Scratch space on local disk for processing, whichever driver holds the media. */
export function scratchDirectory() {
  return path.join(config.STORAGE_DIR, "tmp");
}
