// The family's archive when the media lives in an S3 bucket: each original
// and thumbnail streamed from the bucket, one after another.
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import yauzl from "yauzl";
import { operator } from "~/platform/actor.server";
import { getMediaStorage, useMediaStorage } from "~/media/media-storage.server";
import { createFamilyArchive } from "~/keepsakes/archive.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { startS3Server, type S3Server } from "../support/s3-server";

let s3: S3Server;
let work: string;
const disk = getMediaStorage();

beforeAll(async () => {
  s3 = await startS3Server();
  useMediaStorage(s3.storage);
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-archive-s3-"));
});
afterAll(async () => {
  await processingIdle();
  useMediaStorage(disk);
  await s3?.stop();
  await fs.rm(work, { recursive: true, force: true });
});

it("streams every published original and its thumbnail from the bucket", async () => {
  const bytes = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#228844" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: "meadow.jpg" });
  const view = await registerFormUpload(key, { submittedBy: "Ann (ann@example.com)", originalName: "meadow.jpg" });
  await processingIdle();
  await setUploadStatus(view.id, "APPROVED", operator());

  const file = path.join(work, "archive.zip");
  await pipeline(createFamilyArchive(), createWriteStream(file));
  const entries = await new Promise<Map<string, Buffer>>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const found = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            found.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on("end", () => resolve(found));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
  const original = [...entries].find(([name]) => name.startsWith("photos/") && name.endsWith("_Ann_meadow.jpg"));
  expect(original?.[1].equals(bytes)).toBe(true);
  const thumbnail = [...entries].find(([name]) => name.startsWith("thumbnails/"));
  expect((await sharp(thumbnail![1]).metadata()).width).toBe(280);
  expect(entries.get("index.html")!.toString()).toContain("meadow.jpg");
});
