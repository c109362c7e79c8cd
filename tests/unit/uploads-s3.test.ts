// The S3 driver against a real S3-compatible server (s3rver) on loopback: no mocks.
//
// s3rver 3.7.1 has no ListParts and no AbortMultipartUpload (it answers
// MethodNotAllowed), so listParts and abortMultipartUpload are not tested here.
// It also does not check V4 signatures (any signature passes), nor the part
// ETags named on completion, so tampered addresses and wrong parts cannot be
// tested against it either. And it ignores checksum parameters, so the
// presigned URLs are checked for their absence directly (real S3 rejects the
// empty-body checksum the SDK would otherwise sign into them).
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
// @ts-expect-error s3rver ships no type declarations.
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signedUploads, uploads } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { useMediaStorage } from "~/media/media-storage.server";
import { S3Storage } from "~/media/s3-storage.server";
import { UploadTooLargeError } from "~/media/storage.server";
import { completeUpload, signUpload, UNSUPPORTED_TYPE } from "~/uploads/upload-intake.server";
import { completeMultipartUpload, createMultipartUpload, signMultipartPart } from "~/uploads/upload-parts.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { UploadRefused } from "~/uploads/upload-refusal.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { findMediaFile } from "~/uploads/gallery.server";

const ORIGIN = "http://memorial.test";
const BUCKET = "memorial-test";

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

let server: S3rverServer;
let serverDir: string;
let scratchDir: string;
let storage: S3Storage;

beforeAll(async () => {
  serverDir = await fs.mkdtemp(path.join(os.tmpdir(), "memorial-s3rver-"));
  scratchDir = path.join(serverDir, "scratch");
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(serverDir, "buckets"),
    configureBuckets: [{ name: BUCKET }],
  }) as S3rverServer;
  const { port } = await server.run();
  expect(port).toBeGreaterThan(0);
  storage = new S3Storage({
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    scratchDir,
  });
  useMediaStorage(storage);
});

afterAll(async () => {
  await processingIdle();
  storage?.client.destroy();
  await server?.close();
  if (serverDir) await fs.rm(serverDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
});

const newKey = (prefix = "originals") => `${prefix}/${randomBytes(16).toString("base64url").slice(0, 22)}`;

/** What the scratch folder holds (it may not exist until the driver first needs it). */
async function scratchFiles() {
  return fs.readdir(scratchDir).catch(() => [] as string[]);
}

async function putTo(url: string, body: Buffer | string, headers: Record<string, string> = {}) {
  return fetch(url, { method: "PUT", body: typeof body === "string" ? body : new Uint8Array(body), headers });
}

/** The object's bytes as the bucket holds them, read with a plain presigned GET. */
async function bucketBytes(key: string) {
  const redirect = await storage.serve(key, new Request(`${ORIGIN}/x`), {
    contentType: "application/octet-stream",
    cacheControl: "no-store",
  });
  const response = await fetch(redirect.headers.get("Location")!);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** The Content-Type the bucket stored with an object (no response override). */
async function storedContentType(key: string) {
  return (await storage.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).ContentType;
}

/** A digest to compare large buffers by: vitest's deep equality walks them element by element (tens of seconds for 5 MiB). */
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const photo = () =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: "#aa5533" } })
    .jpeg()
    .toBuffer();

describe("the S3 driver against s3rver", () => {
  it("signs a PUT address without an empty-body checksum, and the bytes sent to it can be stat'ed and read back", async () => {
    const key = newKey();
    const url = await storage.signPutUrl(key, ORIGIN, 600);
    const parsed = new URL(url);
    expect(parsed.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(decodeURIComponent(parsed.pathname)).toBe(`/${BUCKET}/${key}`);
    expect(parsed.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(parsed.searchParams.get("X-Amz-Expires")).toBe("600");
    expect(url.toLowerCase()).not.toContain("x-amz-checksum-crc32");
    expect(url.toLowerCase()).not.toContain("x-amz-sdk-checksum-algorithm");

    expect(await storage.stat(key)).toBeNull();
    const body = randomBytes(70_000);
    const put = await putTo(url, body, { "Content-Type": "application/octet-stream" });
    expect(put.status).toBe(200);

    expect(await storage.stat(key)).toEqual({ size: body.length });
    expect(await storage.readHead(key, 64)).toEqual(body.subarray(0, 64));
    expect(await bucketBytes(key)).toEqual(body);

    let localPath = "";
    const read = await storage.withLocalFile(key, async (file) => {
      localPath = file;
      expect(path.dirname(file)).toBe(scratchDir);
      return fs.readFile(file);
    });
    expect(read).toEqual(body);
    expect(localPath).not.toBe("");
    expect(existsSync(localPath)).toBe(false);
    expect(await scratchFiles()).toEqual([]);

    // The scratch copy goes even when the work on it fails.
    await expect(
      storage.withLocalFile(key, async (file) => {
        localPath = file;
        throw new Error("processing failed");
      }),
    ).rejects.toThrow("processing failed");
    expect(existsSync(localPath)).toBe(false);
    expect(await scratchFiles()).toEqual([]);

    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
  });

  it("writes a stream with its content type, and refuses one that grows past maxBytes, keeping nothing", async () => {
    const key = newKey("media/1");
    const chunks = [randomBytes(10_000), randomBytes(20_000), randomBytes(5)];
    expect(await storage.write(key, Readable.from(chunks), { contentType: "image/png", maxBytes: 30_005 })).toEqual({ size: 30_005 });
    expect(await storage.stat(key)).toEqual({ size: 30_005 });
    expect(await storedContentType(key)).toBe("image/png");
    expect(await bucketBytes(key)).toEqual(Buffer.concat(chunks));
    expect(await scratchFiles()).toEqual([]);

    const tooLarge = newKey();
    async function* endless() {
      for (let i = 0; i < 100; i++) yield Buffer.alloc(64 * 1024, 1);
    }
    const refused = storage.write(tooLarge, endless(), { contentType: "", maxBytes: 1024 * 1024 });
    await expect(refused).rejects.toBeInstanceOf(UploadTooLargeError);
    await expect(refused).rejects.toMatchObject({ maxBytes: 1024 * 1024 });
    expect(await storage.stat(tooLarge)).toBeNull();
    expect(await scratchFiles()).toEqual([]);

    // One byte over is refused too.
    await expect(storage.write(tooLarge, Readable.from(chunks), { contentType: "", maxBytes: 30_004 })).rejects.toBeInstanceOf(
      UploadTooLargeError,
    );
    expect(await storage.stat(tooLarge)).toBeNull();

    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
  });

  it("serves with a 302 to a presigned GET that gives the exact bytes with the asked-for headers", async () => {
    const key = newKey();
    const body = await photo();
    await storage.write(key, Readable.from([body]), { contentType: "application/octet-stream", maxBytes: body.length });

    const response = await storage.serve(key, new Request(`${ORIGIN}/media/1/x`), {
      contentType: "image/jpeg",
      cacheControl: "public, max-age=31536000, immutable",
      downloadName: "Beach day.jpg",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Cache-Control")).toBe("private, max-age=300");
    const location = new URL(response.headers.get("Location")!);
    expect(decodeURIComponent(location.pathname)).toBe(`/${BUCKET}/${key}`);
    expect(location.searchParams.get("response-content-type")).toBe("image/jpeg");
    expect(location.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);

    const followed = await fetch(location);
    expect(followed.status).toBe(200);
    expect(followed.headers.get("Content-Type")).toBe("image/jpeg");
    expect(followed.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(followed.headers.get("Content-Disposition")).toBe("inline; filename*=UTF-8''Beach%20day.jpg");
    expect(Buffer.from(await followed.arrayBuffer())).toEqual(body);

    await storage.delete(key);
    expect((await fetch(location)).status).toBe(404);
  });

  it("joins a multipart upload sent with presigned part addresses", async () => {
    const key = newKey();
    const uploadId = await storage.createMultipartUpload(key, "video/mp4");
    expect(uploadId).toMatch(/\S/);

    // S3 wants every part but the last to be at least 5 MiB.
    const parts = [randomBytes(5 * 1024 * 1024), randomBytes(12_345)];
    const etags: { PartNumber: number; ETag: string }[] = [];
    for (const [index, part] of parts.entries()) {
      const url = await storage.signPartUrl(key, uploadId, index + 1, ORIGIN, 600);
      const parsed = new URL(url);
      expect(parsed.searchParams.get("partNumber")).toBe(String(index + 1));
      expect(parsed.searchParams.get("uploadId")).toBe(uploadId);
      expect(url.toLowerCase()).not.toContain("x-amz-checksum-crc32");
      expect(url.toLowerCase()).not.toContain("x-amz-sdk-checksum-algorithm");
      const response = await putTo(url, part);
      expect(response.status).toBe(200);
      const etag = response.headers.get("ETag");
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      etags.push({ PartNumber: index + 1, ETag: etag! });
    }
    // Nothing is visible under the key until the upload is completed.
    expect(await storage.stat(key)).toBeNull();

    await storage.completeMultipartUpload(key, uploadId, etags);
    const total = parts[0]!.length + parts[1]!.length;
    expect(await storage.stat(key)).toEqual({ size: total });
    expect(await storedContentType(key)).toBe("video/mp4");
    const joined = await bucketBytes(key);
    expect(joined.length).toBe(total);
    expect(sha256(joined)).toBe(sha256(Buffer.concat(parts)));
    expect(await storage.readHead(key, 16)).toEqual(parts[0]!.subarray(0, 16));

    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
  }, 30_000);
});

describe("the upload model with the S3 driver", () => {
  async function refusal(promise: Promise<unknown>): Promise<UploadRefused> {
    const thrown = await promise.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(UploadRefused);
    return thrown as UploadRefused;
  }

  it("registers a photo PUT straight to the bucket, stores its copies there and deletes them all when rejected", async () => {
    const { uploadURL, key } = await signUpload(ORIGIN, { filename: "beach.jpg" });
    expect(key).toMatch(/^originals\/[A-Za-z0-9_-]{22}\.jpg$/);
    expect(decodeURIComponent(new URL(uploadURL).pathname)).toBe(`/${BUCKET}/${key}`);

    const jpeg = await photo();
    expect((await putTo(uploadURL, jpeg, { "Content-Type": "image/jpeg" })).status).toBe(200);

    const view = await completeUpload({ uploadURL, submittedBy: "Aunt May (may@example.com)", type: "IMAGE", originalName: "beach.jpg" });
    expect(view).toMatchObject({ type: "IMAGE", status: "PENDING", originalName: "beach.jpg", width: 900, height: 600 });
    expect(view.thumbnailUrl).toMatch(new RegExp(`^/media/${view.id}/[A-Za-z0-9_-]+-thumb\\.jpg$`));
    await processingIdle();

    const row = db.select().from(uploads).where(eq(uploads.id, view.id)).get()!;
    expect(row.storageKey).toBe(key);
    expect(row.submittedBy).toBe("Aunt May (may@example.com)");
    expect(row.mimeType).toBe("image/jpeg");
    expect(row.sizeBytes).toBe(jpeg.length);
    expect(db.select().from(signedUploads).all()).toHaveLength(0);
    expect(await bucketBytes(key)).toEqual(jpeg);

    const thumb = findMediaFile(view.id, path.posix.basename(view.thumbnailUrl!));
    expect(thumb?.media).toMatchObject({ key: row.thumbnailKey, contentType: "image/jpeg", public: false });
    const thumbBytes = await bucketBytes(thumb!.media.key);
    const thumbMeta = await sharp(thumbBytes).metadata();
    expect(thumbMeta.format).toBe("jpeg");
    expect(thumbMeta.width).toBeLessThan(900);
    expect(await storedContentType(thumb!.media.key)).toBe("image/jpeg");

    const display = findMediaFile(view.id, path.posix.basename(row.displayKey!));
    expect(display?.media.key).toBe(row.displayKey);
    expect((await sharp(await bucketBytes(display!.media.key)).metadata()).width).toBe(900);

    const original = findMediaFile(view.id, path.posix.basename(key));
    expect(original?.media).toMatchObject({ key, public: false, downloadName: "beach.jpg" });

    const keys = [row.storageKey!, row.displayKey!, row.thumbnailKey!];
    expect(new Set(keys).size).toBe(3);
    for (const stored of keys) expect(await storage.stat(stored)).not.toBeNull();
    // Processing left nothing behind on local disk.
    expect(await scratchFiles()).toEqual([]);

    // Completing twice is refused.
    expect(
      await refusal(completeUpload({ uploadURL, submittedBy: "Aunt May (may@example.com)", originalName: "again.jpg" })),
    ).toMatchObject({ status: 400, field: "uploadURL" });

    const rejected = await setUploadStatus(view.id, "REJECTED", operator());
    expect(rejected).toMatchObject({ status: "REJECTED", storageKey: null, displayKey: null, thumbnailKey: null });
    for (const stored of keys) expect(await storage.stat(stored)).toBeNull();
    expect(findMediaFile(view.id, path.posix.basename(view.thumbnailUrl!))).toBeUndefined();
  });

  it("writes a video's web copy to the bucket, next to its original", async () => {
    const avi = path.join(scratchDir, "..", `camera-${randomBytes(4).toString("hex")}.avi`);
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1", "-c:v", "mpeg4", avi],
    ]);
    const bytes = await fs.readFile(avi);
    await fs.rm(avi);
    const { uploadURL, key } = await signUpload(ORIGIN, { filename: "camera.avi" });
    expect((await putTo(uploadURL, bytes, { "Content-Type": "video/x-msvideo" })).status).toBe(200);
    const view = await completeUpload({ uploadURL, submittedBy: "Aunt May (may@example.com)", originalName: "camera.avi" });
    await processingIdle();

    const row = db.select().from(uploads).where(eq(uploads.id, view.id)).get()!;
    expect(row).toMatchObject({ storageKey: key, webVideo: "encoded", processingError: null });
    expect(row.displayKey).toMatch(new RegExp(`^media/${view.id}/[A-Za-z0-9_-]+\\.mp4$`));
    expect(await storedContentType(row.displayKey!)).toBe("video/mp4");
    const copy = path.join(os.tmpdir(), `web-copy-${randomBytes(4).toString("hex")}.mp4`);
    await fs.writeFile(copy, await bucketBytes(row.displayKey!));
    const codec = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", copy]).toString().trim();
    await fs.rm(copy);
    expect(codec).toBe("h264");
    expect(await bucketBytes(key)).toEqual(bytes);
    expect(await scratchFiles()).toEqual([]);
  });

  it("refuses a file that is not a photo or video with 415 and deletes it from the bucket", async () => {
    const { uploadURL, key } = await signUpload(ORIGIN, { filename: "evil.jpg" });
    expect((await putTo(uploadURL, "<html><script>alert(1)</script></html>", { "Content-Type": "image/jpeg" })).status).toBe(200);
    expect(await storage.stat(key)).toEqual({ size: 38 });

    const refused = await refusal(completeUpload({ uploadURL, submittedBy: "x (y@z.com)", type: "IMAGE", originalName: "evil.jpg" }));
    expect(refused).toMatchObject({ status: 415, field: "file", message: UNSUPPORTED_TYPE });
    expect(await storage.stat(key)).toBeNull();
    expect(db.select().from(uploads).all()).toHaveLength(0);
    expect(db.select().from(signedUploads).all()).toHaveLength(0);
  });

  it("refuses to complete before anything was PUT", async () => {
    const { uploadURL, key } = await signUpload(ORIGIN, { filename: "later.jpg" });
    const refused = await refusal(completeUpload({ uploadURL, submittedBy: "Aunt May (may@example.com)", originalName: "later.jpg" }));
    expect(refused).toMatchObject({ status: 400, field: "uploadURL", message: "No file has been uploaded to this uploadURL yet." });
    expect(db.select().from(signedUploads).where(eq(signedUploads.key, key)).all()).toHaveLength(1);
  });

  it("joins a multipart upload in the bucket and registers the file", async () => {
    const jpeg = await photo();
    // The photo first, then filler: the type is read from the first bytes, the part sizes follow S3's rules.
    const first = Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024 - jpeg.length)]);
    const second = Buffer.alloc(1000, 7);
    const { key, uploadId } = await createMultipartUpload({ filename: "big.jpg", contentType: "image/jpeg" });
    expect(key).toMatch(/^originals\/[A-Za-z0-9_-]{22}\.jpg$/);

    const parts: { PartNumber: number; ETag: string }[] = [];
    for (const [index, part] of [first, second].entries()) {
      const { url } = await signMultipartPart(key, uploadId, String(index + 1), ORIGIN);
      const response = await putTo(url, part);
      expect(response.status).toBe(200);
      parts.push({ PartNumber: index + 1, ETag: response.headers.get("ETag")! });
    }
    const { location } = await completeMultipartUpload(key, uploadId, parts, ORIGIN);
    expect(location).toBe(`${ORIGIN}/api/uploads/objects/${key}`);
    expect(await storage.stat(key)).toEqual({ size: first.length + second.length });

    const view = await completeUpload({
      uploadURL: location,
      submittedBy: "Ben (ben@example.com)",
      originalName: "big.jpg",
      type: "IMAGE",
    });
    expect(view).toMatchObject({ type: "IMAGE", status: "PENDING", width: 900, height: 600 });
    await processingIdle();
    const row = db.select().from(uploads).where(eq(uploads.id, view.id)).get()!;
    expect(row.sizeBytes).toBe(first.length + second.length);
    expect(await storage.stat(row.thumbnailKey!)).not.toBeNull();
  }, 30_000);
});
