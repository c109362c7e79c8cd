import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImageCopies, sniffMediaType } from "~/media/process.server";
import { MediaProblem, PROCESSING_LIMITS } from "~/media/processing-limits.server";
import { makeVideoPoster, probeVideo } from "~/media/video.server";
import { runTool } from "~/media/run-tool.server";

const fixtures = path.resolve(__dirname, "../fixtures");
let work: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-media-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** A landscape JPEG whose EXIF says "turn 90° clockwise to view" and which carries a GPS position. */
async function phonePhoto(width = 1200, height = 800) {
  const file = path.join(work, `phone-${width}.jpg`);
  await sharp({ create: { width, height, channels: 3, background: "#3366aa" } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "TestPhone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "37/1 52/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "122/1 16/1 0/1" },
    })
    .toFile(file);
  return file;
}

describe("telling a file's real type from its bytes", () => {
  it("recognises every format the share page accepts", async () => {
    const head = async (file: string) => (await fs.readFile(file)).subarray(0, 64);
    const jpeg = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .jpeg()
      .toBuffer();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .webp()
      .toBuffer();
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    expect(sniffMediaType(jpeg)?.mime).toBe("image/jpeg");
    expect(sniffMediaType(png)?.mime).toBe("image/png");
    expect(sniffMediaType(webp)?.mime).toBe("image/webp");
    expect(sniffMediaType(gif)?.mime).toBe("image/gif");
    expect(sniffMediaType(await head(path.join(fixtures, "sample.heic")))).toMatchObject({ mime: "image/heic", type: "IMAGE" });
    expect(sniffMediaType(await head(path.join(fixtures, "sample.mp4")))).toMatchObject({ mime: "video/mp4", type: "VIDEO" });
    const avi = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("AVI LIST")]);
    expect(sniffMediaType(avi)).toMatchObject({ mime: "video/x-msvideo", type: "VIDEO" });
    const mov = Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from("ftypqt  "), Buffer.alloc(8)]);
    expect(sniffMediaType(mov)).toMatchObject({ mime: "video/quicktime", type: "VIDEO" });
  });

  it("refuses anything else whatever its name says", () => {
    expect(sniffMediaType(Buffer.from("<html><script>alert(1)</script>"))).toBeNull();
    expect(sniffMediaType(Buffer.from("%PDF-1.7\n"))).toBeNull();
    expect(sniffMediaType(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBeNull();
    const avif = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypavif"), Buffer.alloc(4), Buffer.from("avifmif1")]);
    expect(sniffMediaType(avif)).toBeNull();
    expect(sniffMediaType(Buffer.alloc(0))).toBeNull();
  });

  it("knows sound in a video's container: an .m4a by its brand is a voice, and probing a video finds no picture in it", async () => {
    const work = await fs.mkdtemp(path.join(tmpdir(), "memorial-audio-"));
    try {
      const m4a = path.join(work, "voice.m4a");
      const mp4 = path.join(work, "voice-memo.mp4");
      for (const file of [m4a, mp4])
        execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", file]);
      expect((await fs.readFile(m4a)).subarray(8, 12).toString("latin1")).toBe("M4A ");
      expect(sniffMediaType((await fs.readFile(m4a)).subarray(0, 64))).toMatchObject({ type: "AUDIO", mime: "audio/mp4" });
      // Same sound with an ordinary MP4 brand: it passes the first bytes as a video, and ffprobe says what it is
      // (processing then makes it a voice: tests/unit/voice-processing.test.ts).
      expect(sniffMediaType((await fs.readFile(mp4)).subarray(0, 64))).toMatchObject({ type: "VIDEO" });
      await expect(probeVideo(mp4)).rejects.toMatchObject({ kind: "unreadable", message: expect.stringContaining("no picture") });
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  });
});

describe("public copies and thumbnails of photos", () => {
  it("applies the EXIF orientation, removes the GPS position and makes a 280 px JPEG thumbnail", async () => {
    const photo = await phonePhoto();
    const original = await sharp(photo).metadata();
    expect(original.orientation).toBe(6);
    expect(original.exif?.includes("TestPhone")).toBe(true);
    const copies = await makeImageCopies(photo, "image/jpeg", 0, work);
    expect(copies).not.toBeNull();
    expect([copies!.width, copies!.height]).toEqual([800, 1200]);
    expect(copies.sizes.map((size) => [size.width, size.height])).toEqual([
      [640, 960],
      [800, 1200],
    ]);
    const display = await sharp(copies.sizes.at(-1)!.file).metadata();
    expect(display.exif).toBeUndefined();
    expect([display.format, display.width, display.height]).toEqual(["jpeg", 800, 1200]);
    const thumb = await sharp(copies!.thumbnail).metadata();
    expect(thumb.format).toBe("jpeg");
    expect(thumb.width).toBe(280);
    expect(thumb.height).toBe(420);
  });

  it("turns the picture further when the family rotated it", async () => {
    const copies = await makeImageCopies(await phonePhoto(), "image/jpeg", 1, work);
    expect([copies!.width, copies!.height]).toEqual([1200, 800]);
    for (const size of copies.sizes) {
      const meta = await sharp(size.file).metadata();
      expect([meta.width, meta.height]).toEqual([size.width, size.height]);
    }
    expect(copies.sizes.map((size) => [size.width, size.height])).toEqual([
      [640, 427],
      [1200, 800],
    ]);
    const thumb = await sharp(copies!.thumbnail).metadata();
    expect([thumb.width, thumb.height]).toEqual([280, 187]);
  });

  it("converts an iPhone HEIC photo to a JPEG every browser shows", async () => {
    const copies = await makeImageCopies(path.join(fixtures, "sample.heic"), "image/heic", 0, work);
    expect(copies).not.toBeNull();
    expect(copies.format.mime).toBe("image/jpeg");
    expect((await sharp(copies.sizes.at(-1)!.file).metadata()).format).toBe("jpeg");
    expect([copies!.width, copies!.height]).toEqual([640, 480]);
    expect((await sharp(copies!.thumbnail).metadata()).width).toBe(280);
  });

  it("makes web copies no longer than 2560 px on their longest side, in the standard widths below, never enlarged", async () => {
    const photo = async (width: number, height: number, format: "jpeg" | "png") => {
      const file = path.join(work, `plain-${width}x${height}.${format}`);
      const image = sharp({ create: { width, height, channels: format === "png" ? 4 : 3, background: "#88aa6640" } });
      await (format === "png" ? image.png() : image.jpeg()).toFile(file);
      return file;
    };
    const sizesOf = async (width: number, height: number, format: "jpeg" | "png" = "jpeg") => {
      const copies = await makeImageCopies(await photo(width, height, format), `image/${format}`, 0, work);
      for (const size of copies.sizes) {
        const meta = await sharp(size.file).metadata();
        expect([meta.format, meta.width, meta.height, meta.exif, meta.channels]).toEqual(["jpeg", size.width, size.height, undefined, 3]);
      }
      return { copies: copies.sizes.map((size) => `${size.width}x${size.height}`), original: [copies.width, copies.height] };
    };
    expect(await sizesOf(4032, 3024)).toEqual({ copies: ["640x480", "1280x960", "2560x1920"], original: [4032, 3024] });
    expect(await sizesOf(3024, 4032)).toEqual({ copies: ["640x853", "1280x1707", "1920x2560"], original: [3024, 4032] });
    expect(await sizesOf(2560, 400)).toEqual({ copies: ["640x100", "1280x200", "2560x400"], original: [2560, 400] });
    expect(await sizesOf(1000, 700, "png")).toEqual({ copies: ["640x448", "1000x700"], original: [1000, 700] });
    expect(await sizesOf(500, 300)).toEqual({ copies: ["500x300"], original: [500, 300] });
  });

  it("gives up quietly on a file that only looks like an image", async () => {
    const broken = path.join(work, "broken.jpg");
    await fs.writeFile(broken, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    await expect(makeImageCopies(broken, "image/jpeg", 0, work)).rejects.toThrow();
  });
});

describe("what one picture may cost", () => {
  /** A GIF like the one in the review: 28 KB, 1,000 frames of 500 × 500 (250 million pixels to decode). */
  function thousandFrameGif() {
    const file = path.join(work, "thousand-frames.gif");
    execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:size=500x500:rate=25", "-frames:v", "1000", file]);
    return file;
  }

  it("shows an animation with more frames than the limits allow as its first frame", async () => {
    const gif = thousandFrameGif();
    const original = await sharp(gif).metadata();
    expect([original.pages, (await fs.stat(gif)).size < 64 * 1024]).toEqual([1000, true]);
    const copies = await makeImageCopies(gif, "image/gif", 0, work);
    expect(copies.animated).toBe(false);
    const display = await sharp(copies.sizes.at(-1)!.file).metadata();
    expect([display.format, display.pages ?? 1, display.width, display.height]).toEqual(["jpeg", 1, 500, 500]);
    expect([copies.width, copies.height]).toEqual([500, 500]);
    expect((await sharp(copies.thumbnail).metadata()).width).toBe(280);
  });

  it("keeps a short animation moving", async () => {
    const gif = path.join(work, "short.gif");
    execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-frames:v", "12", gif]);
    const copies = await makeImageCopies(gif, "image/gif", 0, work);
    expect(copies.animated).toBe(true);
    expect(copies.sizes).toHaveLength(1);
    const display = await sharp(copies.sizes[0]!.file, { animated: true }).metadata();
    expect([display.pages, display.width, display.pageHeight]).toEqual([12, 96, 64]);
    expect((await sharp(copies.thumbnail).metadata()).pages ?? 1).toBe(1);
  });

  it("refuses a picture larger than the pixel limit before decoding it", async () => {
    const photo = await phonePhoto(1200, 800);
    const limits = { ...PROCESSING_LIMITS, imagePixels: 500_000 };
    const refused = await makeImageCopies(photo, "image/jpeg", 0, work, { limits }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MediaProblem);
    expect(refused).toMatchObject({
      kind: "too-large",
      message: "the photo is 1200 × 800 pixels, and photos up to 0.5 megapixels can be shown",
    });
  });

  it("calls a file with a photo's first bytes and nothing after them unreadable", async () => {
    const broken = path.join(work, "garbage.jpg");
    await fs.writeFile(broken, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("not really a jpeg at all")]));
    await expect(makeImageCopies(broken, "image/jpeg", 0, work)).rejects.toMatchObject({ kind: "unreadable" });
  });
});

describe("the media tools' own limits", () => {
  it("kills a tool when its job runs out of time", async () => {
    const controller = new AbortController();
    const running = runTool("sleep", ["30"], { timeoutMs: 60_000, signal: controller.signal });
    controller.abort();
    // It settles only once the process has exited: killed, not left running for 30 s.
    await expect(running).rejects.toMatchObject({ kind: "too-slow" });
  });

  it("runs the tools within a memory limit", async () => {
    expect(await runTool("ffprobe", ["-version"], { timeoutMs: 30_000 })).toContain("ffprobe version");
    // With too little address space even loading ffprobe's libraries fails: the cap is really applied.
    await expect(runTool("ffprobe", ["-version"], { timeoutMs: 30_000, memoryBytes: 32 * 1024 * 1024 })).rejects.toMatchObject({
      name: "ToolFailed",
      missing: false,
    });
  });

  it("tells a tool that is not installed from a file it cannot read", async () => {
    await expect(runTool("no-such-media-tool", [], { timeoutMs: 30_000 })).rejects.toMatchObject({ missing: true });
    await expect(runTool("ffprobe", ["-v", "error", "/no/such/file.mp4"], { timeoutMs: 30_000 })).rejects.toMatchObject({ missing: false });
  });
});

describe("videos", () => {
  it("measures duration and size with ffprobe and takes a poster frame", async () => {
    const video = path.join(fixtures, "sample.mp4");
    expect(await probeVideo(video)).toEqual({ durationSec: 3, width: 320, height: 240, pictures: [{ width: 320, height: 240 }] });
    const poster = await makeVideoPoster(video, 3, work);
    expect(poster).not.toBeNull();
    const meta = await sharp(poster!).metadata();
    expect([meta.format, meta.width]).toEqual(["jpeg", 280]);
  });

  it("reports nothing rather than failing for a video ffprobe cannot read", async () => {
    const fake = path.join(work, "fake.mp4");
    await fs.writeFile(fake, Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from("ftypisom"), Buffer.alloc(100)]));
    expect(await probeVideo(fake)).toBeNull();
    expect(await makeVideoPoster(fake, null, work)).toBeNull();
  });

  it("has the tools the container ships", () => {
    expect(() => execFileSync("ffprobe", ["-version"])).not.toThrow();
    expect(() => execFileSync("heif-convert", ["--version"], { stdio: "ignore" })).not.toThrow();
  });
});
