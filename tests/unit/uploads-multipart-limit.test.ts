// The 1 GB per file rule holds for a resumable (multipart) upload even when
// its parts arrive all at once: parts still on their way count, not only the
// parts already on disk. At the real size (1 GiB), on the test's temp disk.
import fs from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { signedUploads, uploads } from "../../db/schema";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { MAX_UPLOAD_BYTES } from "~/media/limits";
import { resetUploadLimits } from "~/uploads/upload-intake.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { bytesStream, put, signPart, startMultipart } from "../support/upload-requests";

beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
  resetUploadLimits();
});

async function bytesOnDisk(dir: string): Promise<number> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let total = 0;
  for (const name of names) {
    const stats = await fs.stat(path.join(dir, name));
    total += stats.isDirectory() ? await bytesOnDisk(path.join(dir, name)) : stats.size;
  }
  return total;
}

describe("a multipart upload never holds more than 1 GB", () => {
  it(
    "20 parts of 60 MiB sent at once: the parts that would pass 1 GB are refused with 413, and at most 1 GB is stored",
    { timeout: 120_000 },
    async () => {
      const PART = 60 * 1024 * 1024;
      const created = await startMultipart();
      expect(created.status).toBe(201);
      const { uploadId, key } = (await created.json()) as { uploadId: string; key: string };
      const urls = await Promise.all(Array.from({ length: 20 }, (_, i) => signPart(uploadId, key, i + 1)));

      const answers = await Promise.all(urls.map((url) => put(url, bytesStream(PART), { length: PART })));
      const stored = await bytesOnDisk(path.join(config.STORAGE_DIR, "multipart", uploadId));
      console.log(`parallel multipart parts: ${answers.filter((a) => a.status === 200).length} stored, ${stored} bytes on disk`);

      expect(stored).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(Math.floor(MAX_UPLOAD_BYTES / PART));
      const refused = answers.filter((answer) => answer.status !== 200);
      expect(refused.map((answer) => answer.status)).toEqual(refused.map(() => 413));
      expect(await refused[0]!.json()).toEqual({ errors: { file: ["The file is larger than 1 GB. Please choose a smaller file."] } });
      // Nothing half-written is left behind by the refused parts.
      expect(await fs.readdir(path.join(config.STORAGE_DIR, "tmp"))).toEqual([]);
    },
  );
});
