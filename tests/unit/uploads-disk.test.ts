import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { signedUploads, uploads } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { DiskStorage } from "~/media/disk-storage.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { signGrant } from "~/media/signature.server";
import { UploadTooLargeError } from "~/media/storage.server";
import {
  ABANDONED_AFTER_MS,
  cleanupAbandonedUploads,
  resetUploadLimits,
  TOO_MANY_UPLOADS,
  UNREADABLE_FILE,
  UPLOADS_PER_10_MINUTES,
} from "~/uploads/upload-intake.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { action as completeAction } from "~/routes/api.uploads.complete";
import { action as signAction } from "~/routes/api.uploads.sign";
import { action as createMultipartAction } from "~/routes/api.uploads.s3.multipart";
import { action as abortAction, loader as listPartsLoader } from "~/routes/api.uploads.s3.multipart.$uploadId";
import { loader as signPartLoader } from "~/routes/api.uploads.s3.multipart.$uploadId.$partNumber";
import { action as completeMultipartAction } from "~/routes/api.uploads.s3.multipart.$uploadId.complete";
import { loader as mediaLoader } from "~/routes/media.$id.$file";
import { action as shareAction } from "~/routes/share";
import { diskPut } from "../support/upload-requests";

const ORIGIN = "http://memorial.test";
const fixtures = path.resolve(__dirname, "../fixtures");

beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
  resetUploadLimits();
});

const args = <T extends object>(request: Request, params: Record<string, string> = {}) =>
  ({ request, params, context: {} }) as unknown as T;

async function settle(promise: Promise<unknown> | unknown): Promise<Response> {
  const result = await Promise.resolve(promise).catch((thrown: unknown) => thrown);
  if (!(result instanceof Response)) throw new Error(`expected a Response, got ${String(result)}`);
  return result;
}

async function sign(): Promise<string> {
  const response = await settle(signAction(args(new Request(`${ORIGIN}/api/uploads/sign`, { method: "POST" }))));
  expect(response.status).toBe(200);
  const { uploadURL } = (await response.json()) as { uploadURL: string };
  return uploadURL;
}

/** Sends a PUT to a signed address, as the browser would (with its Content-Length). */
function put(uploadURL: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const length = String(typeof body === "string" ? Buffer.byteLength(body) : body.length);
  const request = new Request(uploadURL, {
    method: "PUT",
    body,
    headers: { "Content-Length": length, ...headers },
    duplex: "half",
  } as RequestInit);
  return diskPut(request);
}

/** Completes an upload, by default with the name and email the share form asks for. */
function complete(body: Record<string, unknown>) {
  const request = new Request(`${ORIGIN}/api/uploads/complete`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ submittedBy: "Aunt May (may@example.com)", ...body }),
  });
  return settle(completeAction(args(request)));
}

function media(url: string, headers: Record<string, string> = {}) {
  const [, , id, file] = url.split("/");
  return settle(mediaLoader(args(new Request(`${ORIGIN}${url}`, { headers }), { id: id!, file: file! })));
}

const photo = () =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: "#aa5533" } })
    .jpeg()
    .toBuffer();

describe("a direct upload to the local disk", () => {
  it("signs, accepts the file once and registers it as a PENDING upload with a thumbnail", async () => {
    const uploadURL = await sign();
    expect(uploadURL).toMatch(/^http:\/\/memorial\.test\/api\/uploads\/put\/originals\/[A-Za-z0-9_-]{22}\?expires=\d+&signature=/);
    expect((await put(uploadURL, await photo(), { "Content-Type": "image/jpeg" })).status).toBe(200);

    const again = await put(uploadURL, await photo());
    expect(again.status).toBe(409);

    const response = await complete({
      uploadURL,
      submittedBy: "Aunt May (may@example.com)",
      type: "VIDEO",
      originalName: "beach.jpg",
      width: 1,
      height: 1,
      durationSec: 99,
    });
    expect(response.status).toBe(201);
    const upload = (await response.json()) as Record<string, unknown>;
    expect(upload).toMatchObject({
      type: "IMAGE",
      status: "PENDING",
      originalName: "beach.jpg",
      width: 900,
      height: 600,
      durationSec: null,
    });
    expect(upload).not.toHaveProperty("submittedBy");
    expect(upload.thumbnailUrl).toMatch(/^\/media\/\d+\/[A-Za-z0-9_-]+-thumb\.jpg$/);

    const row = db
      .select()
      .from(uploads)
      .where(eq(uploads.id, upload.id as number))
      .get()!;
    expect(row.submittedBy).toBe("Aunt May (may@example.com)");
    expect(row.mimeType).toBe("image/jpeg");

    // Completing twice is refused.
    expect((await complete({ uploadURL })).status).toBe(400);
  });

  it("refuses a tampered or expired signature with 403", async () => {
    const uploadURL = await sign();
    const tampered = uploadURL.replace(/originals\/[A-Za-z0-9_-]{22}/, "originals/AAAAAAAAAAAAAAAAAAAAAA");
    expect((await put(tampered, "x")).status).toBe(403);
    const url = new URL(uploadURL);
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 60));
    expect((await put(url.toString(), "x")).status).toBe(403);

    const key = decodeURIComponent(new URL(uploadURL).pathname.replace("/api/uploads/put/", ""));
    const expires = Math.floor(Date.now() / 1000) - 5;
    const expired = `${ORIGIN}/api/uploads/put/${key}?expires=${expires}&signature=${signGrant({ key, expires }, config.sessionSecrets)}`;
    const response = await put(expired, "x");
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ errors: { signature: ["Request has expired"] } });
  });

  it("refuses a body declared larger than 1 GB before reading it", async () => {
    const uploadURL = await sign();
    const response = await put(uploadURL, "tiny", { "Content-Length": String(1_073_741_825) });
    expect(response.status).toBe(413);
  });

  it("stops reading a stream that grows past the limit and keeps nothing", async () => {
    const storage = getMediaStorage() as DiskStorage;
    async function* endless() {
      for (let i = 0; i < 100; i++) yield Buffer.alloc(64 * 1024, 1);
    }
    await expect(storage.write("originals/toolarge", endless(), { contentType: "", maxBytes: 1024 * 1024 })).rejects.toBeInstanceOf(
      UploadTooLargeError,
    );
    expect(await storage.stat("originals/toolarge")).toBeNull();
    expect(await fs.readdir(path.join(storage.root, "tmp"))).toEqual([]);
  });

  it("refuses a file that is not a photo or video with 415 and deletes it", async () => {
    const uploadURL = await sign();
    await put(uploadURL, "<html><script>alert(1)</script></html>");
    const response = await complete({ uploadURL, submittedBy: "x (y@z.com)", type: "IMAGE", originalName: "evil.jpg" });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ errors: { file: ["Only JPG, PNG, HEIC, WebP, GIF, MP4, MOV and AVI files can be shared."] } });
    const key = new URL(uploadURL).pathname.replace("/api/uploads/put/", "");
    expect(await getMediaStorage().stat(key)).toBeNull();
    expect(db.select().from(uploads).all()).toHaveLength(0);
  });

  it("only completes addresses it signed, and only once the file is there", async () => {
    expect((await complete({ uploadURL: `${ORIGIN}/api/uploads/put/originals/AAAAAAAAAAAAAAAAAAAAAA` })).status).toBe(400);
    expect((await complete({ uploadURL: "https://evil.example/x.jpg" })).status).toBe(400);
    const notYet = await complete({ uploadURL: await sign() });
    expect(notYet.status).toBe(400);
    expect(await notYet.json()).toEqual({ errors: { uploadURL: ["No file has been uploaded to this uploadURL yet."] } });
    const invalid = await complete({ uploadURL: 42, type: "SOUND" });
    expect(invalid.status).toBe(400);
    expect(Object.keys(((await invalid.json()) as { errors: object }).errors).sort()).toEqual(["type", "uploadURL"]);
  });

  it("measures a video with ffprobe and gives it a poster", async () => {
    const uploadURL = await sign();
    await put(uploadURL, await fs.readFile(path.join(fixtures, "sample.mp4")));
    const response = await complete({ uploadURL, submittedBy: "Ben (ben@example.com)", type: "IMAGE", originalName: "clip.mp4" });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      type: "VIDEO",
      durationSec: 3,
      width: 320,
      height: 240,
      thumbnailUrl: expect.stringMatching(/-poster\.jpg$/),
    });
  });
});

describe("refusals that must never be a 500", () => {
  it("a file with a photo's first bytes that cannot be decoded is refused at completion with 415, and nothing is kept", async () => {
    const uploadURL = await sign();
    await put(uploadURL, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("not really a jpeg at all")]));
    const response = await complete({ uploadURL, originalName: "broken.jpg" });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ errors: { file: [UNREADABLE_FILE] } });
    const key = new URL(uploadURL).pathname.replace("/api/uploads/put/", "");
    expect(await getMediaStorage().stat(key)).toBeNull();
    expect(db.select().from(uploads).all()).toHaveLength(0);
  });

  it("the share page answers another content type with its own 415 page data", async () => {
    const request = new Request(`${ORIGIN}/share`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=Ann",
    });
    const response = await settle(shareAction(args(request)));
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      errors: ["Please use the form on the share page to upload files."],
      fieldErrors: {},
      uploaded: [],
    });
  });
});

describe("limits per network address", () => {
  it("refuses more files from one address than a family could send in 10 minutes", async () => {
    const signFrom = (clientIp: string) =>
      settle(
        signAction({ request: new Request(`${ORIGIN}/api/uploads/sign`, { method: "POST" }), params: {}, context: { clientIp } } as never),
      );
    for (let i = 0; i < UPLOADS_PER_10_MINUTES; i++) expect((await signFrom("203.0.113.9")).status).toBe(200);
    const refused = await signFrom("203.0.113.9");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ errors: { file: [TOO_MANY_UPLOADS] } });
    expect((await signFrom("198.51.100.7")).status).toBe(200);
    // 301 signings, each committed to disk: seconds on a busy machine.
  }, 60_000);
});

describe("who may see stored media", () => {
  async function uploadPhoto() {
    const uploadURL = await sign();
    await put(uploadURL, await photo());
    const view = (await (await complete({ uploadURL, originalName: "p.jpg" })).json()) as { id: number; url: string; thumbnailUrl: string };
    await processingIdle();
    return view;
  }

  it("hides pending media, serves published media with long caching and byte ranges, and deletes rejected files", async () => {
    const view = await uploadPhoto();
    expect((await media(view.url)).status).toBe(404);
    expect((await media(view.thumbnailUrl)).status).toBe(404);

    await setUploadStatus(view.id, "APPROVED", operator());
    const full = await media(view.url);
    expect(full.status).toBe(200);
    expect(full.headers.get("Content-Type")).toBe("image/jpeg");
    expect(full.headers.get("Cache-Control")).toContain("immutable");
    const bytes = Buffer.from(await full.arrayBuffer());
    expect((await sharp(bytes).metadata()).width).toBe(900);

    const part = await media(view.url, { Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 0-9/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(0, 10));
    expect((await media(view.url, { Range: `bytes=${bytes.length}-` })).status).toBe(416);

    const row = db.select().from(uploads).where(eq(uploads.id, view.id)).get()!;
    // The original (which could carry a GPS position) is never public.
    expect((await media(`/media/${view.id}/${row.storageKey!.split("/").pop()}`)).status).toBe(404);

    await setUploadStatus(view.id, "REJECTED", operator());
    expect((await media(view.url)).status).toBe(404);
    // Its files are gone, so it can never be published again.
    await expect(setUploadStatus(view.id, "APPROVED", operator())).rejects.toMatchObject({ status: 409 });
    expect(db.select().from(uploads).where(eq(uploads.id, view.id)).get()?.status).toBe("REJECTED");
    for (const key of [row.storageKey, row.displayKey, row.thumbnailKey]) {
      expect(await getMediaStorage().stat(key!)).toBeNull();
    }
  });
});

describe("a resumable (multipart) upload to the local disk", () => {
  const json = (url: string, init: RequestInit = {}) =>
    new Request(`${ORIGIN}${url}`, { ...init, headers: { "Content-Type": "application/json", ...init.headers } });

  it("stores parts, lists them for a resume, joins them and registers the file", async () => {
    const created = await settle(
      createMultipartAction(
        args(json("/api/uploads/s3/multipart", { method: "POST", body: JSON.stringify({ filename: "movie.mp4", type: "video/mp4" }) })),
      ),
    );
    expect(created.status).toBe(201);
    const { uploadId, key } = (await created.json()) as { uploadId: string; key: string };
    expect(key).toMatch(/^originals\/[A-Za-z0-9_-]{22}\.mp4$/);

    const video = await fs.readFile(path.join(fixtures, "sample.mp4"));
    const halves = [video.subarray(0, 5000), video.subarray(5000)];
    const etags: string[] = [];
    for (const [index, half] of halves.entries()) {
      const signed = await settle(
        signPartLoader(
          args(json(`/api/uploads/s3/multipart/${uploadId}/${index + 1}?key=${encodeURIComponent(key)}`), {
            uploadId,
            partNumber: String(index + 1),
          }),
        ),
      );
      const { url } = (await signed.json()) as { url: string };
      const response = await put(url, half);
      expect(response.status).toBe(200);
      etags.push(response.headers.get("ETag")!);
    }
    // Sending part 2 again (a retry) replaces it.
    const listed = await settle(
      listPartsLoader(args(json(`/api/uploads/s3/multipart/${uploadId}?key=${encodeURIComponent(key)}`), { uploadId })),
    );
    expect(((await listed.json()) as { PartNumber: number; Size: number }[]).map((p) => [p.PartNumber, p.Size])).toEqual([
      [1, 5000],
      [2, video.length - 5000],
    ]);

    const wrong = await settle(
      completeMultipartAction(
        args(
          json(`/api/uploads/s3/multipart/${uploadId}/complete?key=${encodeURIComponent(key)}`, {
            method: "POST",
            body: JSON.stringify({ parts: [{ PartNumber: 1, ETag: '"nope"' }] }),
          }),
          { uploadId },
        ),
      ),
    );
    expect(wrong.status).toBe(400);

    const done = await settle(
      completeMultipartAction(
        args(
          json(`/api/uploads/s3/multipart/${uploadId}/complete?key=${encodeURIComponent(key)}`, {
            method: "POST",
            body: JSON.stringify({ parts: etags.map((ETag, i) => ({ PartNumber: i + 1, ETag })) }),
          }),
          { uploadId },
        ),
      ),
    );
    expect(done.status).toBe(200);
    const { location } = (await done.json()) as { location: string };
    const registered = await complete({
      uploadURL: location,
      submittedBy: "Ben (ben@example.com)",
      originalName: "movie.mp4",
      type: "VIDEO",
    });
    expect(registered.status).toBe(201);
    expect(await registered.json()).toMatchObject({ type: "VIDEO", durationSec: 3 });
    expect(Buffer.from(await fs.readFile(path.join(config.STORAGE_DIR, "objects", key)))).toEqual(video);
  });

  it("refuses unknown uploads and part numbers out of range, and cancels cleanly", async () => {
    const created = await settle(createMultipartAction(args(json("/api/uploads/s3/multipart", { method: "POST", body: "{}" }))));
    const { uploadId, key } = (await created.json()) as { uploadId: string; key: string };
    const q = `?key=${encodeURIComponent(key)}`;
    expect((await settle(signPartLoader(args(json(`/x${q}`), { uploadId, partNumber: "0" })))).status).toBe(400);
    expect((await settle(signPartLoader(args(json(`/x${q}`), { uploadId, partNumber: "10001" })))).status).toBe(400);
    expect((await settle(signPartLoader(args(json(`/x?key=originals/other`), { uploadId, partNumber: "1" })))).status).toBe(404);
    expect((await settle(listPartsLoader(args(json(`/x${q}`), { uploadId: "unknown-id" })))).status).toBe(404);

    const aborted = await settle(abortAction(args(json(`/x${q}`, { method: "DELETE" }), { uploadId })));
    expect(aborted.status).toBe(200);
    expect(db.select().from(signedUploads).all()).toHaveLength(0);
    expect(await fs.readdir(path.join(config.STORAGE_DIR, "multipart"))).toEqual([]);
  });

  it("cleans up uploads abandoned for a day", async () => {
    const uploadURL = await sign();
    await put(uploadURL, await photo());
    const created = await settle(createMultipartAction(args(json("/api/uploads/s3/multipart", { method: "POST", body: "{}" }))));
    const { key } = (await created.json()) as { key: string };
    expect(await cleanupAbandonedUploads()).toBe(0);
    expect(await cleanupAbandonedUploads(Date.now() + ABANDONED_AFTER_MS + 1000)).toBe(2);
    expect(db.select().from(signedUploads).all()).toHaveLength(0);
    expect(await fs.readdir(path.join(config.STORAGE_DIR, "multipart"))).toEqual([]);
    expect(await getMediaStorage().stat(key)).toBeNull();
  });

  it("sweeps stale scratch folders as well as files, and keeps fresh ones", async () => {
    await fs.mkdir(config.STORAGE_DIR, { recursive: true });
    const root = await fs.mkdtemp(path.join(config.STORAGE_DIR, "sweep-"));
    const storage = new DiskStorage(root, ["sweep-test-secret"]);
    const tmp = path.join(root, "tmp");
    // A processing folder left by a crash, with a stale file beside it, and a folder still in use.
    await fs.mkdir(path.join(tmp, "process-7-abcd"), { recursive: true });
    await fs.writeFile(path.join(tmp, "process-7-abcd", "thumb.jpg"), "x");
    await fs.writeFile(path.join(tmp, "upload-1.part"), "x");
    await fs.mkdir(path.join(tmp, "web-video-8-segments"), { recursive: true });
    const old = new Date(Date.now() - 7 * 60 * 60 * 1000);
    await fs.utimes(path.join(tmp, "process-7-abcd"), old, old);
    await fs.utimes(path.join(tmp, "upload-1.part"), old, old);
    await storage.sweepTemporaryFiles(6 * 60 * 60 * 1000);
    expect((await fs.readdir(tmp)).sort()).toEqual(["web-video-8-segments"]);
    await fs.rm(root, { recursive: true, force: true });
  });
});
