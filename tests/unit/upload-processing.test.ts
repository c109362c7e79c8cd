import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { adminUsers, signedUploads, uploads, type Upload } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { startAdminSession } from "~/admins/session.server";
import { contentVersion, db } from "~/platform/db.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { upsertAdmin } from "~/admins/admin.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingTimeLimitMs } from "~/uploads/processing-state.server";
import { enqueueProcessing, processingIdle, requeueUnprocessedUploads } from "~/uploads/upload-processing.server";
import { VIDEO_CPU_BUDGET } from "~/media/cpu-budget.server";
import { getAdminUpload, rotateUpload, setUploadStatus } from "~/uploads/upload.server";
import { action as moderateApi } from "~/routes/api.admin.uploads.$id";
import { loader as mediaLoader } from "~/routes/media.$id.$file";

const ORIGIN = "http://memorial.test";
let work: string;
let adminCookie: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-processing-"));
  await upsertAdmin("keeper", "the-right-password");
  const admin = db.select().from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!;
  adminCookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id: admin.id, username: admin.username })).split(";")[0]!;
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});
beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
});
afterEach(() => {
  vi.useRealTimers();
});

const row = (id: number): Upload => db.select().from(uploads).where(eq(uploads.id, id)).get()!;
const photo = (background = "#aa5533") =>
  sharp({ create: { width: 900, height: 600, channels: 3, background } })
    .jpeg()
    .toBuffer();
const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args]);

/** Everything ffprobe reports as metadata: the container's tags, each stream's and each chapter's. */
function tagsOf(file: string): Record<string, string> {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-show_chapters", "-of", "json", file]).toString();
  const data = JSON.parse(out) as { format?: { tags?: object }; streams?: { tags?: object }[]; chapters?: { tags?: object }[] };
  return Object.assign({}, data.format?.tags, ...(data.streams ?? []).map((s) => s.tags), ...(data.chapters ?? []).map((c) => c.tags));
}

/** A file shared through the form, as a visitor without JavaScript would, then processed. */
async function share(bytes: Buffer, originalName: string) {
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: originalName });
  const view = await registerFormUpload(key, { submittedBy: "Ann (ann@example.com)", originalName });
  await processingIdle();
  return view.id;
}

/**
 * An upload whose processing has not happened yet (as after a restart, or
 * when the completion's short wait ran out): the object and the row only.
 */
async function storedButUnprocessed(bytes: Buffer, mimeType: string, type: "IMAGE" | "VIDEO" = "IMAGE") {
  const key = `originals/${Math.random().toString(36).slice(2)}`;
  await getMediaStorage().write(key, Readable.from([bytes]), { contentType: mimeType, maxBytes: Number.MAX_SAFE_INTEGER });
  const inserted = db
    .insert(uploads)
    .values({ type, url: "", storageKey: key, mimeType, sizeBytes: bytes.length, originalName: "x" })
    .returning()
    .get();
  return inserted.id;
}

function media(url: string, admin = false) {
  const [, , id, file] = url.split("/");
  const request = new Request(`${ORIGIN}${url}`, { headers: admin ? { Cookie: adminCookie } : {} });
  return mediaLoader({ request, params: { id: id!, file: file! }, context: {} } as never) as Promise<Response>;
}

function patchStatus(id: number, status: string) {
  const request = new Request(`${ORIGIN}/api/admin/uploads/${id}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/json", Cookie: adminCookie },
    body: JSON.stringify({ status }),
  });
  return moderateApi({ request, params: { id: String(id) }, context: {} } as never) as Promise<Response>;
}

describe("the public copy of a video", () => {
  const LOCATION = "+48.8584+002.2945/";

  it.each([
    ["mp4", ["-metadata", `location=${LOCATION}`, "-metadata", "comment=secret", "-metadata", "creation_time=2024-05-01T10:00:00Z"]],
    [
      "mov",
      [
        "-metadata",
        `location=${LOCATION}`,
        "-metadata",
        "comment=secret",
        "-metadata",
        `com.apple.quicktime.location.ISO6709=${LOCATION}`,
        "-movflags",
        "use_metadata_tags",
      ],
    ],
  ])("of a .%s keeps the pictures and sound but not where and when it was filmed", async (ext, metadata) => {
    const original = path.join(work, `filmed.${ext}`);
    ffmpeg(
      ...["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "2"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", ...metadata, original],
    );
    const before = tagsOf(original);
    expect(Object.values(before)).toContain(LOCATION);
    expect(before.comment).toBe("secret");
    if (ext === "mov") expect(before["com.apple.quicktime.location.ISO6709"]).toBe(LOCATION);

    const id = await share(await fs.readFile(original), `filmed.${ext}`);
    const upload = row(id);
    expect(upload.processingError).toBeNull();
    expect(upload.displayKey).not.toBe(upload.storageKey);
    await setUploadStatus(id, "APPROVED", operator());

    const response = await media(upload.url);
    expect(response.status).toBe(200);
    // The web copy of either is an MP4.
    expect(response.headers.get("Content-Type")).toBe("video/mp4");
    const copy = path.join(work, `public.${ext}`);
    await fs.writeFile(copy, Buffer.from(await response.arrayBuffer()));
    const after = tagsOf(copy);
    expect(Object.keys(after).filter((name) => /location|comment|creation_time|date/i.test(name))).toEqual([]);
    expect(JSON.stringify(after)).not.toMatch(/secret|48\.8584/);
    const streams = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", copy])
      .toString()
      .trim()
      .split("\n");
    expect(streams.sort()).toEqual(["audio", "video"]);
    expect(upload).toMatchObject({ width: 160, height: 120, durationSec: 2 });

    // The original (with its location) is for the family only, even once published.
    const originalUrl = `/media/${id}/${path.posix.basename(upload.storageKey!)}`;
    expect((await media(originalUrl)).status).toBe(404);
    expect((await media(originalUrl, true)).status).toBe(200);
  });
});

describe("a video published before videos had public copies", () => {
  it("is not served from its original, and gets its public copy at the next start", async () => {
    const id = await share(await fs.readFile(path.resolve(__dirname, "../fixtures/sample.mp4")), "old.mp4");
    const original = row(id).storageKey!;
    const legacyUrl = `/media/${id}/${path.posix.basename(original)}`;
    db.update(uploads).set({ displayKey: original, url: legacyUrl, status: "APPROVED", webVideo: null }).where(eq(uploads.id, id)).run();
    expect((await media(legacyUrl)).status).toBe(404);

    expect(requeueUnprocessedUploads()).toBe(1);
    await processingIdle();
    const after = row(id);
    expect(after.displayKey).not.toBe(original);
    expect((await media(after.url)).status).toBe(200);
    expect(requeueUnprocessedUploads()).toBe(0);
  });
});

describe("uploads processing cannot use", () => {
  /** A 6 KB AVI whose headers claim one 16000 × 16000 frame (decoding it would take about 400 MB). */
  async function aviClaimingHugeFrames() {
    const file = path.join(work, "small.avi");
    ffmpeg("-f", "lavfi", "-i", "color=c=blue:size=64x64", "-frames:v", "1", "-c:v", "mjpeg", file);
    const avi = await fs.readFile(file);
    const at = (text: string, from = 0) => avi.indexOf(Buffer.from(text, "latin1"), from);
    const mainHeader = at("avih") + 8;
    avi.writeUInt32LE(16000, mainHeader + 32);
    avi.writeUInt32LE(16000, mainHeader + 36);
    const bitmapHeader = at("strf") + 8;
    avi.writeInt32LE(16000, bitmapHeader + 4);
    avi.writeInt32LE(16000, bitmapHeader + 8);
    // …and so does the frame itself (its JPEG start-of-frame header: height, then width).
    let marker = at("\xff\xd8", at("movi")) + 2;
    while (avi[marker + 1]! < 0xc0 || avi[marker + 1]! > 0xc2) marker += 2 + avi.readUInt16BE(marker + 2);
    avi.writeUInt16BE(16000, marker + 5);
    avi.writeUInt16BE(16000, marker + 7);
    return avi;
  }

  it("a video whose frames are too large (above 4K) is refused to its sender with a reason, before a frame is decoded", async () => {
    await expect(share(await aviClaimingHugeFrames(), "huge.avi")).rejects.toMatchObject({
      status: 400,
      message:
        "The video is 16000 × 16000 pixels, and this site can show videos up to 4K (4096 pixels on the longest side); a copy recorded or saved at 4K or 1080p can be shared instead.",
    });
    // Nothing is kept of it.
    expect(db.select().from(uploads).all()).toEqual([]);
  });

  /** `seconds` of a flat picture that weigh almost nothing, repeated without encoding again. */
  async function flatVideo(seconds: number, size = "320x240") {
    const piece = path.join(work, `piece-${size}.mp4`);
    const file = path.join(work, `flat-${seconds}-${size}.mp4`);
    ffmpeg("-f", "lavfi", "-i", `color=c=0x336699:s=${size}:r=25:d=10`, "-c:v", "libx264", "-preset", "ultrafast", "-g", "250", piece);
    ffmpeg("-stream_loop", String(Math.ceil(seconds / 10) - 1), "-i", piece, "-c", "copy", file);
    return fs.readFile(file);
  }

  it("a video longer than 30 minutes is refused to its sender with the reason, before a frame is decoded", async () => {
    // 31 minutes in about 100 KB.
    const long = await flatVideo(31 * 60);
    expect(long.length).toBeLessThan(1024 * 1024);
    await expect(share(long, "slideshow.mp4")).rejects.toMatchObject({
      status: 400,
      message:
        "The video is 31 minutes long, and videos up to 30 minutes can be shared; a shorter version, or the video in parts, can be shared instead.",
    });
    expect(db.select().from(uploads).all()).toEqual([]);
  });

  it("a video of 30 minutes, a slideshow of a life, is taken", async () => {
    const id = await share(await flatVideo(30 * 60), "slideshow.mp4");
    expect(row(id)).toMatchObject({ status: "PENDING", durationSec: 1800, processingError: null });
  }, 120_000);

  it("a video whose second picture is above 4K is refused, though its first is small", async () => {
    const small = path.join(work, "small-first.mp4");
    const huge = path.join(work, "huge-second.mp4");
    const both = path.join(work, "two-pictures.mp4");
    ffmpeg("-f", "lavfi", "-i", "color=c=red:s=64x64:d=1", "-c:v", "libx264", "-preset", "ultrafast", small);
    ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=7680x4320:d=0.04", "-frames:v", "1", "-c:v", "libx264", "-preset", "ultrafast", huge);
    ffmpeg("-i", small, "-i", huge, "-map", "0:v", "-map", "1:v", "-c", "copy", both);
    await expect(share(await fs.readFile(both), "two.mp4")).rejects.toMatchObject({
      status: 400,
      message:
        "The video is 7680 × 4320 pixels, and this site can show videos up to 4K (4096 pixels on the longest side); a copy recorded or saved at 4K or 1080p can be shared instead.",
    });
    expect(db.select().from(uploads).all()).toEqual([]);
  });

  it("a video found too large after the sender's wait is kept unpublished, with the reason for the family", async () => {
    const id = await storedButUnprocessed(await aviClaimingHugeFrames(), "video/x-msvideo", "VIDEO");
    await enqueueProcessing(id);
    await processingIdle();
    const upload = row(id);
    expect(upload.processedAt).not.toBeNull();
    expect(upload.processingError).toBe(
      "the video is 16000 × 16000 pixels, and this site can show videos up to 4K (4096 pixels on the longest side); a copy recorded or saved at 4K or 1080p can be shared instead",
    );
    expect([upload.displayKey, upload.thumbnailKey]).toEqual([null, null]);
    expect(getAdminUpload(id)?.processingError).toBe(upload.processingError);
    await expect(setUploadStatus(id, "APPROVED", operator())).rejects.toMatchObject({ status: 409 });
  });

  it("an undecodable photo found after the sender's wait is shown as unprocessable and cannot be published", async () => {
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("not really a jpeg at all")]);
    const id = await storedButUnprocessed(garbage, "image/jpeg");
    expect(requeueUnprocessedUploads()).toBe(1);
    await processingIdle();
    expect(row(id)).toMatchObject({
      processingError: "the photo could not be read; the file may be damaged or not really a photo",
      thumbnailUrl: null,
    });
    expect(row(id).processedAt).not.toBeNull();

    const refused = await patchStatus(id, "APPROVED");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      errors: {
        status: [
          "This file cannot be published because it could not be processed: the photo could not be read; the file may be damaged or not really a photo. You can delete it, or ask the sender for another copy.",
        ],
      },
    });
    expect(row(id).status).toBe("PENDING");
    await expect(rotateUpload(id, "left", operator())).rejects.toMatchObject({ status: 422 });

    // It is not tried again at the next start, and it can still be deleted.
    expect(requeueUnprocessedUploads()).toBe(0);
    expect((await patchStatus(id, "REJECTED")).status).toBe(200);
  });

  it("a job that throws still ends with a reason, and the next upload is processed", async () => {
    const missing = await storedButUnprocessed(await photo(), "image/jpeg");
    await getMediaStorage().delete(row(missing).storageKey!);
    const fine = await storedButUnprocessed(await photo(), "image/jpeg");
    expect(requeueUnprocessedUploads()).toBe(2);
    await processingIdle();
    expect(row(missing).processedAt).not.toBeNull();
    expect(row(missing).processingError).toEqual(expect.any(String));
    expect(row(fine)).toMatchObject({ processingError: null, width: 900, height: 600 });
    expect(requeueUnprocessedUploads()).toBe(0);
  });

  it("a job over its time limit is marked failed and nothing it made afterwards is kept", async () => {
    const id = await storedButUnprocessed(await photo(), "image/jpeg");
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const outcome = enqueueProcessing(id);
    vi.advanceTimersByTime(processingTimeLimitMs(row(id)));
    vi.useRealTimers();
    expect(await outcome).toMatchObject({ ok: false, kind: "too-slow" });
    expect(row(id).processingError).toMatch(/^preparing it took longer than \d+ seconds, so it was stopped$/);
    await processingIdle();
    const after = row(id);
    expect(after.processingError).toMatch(/took longer/);
    expect([after.displayKey, after.thumbnailKey]).toEqual([null, null]);
    expect(await fs.readdir(path.join(process.env.STORAGE_DIR!, "objects", "media", String(id))).catch(() => [])).toEqual([]);
  });
});

describe("turning a photo", () => {
  it("goes ahead of uploads waiting to be processed", async () => {
    const turned = await share(await photo(), "sideways.jpg");
    const before = row(turned);
    const first = await storedButUnprocessed(await photo("#113355"), "image/jpeg");
    const waiting = await storedButUnprocessed(await photo("#335511"), "image/jpeg");
    // The first starts at once; the second waits behind it.
    expect(requeueUnprocessedUploads()).toBe(2);

    const rotated = await rotateUpload(turned, "right", operator());
    expect(rotated?.newUrl).not.toBe(before.url);
    expect(row(turned)).toMatchObject({ rotation: 1, width: 600, height: 900 });
    // Done before the upload that was already waiting when the admin asked.
    expect(row(waiting).processedAt).toBeNull();
    await processingIdle();
    expect(row(first).processedAt).not.toBeNull();
    expect(row(waiting).processedAt).not.toBeNull();
  });
});

describe("the web copy of a video", () => {
  /** A 1-second MPEG-4 Part 2 AVI, as an old camera films: no browser plays it as it is. */
  async function cameraAvi() {
    const file = path.join(work, "camera.avi");
    ffmpeg(
      ...["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1", "-f", "lavfi", "-i", "sine=frequency=440:duration=1"],
      ...["-c:v", "mpeg4", "-c:a", "pcm_s16le", file],
    );
    return fs.readFile(file);
  }

  const codecs = async (url: string) => {
    const copy = path.join(work, `served-${Math.random().toString(36).slice(2)}.mp4`);
    await fs.writeFile(copy, Buffer.from(await (await media(url, true)).arrayBuffer()));
    return execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", copy])
      .toString()
      .trim()
      .split("\n");
  };

  it("is waited for before the video can be published, and then served in place of the original", async () => {
    const id = await storedButUnprocessed(await cameraAvi(), "video/x-msvideo", "VIDEO");
    expect(getAdminUpload(id)?.processing).toEqual({ state: "waiting" });
    const refused = await patchStatus(id, "APPROVED");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      errors: { status: ["This video is still being prepared so that every browser can play it. It can be published once it is ready."] },
    });
    expect(row(id).status).toBe("PENDING");

    expect(requeueUnprocessedUploads()).toBe(1);
    await processingIdle();
    const ready = row(id);
    expect(ready).toMatchObject({ processingError: null, webVideo: "encoded", width: 160, height: 120, durationSec: 1 });
    expect(ready.displayKey).toMatch(/\.mp4$/);
    expect(ready.thumbnailUrl).toMatch(/-poster\.jpg$/);
    expect(getAdminUpload(id)?.processing).toEqual({ state: "ready" });
    expect(await codecs(ready.url)).toEqual(["h264", "aac"]);

    expect((await patchStatus(id, "APPROVED")).status).toBe(200);
    const response = await media(ready.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("video/mp4");
  });

  it("interrupted by a restart, is made at the next start", async () => {
    // As a restart leaves it: the poster and measurements made, the web copy not.
    const id = await storedButUnprocessed(await cameraAvi(), "video/x-msvideo", "VIDEO");
    await enqueueProcessing(id);
    db.update(uploads).set({ webVideo: null }).where(eq(uploads.id, id)).run();
    await processingIdle();
    const keys = await fs.readdir(path.join(process.env.STORAGE_DIR!, "objects", "media", String(id)));
    for (const key of keys.filter((name) => name.endsWith(".mp4"))) await getMediaStorage().delete(`media/${id}/${key}`);
    db.update(uploads).set({ webVideo: null, displayKey: null }).where(eq(uploads.id, id)).run();
    const interrupted = row(id);
    expect(interrupted.processedAt).not.toBeNull();
    expect(getAdminUpload(id)?.processing).toEqual({ state: "waiting" });
    const version = contentVersion();

    expect(requeueUnprocessedUploads()).toBe(1);
    await processingIdle();
    // The render cache sees the video become ready as a change of content.
    expect(contentVersion()).not.toBe(version);
    const resumed = row(id);
    expect(resumed).toMatchObject({ processingError: null, webVideo: "encoded" });
    expect(resumed.thumbnailKey).toBe(interrupted.thumbnailKey);
    expect(await codecs(resumed.url)).toEqual(["h264", "aac"]);
    expect(requeueUnprocessedUploads()).toBe(0);
  });

  /** Every try of a web copy gets a budget of no CPU time at all, so ffmpeg is stopped at its first check. */
  async function withoutCpuBudget(run: () => Promise<void>) {
    const saved = { ...VIDEO_CPU_BUDGET };
    Object.assign(VIDEO_CPU_BUDGET, { baseSeconds: 0, secondsPerMegapixelSecond: 0, secondsPerMegabyte: 0 });
    const warnings: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => void warnings.push(String(line)));
    try {
      await run();
    } finally {
      spy.mockRestore();
      Object.assign(VIDEO_CPU_BUDGET, saved);
    }
    return warnings.filter((line) => line.includes("used up its CPU budget")).map((line) => JSON.parse(line) as { attempt: number });
  }

  it("given up on (its CPU budget used up at every try) keeps the video unpublished, with the reason", async () => {
    const id = await storedButUnprocessed(await cameraAvi(), "video/x-msvideo", "VIDEO");
    await enqueueProcessing(id);
    await processingIdle();
    expect(row(id).webVideo).not.toBeNull();
    db.update(uploads).set({ webVideo: null, displayKey: null, durationSec: 1 }).where(eq(uploads.id, id)).run();
    const tries = await withoutCpuBudget(async () => {
      expect(requeueUnprocessedUploads()).toBe(1);
      await processingIdle();
    });
    // Stopped by its budget, queued again with a larger one, up to the last try.
    expect(tries.map((line) => line.attempt)).toEqual([1, 2, 3]);
    expect(row(id).processingError).toMatch(/needed more than 0 minutes of processor time, so it was stopped/);
    expect(getAdminUpload(id)?.processing).toMatchObject({ state: "failed" });
    expect((await patchStatus(id, "APPROVED")).status).toBe(409);
  });
  it("given up on for a video published before web copies existed, keeps its older public copy in the gallery", async () => {
    const id = await storedButUnprocessed(await cameraAvi(), "video/x-msvideo", "VIDEO");
    await enqueueProcessing(id);
    await processingIdle();
    // As an older release left it: published, served from a copy of the original without metadata, no web copy.
    const older = row(id);
    db.update(uploads).set({ status: "APPROVED", webVideo: null, durationSec: 1 }).where(eq(uploads.id, id)).run();
    await withoutCpuBudget(async () => {
      expect(requeueUnprocessedUploads()).toBe(1);
      await processingIdle();
    });

    expect(row(id)).toMatchObject({ processingError: null, webVideo: "kept", displayKey: older.displayKey, status: "APPROVED" });
    expect((await media(older.url)).status).toBe(200);
    expect(getAdminUpload(id)?.processing).toEqual({ state: "ready" });
    // Not tried again at every start.
    expect(requeueUnprocessedUploads()).toBe(0);
  });
});
