// The family's hero photo and Karen Mode song: the copies made of a photo,
// telling an MP3 from its bytes, and the model on the local disk driver
// (storing, replacing, refusing, resetting, serving). The S3 driver is in
// site-media-s3.test.ts, the production server's answers in site-media-http.test.ts.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { siteSettings } from "../../db/schema";
import { operator, type Actor } from "~/platform/actor.server";
import { config } from "~/platform/config.server";
import { content } from "~/content";
import { db } from "~/platform/db.server";
import { DiskStorage } from "~/media/disk-storage.server";
import { heroWidths, makeHeroCopies } from "~/media/hero-image.server";
import { useMediaStorage } from "~/media/media-storage.server";
import { hasMp3Frames, id3TagLength, isMp3File, mp3FrameAt } from "~/media/mp3.server";
import { MediaProblem, PROCESSING_LIMITS } from "~/media/processing-limits.server";
import { getSiteSettings, getSiteView, getStoredValue, STORED_KEYS } from "~/site/settings.server";
import {
  PHOTO_NOT_SUPPORTED,
  PHOTO_TOO_LARGE,
  SONG_NOT_MP3,
  SONG_REQUIRED,
  type StoredHeroImage,
  type StoredKarenSong,
} from "~/site/site-media.schema";
import { HERO_PHOTO_FORM, heroPhotoSink, receiveHeroPhotoForm, resetHeroPhoto } from "~/site/hero-photo.server";
import { KAREN_SONG_FORM, karenSongSink, receiveKarenSongForm, resetKarenSong, songTitleFromFileName } from "~/site/karen-song.server";
import { findSiteMediaFile, refusedSiteMediaForm } from "~/site/site-media-files.server";
import { loader as siteMediaFile } from "~/routes/media.site.$file";
import { readMultipartForm } from "~/platform/multipart.server";
import { STORAGE_FULL } from "~/platform/refusal.server";

const BUNDLED_SONG = path.resolve(__dirname, "../../public/audio/karen-mode.mp3");
const BUNDLED_OGG = path.resolve(__dirname, "../../public/audio/karen-mode.ogg");
const SAMPLE_HEIC = path.resolve(__dirname, "../fixtures/sample.heic");
const ORIGIN = "http://localhost";

let work: string;
const objectsDir = () => path.join(config.STORAGE_DIR, "objects");
const stored = (key: string) => existsSync(path.join(objectsDir(), key));

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-site-media-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** A landscape photo from a phone: EXIF says "turn 90° clockwise to view", and it carries a GPS position and the camera. */
function phonePhoto(width: number, height: number, format: "jpeg" | "png" | "webp" = "jpeg") {
  const image = sharp({ create: { width, height, channels: 3, background: "#3366aa" } });
  return (format === "png" ? image.png() : format === "webp" ? image.webp() : image.jpeg())
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "TestPhone", Model: "Family Camera" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "37/1 52/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "122/1 16/1 0/1" },
    })
    .toBuffer();
}

const plainPhoto = (width: number, height: number, background = "#7a9c6a") =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

async function fileOf(bytes: Buffer, name: string) {
  const file = path.join(work, name);
  await fs.writeFile(file, bytes);
  return file;
}

describe("the hero photo's copies", () => {
  it("are 640, 1280 and 1920 wide, never wider than the photo", () => {
    expect(heroWidths(4032)).toEqual([640, 1280, 1920]);
    expect(heroWidths(1920)).toEqual([640, 1280, 1920]);
    expect(heroWidths(1600)).toEqual([640, 1280, 1600]);
    expect(heroWidths(1280)).toEqual([640, 1280]);
    expect(heroWidths(1000)).toEqual([640, 1000]);
    expect(heroWidths(640)).toEqual([640]);
    expect(heroWidths(300)).toEqual([300]);
  });

  it("make a WebP and a JPEG of each width, upright, with no metadata (no GPS position, no camera)", async () => {
    const input = await phonePhoto(3000, 2000);
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const copies = await makeHeroCopies(await fileOf(input, "phone.jpg"), "image/jpeg", work);
    // Turned upright: 2000 wide, 3000 tall.
    expect(copies.map((copy) => [copy.width, copy.height])).toEqual([
      [640, 960],
      [1280, 1920],
      [1920, 2880],
    ]);
    for (const copy of copies) {
      const webp = await sharp(copy.webp).metadata();
      const jpeg = await sharp(copy.jpeg).metadata();
      expect([webp.format, webp.width, webp.height]).toEqual(["webp", copy.width, copy.height]);
      expect([jpeg.format, jpeg.width, jpeg.height]).toEqual(["jpeg", copy.width, copy.height]);
      for (const meta of [webp, jpeg]) {
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.iptc).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
      }
      for (const bytes of [copy.webp, copy.jpeg]) {
        expect(bytes.includes(Buffer.from("TestPhone"))).toBe(false);
        expect(bytes.includes(Buffer.from("Family Camera"))).toBe(false);
      }
    }
  });

  it("never enlarge a small photo, and take PNG and WebP too", async () => {
    const small = await makeHeroCopies(await fileOf(await plainPhoto(900, 600), "small.jpg"), "image/jpeg", work);
    expect(small.map((copy) => [copy.width, copy.height])).toEqual([
      [640, 427],
      [900, 600],
    ]);
    const tiny = await makeHeroCopies(await fileOf(await phonePhoto(400, 300, "png"), "tiny.png"), "image/png", work);
    expect(tiny.map((copy) => [copy.width, copy.height])).toEqual([[300, 400]]);
    const webp = await makeHeroCopies(await fileOf(await phonePhoto(1300, 700, "webp"), "photo.webp"), "image/webp", work);
    expect(webp.map((copy) => copy.width)).toEqual([640, 700]);
  });

  it("take an iPhone's HEIC photo", async () => {
    const copies = await makeHeroCopies(SAMPLE_HEIC, "image/heic", work);
    expect(copies.length).toBeGreaterThan(0);
    const meta = await sharp(copies[copies.length - 1]!.jpeg).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.exif).toBeUndefined();
  });

  it("refuse a photo of more pixels than the limit before decoding it, and a file that is not a picture", async () => {
    const file = await fileOf(await plainPhoto(2000, 1000), "big.jpg");
    const limits = { ...PROCESSING_LIMITS, imagePixels: 1_000_000 };
    await expect(makeHeroCopies(file, "image/jpeg", work, { limits })).rejects.toMatchObject({ name: "MediaProblem", kind: "too-large" });
    const broken = await fileOf(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]), "broken.jpg");
    const problem = await makeHeroCopies(broken, "image/jpeg", work).catch((error: unknown) => error);
    expect(problem).toBeInstanceOf(MediaProblem);
    expect((problem as MediaProblem).kind).toBe("unreadable");
  });
});

/** An MPEG-1 Layer III frame header (128 kbit/s, 44.1 kHz, no padding: 417 bytes a frame) and its body. */
function mp3Frame() {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return frame;
}

describe("telling an MP3 from its bytes", () => {
  it("recognises the bundled song (an ID3 tag, then frames)", async () => {
    const head = await fs.readFile(BUNDLED_SONG);
    expect(id3TagLength(head)).toBe(45);
    expect(mp3FrameAt(head, 45)).toMatchObject({ sampleRate: expect.any(Number) });
    expect(await isMp3File(BUNDLED_SONG)).toBe(true);
  });

  it("recognises frames without a tag, and one short frame that is the whole file", async () => {
    const frames = Buffer.concat([mp3Frame(), mp3Frame(), mp3Frame()]);
    expect(mp3FrameAt(frames, 0)).toEqual({ length: 417, version: 3, sampleRate: 44100 });
    expect(hasMp3Frames(frames, true)).toBe(true);
    expect(await isMp3File(await fileOf(frames, "untagged.mp3"))).toBe(true);
    expect(await isMp3File(await fileOf(mp3Frame(), "one-frame.mp3"))).toBe(true);
  });

  it("refuses what only looks like one: a photo, an Ogg song, random bytes, a tag with no audio after it, one frame header alone", async () => {
    const fakes: [string, Buffer][] = [
      ["photo.mp3", await plainPhoto(64, 64)],
      ["song.ogg.mp3", await fs.readFile(BUNDLED_OGG)],
      ["random.mp3", createHash("sha512").update("noise").digest()],
      [
        "tag-only.mp3",
        Buffer.concat([Buffer.from("ID3"), Buffer.from([3, 0, 0, 0, 0, 0, 10]), Buffer.alloc(10), Buffer.from("not audio at all")]),
      ],
      ["one-header.mp3", Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(2000, 0x55)])],
      ["empty.mp3", Buffer.alloc(0)],
      ["aac.mp3", Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80]), Buffer.alloc(400)])],
    ];
    for (const [name, bytes] of fakes) expect(await isMp3File(await fileOf(bytes, name)), name).toBe(false);
  });

  it("names a song after its file when the family gives no title", () => {
    expect(songTitleFromFileName("Dancing Queen.mp3")).toBe("Dancing Queen");
    expect(songTitleFromFileName("C:\\Music\\party_mix_2025.mp3")).toBe("party mix 2025");
    expect(songTitleFromFileName(".mp3")).toBe("Karen Mode song");
    expect(songTitleFromFileName("x".repeat(300) + ".mp3")).toHaveLength(200);
  });
});

// ---------------------------------------------------------------------------
// The model, on the local disk

/** The hero form as a browser sends it (multipart, the file streamed). */
function heroForm(fields: { photo?: { bytes: Buffer; name: string; type?: string }; heroImageAlt?: string }) {
  const form = new FormData();
  if (fields.heroImageAlt !== undefined) form.append("heroImageAlt", fields.heroImageAlt);
  if (fields.photo)
    form.append("photo", new Blob([new Uint8Array(fields.photo.bytes)], { type: fields.photo.type ?? "image/jpeg" }), fields.photo.name);
  else form.append("photo", new Blob([]), "");
  form.append("intent", "upload");
  return new Request(`${ORIGIN}/admin/site/hero`, { method: "POST", body: form });
}

function songForm(fields: { song?: { bytes: Buffer; name: string }; title?: string }) {
  const form = new FormData();
  if (fields.song) form.append("song", new Blob([new Uint8Array(fields.song.bytes)], { type: "audio/mpeg" }), fields.song.name);
  form.append("title", fields.title ?? "");
  return new Request(`${ORIGIN}/admin/site/song`, { method: "POST", body: form });
}

/** A form read and answered as its route does (answerSiteMediaForm), by `by`. */
const sendHeroForm = (request: Request, by: Actor) =>
  readMultipartForm(request, HERO_PHOTO_FORM, heroPhotoSink()).then((form) => receiveHeroPhotoForm(form, by), refusedSiteMediaForm);
const sendSongForm = (request: Request, by: Actor) =>
  readMultipartForm(request, KAREN_SONG_FORM, karenSongSink()).then((form) => receiveKarenSongForm(form, by), refusedSiteMediaForm);

const heroRecord = () => getStoredValue<StoredHeroImage>(STORED_KEYS.heroImage);
const songRecord = () => getStoredValue<StoredKarenSong>(STORED_KEYS.karenSong);
const heroFiles = (record: StoredHeroImage | null) => record?.copies.flatMap((copy) => [copy.webp, copy.jpeg]) ?? [];

async function siteFiles() {
  const dir = path.join(objectsDir(), "site");
  return existsSync(dir) ? (await fs.readdir(dir)).sort() : [];
}

async function serve(file: string, headers: Record<string, string> = {}) {
  return (await siteMediaFile({
    request: new Request(`${ORIGIN}/media/site/${file}`, { headers }),
    params: { file },
    context: {},
  } as never)) as Response;
}

beforeEach(() => {
  db.delete(siteSettings).run();
});
afterEach(async () => {
  useMediaStorage(new DiskStorage(config.STORAGE_DIR, config.sessionSecrets));
  await resetHeroPhoto(operator("test"));
  await resetKarenSong(operator("test"));
});

describe("uploading the hero photo", () => {
  it("stores its copies, saves its description, and the home page shows it with srcset", async () => {
    const answer = await sendHeroForm(
      heroForm({ photo: { bytes: await phonePhoto(2400, 1600), name: "IMG_1234.JPG" }, heroImageAlt: "  Mum at the lake  " }),
      operator("family"),
    );
    expect(answer).toEqual({ ok: true, saved: "file" });
    const record = heroRecord()!;
    expect(record.originalName).toBe("IMG_1234.JPG");
    expect(record.copies.map((copy) => copy.width)).toEqual([640, 1280, 1600]);
    for (const key of heroFiles(record)) expect(stored(key), key).toBe(true);
    expect(getSiteSettings().heroImageAlt).toBe("Mum at the lake");

    const { heroImage } = getSiteView();
    const jpeg1280 = record.copies[1]!.jpeg;
    expect(heroImage).toEqual({
      src: `/media/site/${path.posix.basename(jpeg1280)}`,
      srcSetWebp: record.copies.map((copy) => `/media/site/${path.posix.basename(copy.webp)} ${copy.width}w`).join(", "),
      srcSetJpeg: record.copies.map((copy) => `/media/site/${path.posix.basename(copy.jpeg)} ${copy.width}w`).join(", "),
      width: 1600,
      height: 2400,
    });
    expect(heroImage.srcSetWebp).toMatch(/^\/media\/site\/hero-640w-[\w-]{16}\.webp 640w, /);
  });

  it("replaces the photo before: its files are deleted once the new one is recorded", async () => {
    await sendHeroForm(
      heroForm({ photo: { bytes: await plainPhoto(1400, 900), name: "first.jpg" }, heroImageAlt: "First" }),
      operator("family"),
    );
    const first = heroFiles(heroRecord());
    await sendHeroForm(
      heroForm({ photo: { bytes: await plainPhoto(1400, 900, "#aa3366"), name: "second.jpg" }, heroImageAlt: "Second" }),
      operator("family"),
    );
    const second = heroFiles(heroRecord());
    expect(second).not.toEqual(first);
    for (const key of first) expect(stored(key), key).toBe(false);
    expect(await siteFiles()).toEqual(second.map((key) => path.posix.basename(key)).sort());
    // The same photo again keeps its files (they are named after their bytes).
    await sendHeroForm(
      heroForm({ photo: { bytes: await plainPhoto(1400, 900, "#aa3366"), name: "again.jpg" }, heroImageAlt: "Again" }),
      operator("family"),
    );
    expect(heroFiles(heroRecord())).toEqual(second);
    for (const key of second) expect(stored(key), key).toBe(true);
  });

  it("refuses a form without a description, a file that is not a photo, and keeps the photo before", async () => {
    await sendHeroForm(
      heroForm({ photo: { bytes: await plainPhoto(800, 500), name: "kept.jpg" }, heroImageAlt: "Kept" }),
      operator("family"),
    );
    const kept = heroRecord();
    const before = await siteFiles();

    const noAlt = await sendHeroForm(
      heroForm({ photo: { bytes: await plainPhoto(800, 500), name: "a.jpg" }, heroImageAlt: "  " }),
      operator("family"),
    );
    expect(noAlt).toMatchObject({
      ok: false,
      status: 400,
      result: { formErrors: [], fieldErrors: { heroImageAlt: ["Photo description is required"] } },
    });
    const notPhoto = await sendHeroForm(
      heroForm({ photo: { bytes: Buffer.from("just some text, named like a photo"), name: "photo.jpg" }, heroImageAlt: "Text" }),
      operator("family"),
    );
    expect(notPhoto).toMatchObject({ ok: false, status: 415, result: { formErrors: [PHOTO_NOT_SUPPORTED] } });
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    expect(await sendHeroForm(heroForm({ photo: { bytes: gif, name: "a.gif" }, heroImageAlt: "Gif" }), operator("family"))).toMatchObject({
      status: 415,
    });
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]);
    const unreadable = await sendHeroForm(
      heroForm({ photo: { bytes: broken, name: "broken.jpg" }, heroImageAlt: "Broken" }),
      operator("family"),
    );
    expect(unreadable).toMatchObject({ ok: false, status: 422 });
    expect(!unreadable.ok && unreadable.result.formErrors[0]).toMatch(/^This photo could not be used: the photo could not be read/);

    expect(heroRecord()).toEqual(kept);
    expect(getSiteSettings().heroImageAlt).toBe("Kept");
    expect(await siteFiles()).toEqual(before);
    expect(await fs.readdir(path.join(config.STORAGE_DIR, "tmp")).catch(() => [])).toEqual([]);
  });

  it("refuses a photo over 25 MB, whether the form says so first or not", async () => {
    const declared = new Request(`${ORIGIN}/admin/site/hero`, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(30 * 1024 * 1024) },
      body: "--x--",
    });
    expect(await sendHeroForm(declared, operator("family"))).toMatchObject({
      ok: false,
      status: 413,
      result: { formErrors: [PHOTO_TOO_LARGE] },
    });
    const huge = Buffer.concat([await plainPhoto(100, 100), Buffer.alloc(26 * 1024 * 1024)]);
    const streamed = await sendHeroForm(heroForm({ photo: { bytes: huge, name: "huge.jpg" }, heroImageAlt: "Huge" }), operator("family"));
    expect(streamed).toMatchObject({ ok: false, status: 413, result: { formErrors: [PHOTO_TOO_LARGE], values: { heroImageAlt: "Huge" } } });
    expect(heroRecord()).toBeNull();
    expect(await fs.readdir(path.join(config.STORAGE_DIR, "tmp")).catch(() => [])).toEqual([]);
  });

  it("without a new photo changes only its description", async () => {
    await sendHeroForm(
      heroForm({ photo: { bytes: await plainPhoto(800, 500), name: "kept.jpg" }, heroImageAlt: "Mum on the pier" }),
      operator("family"),
    );
    const kept = heroRecord();
    expect(await sendHeroForm(heroForm({ heroImageAlt: "Mum on the pier at Santa Cruz" }), operator("family"))).toEqual({
      ok: true,
      saved: "words",
    });
    expect(getSiteSettings().heroImageAlt).toBe("Mum on the pier at Santa Cruz");
    expect(heroRecord()).toEqual(kept);
  });

  it("on a full disk answers the storage-full message and keeps the photo before", async () => {
    await sendHeroForm(
      heroForm({ photo: { bytes: await plainPhoto(800, 500), name: "kept.jpg" }, heroImageAlt: "Kept" }),
      operator("family"),
    );
    const kept = heroRecord();
    const before = await siteFiles();

    class FullDisk extends DiskStorage {
      override async write(): Promise<{ size: number }> {
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }
    }
    useMediaStorage(new FullDisk(config.STORAGE_DIR, config.sessionSecrets));
    const photo = { bytes: await plainPhoto(1500, 1000, "#123456"), name: "new.jpg" };
    expect(await sendHeroForm(heroForm({ photo, heroImageAlt: "New" }), operator("family"))).toMatchObject({
      ok: false,
      status: 507,
      result: { formErrors: [STORAGE_FULL], values: { heroImageAlt: "New" } },
    });

    // A disk below its free-space floor refuses before reading the photo.
    class NearlyFull extends DiskStorage {
      override async freeBytes() {
        return config.MIN_FREE_DISK_BYTES + 1024;
      }
    }
    useMediaStorage(new NearlyFull(config.STORAGE_DIR, config.sessionSecrets));
    expect(await sendHeroForm(heroForm({ photo, heroImageAlt: "New" }), operator("family"))).toMatchObject({
      status: 507,
      result: { formErrors: [STORAGE_FULL] },
    });

    expect(heroRecord()).toEqual(kept);
    expect(getSiteSettings().heroImageAlt).toBe("Kept");
    expect(await siteFiles()).toEqual(before);
  });

  it("“Use the original photo” goes back to the bundled photo and its description, and deletes the family's files", async () => {
    await sendHeroForm(
      heroForm({ photo: { bytes: await plainPhoto(800, 500), name: "mine.jpg" }, heroImageAlt: "Mine" }),
      operator("family"),
    );
    expect((await siteFiles()).length).toBe(4);
    await resetHeroPhoto(operator("family"));
    expect(heroRecord()).toBeNull();
    expect(getSiteView().heroImage).toEqual({ src: "/images/hero.jpg", width: 1600, height: 1000 });
    expect(getSiteSettings().heroImageAlt).toBe(content.heroImageAlt);
    expect(await siteFiles()).toEqual([]);
  });
});

describe("uploading the Karen Mode song", () => {
  it("stores the MP3, names it after its file unless given a title, and Karen Mode plays it", async () => {
    const bytes = await fs.readFile(BUNDLED_SONG);
    expect(await sendSongForm(songForm({ title: "No song yet" }), operator("family"))).toEqual({
      ok: false,
      status: 400,
      result: { formErrors: [SONG_REQUIRED], fieldErrors: {}, values: { title: "No song yet" } },
    });
    expect(await sendSongForm(songForm({ song: { bytes, name: "Our Party Song.mp3" } }), operator("family"))).toEqual({
      ok: true,
      saved: "file",
    });
    const record = songRecord()!;
    expect(record).toMatchObject({ title: "Our Party Song", originalName: "Our Party Song.mp3", bytes: bytes.length });
    expect(record.key).toMatch(/^site\/song-[\w-]{16}\.mp3$/);
    expect(await fs.readFile(path.join(objectsDir(), record.key))).toEqual(bytes);
    expect(getSiteView().karenMusic).toEqual({ mp3: `/media/site/${path.posix.basename(record.key)}`, title: "Our Party Song" });

    await sendSongForm(
      songForm({ song: { bytes: Buffer.concat([bytes, mp3Frame()]), name: "x.mp3" }, title: " Dancing Queen " }),
      operator("family"),
    );
    expect(songRecord()!.title).toBe("Dancing Queen");
    expect(stored(record.key)).toBe(false);
  });

  it("refuses anything that is not an MP3, a title too long, and keeps the song before", async () => {
    await sendSongForm(songForm({ song: { bytes: await fs.readFile(BUNDLED_SONG), name: "kept.mp3" } }), operator("family"));
    const kept = songRecord();
    const notMp3 = await sendSongForm(
      songForm({ song: { bytes: await fs.readFile(BUNDLED_OGG), name: "song.mp3" }, title: "Ogg" }),
      operator("family"),
    );
    expect(notMp3).toEqual({ ok: false, status: 415, result: { formErrors: [SONG_NOT_MP3], fieldErrors: {}, values: { title: "Ogg" } } });
    const long = await sendSongForm(
      songForm({ song: { bytes: await fs.readFile(BUNDLED_SONG), name: "a.mp3" }, title: "x".repeat(201) }),
      operator("family"),
    );
    expect(long).toMatchObject({ status: 400, result: { fieldErrors: { title: ["Song title must be at most 200 characters"] } } });
    const tooLarge = await sendSongForm(
      songForm({ song: { bytes: Buffer.alloc(16 * 1024 * 1024), name: "long.mp3" } }),
      operator("family"),
    );
    expect(tooLarge).toMatchObject({ status: 413 });
    expect(songRecord()).toEqual(kept);
    expect(await siteFiles()).toEqual([path.posix.basename(kept!.key)]);
  });

  it("without a new file renames the family's song (its file's name when the title is emptied)", async () => {
    await sendSongForm(songForm({ song: { bytes: await fs.readFile(BUNDLED_SONG), name: "party_mix.mp3" } }), operator("family"));
    const { key } = songRecord()!;
    expect(await sendSongForm(songForm({ title: "Dancing Queen" }), operator("family"))).toEqual({ ok: true, saved: "words" });
    expect(songRecord()).toMatchObject({ key, title: "Dancing Queen" });
    expect(getSiteView().karenMusic.title).toBe("Dancing Queen");
    await sendSongForm(songForm({ title: "" }), operator("family"));
    expect(songRecord()).toMatchObject({ key, title: "party mix" });
  });

  it("“Use the bundled song” goes back to the loop the site came with and deletes the family's file", async () => {
    await sendSongForm(songForm({ song: { bytes: await fs.readFile(BUNDLED_SONG), name: "mine.mp3" } }), operator("family"));
    await resetKarenSong(operator("family"));
    expect(getSiteView().karenMusic).toEqual({
      mp3: "/audio/karen-mode.mp3",
      ogg: "/audio/karen-mode.ogg",
      title: "Karen Mode party loop",
    });
    expect(await siteFiles()).toEqual([]);
  });
});

describe("serving the family's files at /media/site/{file}", () => {
  it("serves the files in use with their type, a year's cache and byte ranges; nothing else", async () => {
    await sendHeroForm(heroForm({ photo: { bytes: await plainPhoto(1300, 800), name: "a.jpg" }, heroImageAlt: "A" }), operator("family"));
    const song = await fs.readFile(BUNDLED_SONG);
    await sendSongForm(songForm({ song: { bytes: song, name: "a.mp3" } }), operator("family"));
    const { heroImage, karenMusic } = getSiteView();

    const jpeg = await serve(path.posix.basename(heroImage.src));
    expect(jpeg.status).toBe(200);
    expect(jpeg.headers.get("Content-Type")).toBe("image/jpeg");
    expect(jpeg.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect((await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata()).width).toBe(1280);
    const webpFile = heroImage.srcSetWebp!.split(", ")[0]!.split(" ")[0]!.split("/").pop()!;
    expect((await serve(webpFile)).headers.get("Content-Type")).toBe("image/webp");

    const mp3 = path.posix.basename(karenMusic.mp3);
    const whole = await serve(mp3);
    expect(whole.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(song);
    const part = await serve(mp3, { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 100-199/${song.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(song.subarray(100, 200));

    for (const file of ["hero-640w-AAAAAAAAAAAAAAAA.jpg", "../memorial.db", "song-x.ogg", "other.mp3", ""]) {
      expect((await serve(file)).status, file).toBe(404);
      expect(findSiteMediaFile(file)).toBeNull();
    }
    // A replaced file is gone.
    await resetKarenSong(operator("family"));
    expect((await serve(mp3)).status).toBe(404);
  });
});
