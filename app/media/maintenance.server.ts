import { cleanupAbandonedUploads, requeueUnprocessedUploads } from "~/models/upload.server";
import { DiskStorage } from "./disk-storage.server";
import { getMediaStorage } from "./media-storage.server";

const HOUR = 60 * 60 * 1000;

async function tidy() {
  try {
    await cleanupAbandonedUploads();
    const storage = getMediaStorage();
    if (storage instanceof DiskStorage) await storage.sweepTemporaryFiles(6 * HOUR);
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", msg: "media maintenance failed", error: String(error) }));
  }
}

let started = false;

/**
 * Once per server process: finish processing that a restart interrupted, and
 * every hour free the bytes of uploads that were started and never finished.
 */
export function startMediaMaintenance() {
  if (started || process.env.NODE_ENV === "test") return;
  started = true;
  requeueUnprocessedUploads();
  void tidy();
  setInterval(() => void tidy(), HOUR).unref();
}
