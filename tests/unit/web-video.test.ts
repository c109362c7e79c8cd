import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWebVideo, probeForWeb, WEB_VIDEO } from "~/media/web-video.server";

// Tiny clips made here with Debian's ffmpeg, as phones and old cameras make
// them, each turned into the web copy and read back with ffprobe.

let work: string;
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-web-video-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

const ffmpeg = (args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", ...args]);
const source = (size: string) => [
  "-f",
  "lavfi",
  "-i",
  `testsrc2=size=${size}:rate=25:duration=1`,
  "-f",
  "lavfi",
  "-i",
  "sine=frequency=440:duration=1",
];

/** An iPhone-like HEVC .mov (10-bit, as recent iPhones film) with where it was filmed and a comment. */
function hevcMov() {
  const file = path.join(work, "phone.mov");
  ffmpeg([
    ...source("320x240"),
    ...["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1"],
    ...["-c:a", "aac", "-metadata", "location=+48.8584+002.2945/", "-metadata", "comment=Filmed on TestPhone 15"],
    ...["-metadata", "com.apple.quicktime.location.ISO6709=+48.8584+002.2945+035.000/", "-metadata", "make=Apple"],
    ...["-f", "mov", file],
  ]);
  return file;
}

/** An old camera's AVI: MPEG-4 Part 2 pictures and MP3-free PCM sound. */
function mpeg4Avi() {
  const file = path.join(work, "camera.avi");
  ffmpeg([...source("320x240"), "-c:v", "mpeg4", "-q:v", "5", "-c:a", "pcm_s16le", "-metadata", "comment=Camera", file]);
  return file;
}

/** An H.264 MP4 wider than the web copy may be (so it is made smaller). */
function wideH264() {
  const file = path.join(work, "wide.mp4");
  ffmpeg([...source("1280x160"), "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-metadata", "location=+40.0+010.0/", file]);
  return file;
}

/** An MP4 that already plays everywhere: H.264 High yuv420p, AAC, small, modest bitrate. */
function compatibleMp4() {
  const file = path.join(work, "ready.mp4");
  ffmpeg([
    ...source("320x240"),
    ...["-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high", "-pix_fmt", "yuv420p", "-c:a", "aac"],
    ...["-metadata", "location=+40.0+010.0/", "-metadata", "comment=hello", file],
  ]);
  return file;
}

function ffprobe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-count_packets", "-of", "json", file]);
  return JSON.parse(String(out)) as {
    format: { tags?: Record<string, string> };
    streams: {
      codec_type: string;
      codec_name: string;
      profile?: string;
      pix_fmt?: string;
      width?: number;
      height?: number;
      nb_read_packets?: string;
      tags?: Record<string, string>;
    }[];
  };
}

/** Whether the MP4's index (moov) comes before its media data (mdat), so playback starts at once. */
async function moovFirst(file: string) {
  const bytes = await fs.readFile(file);
  let offset = 0;
  const order: string[] = [];
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    order.push(type);
    if (size < 8) break;
    offset += size;
  }
  return order.indexOf("moov") >= 0 && order.indexOf("moov") < order.indexOf("mdat");
}

async function expectWebCopy(file: string) {
  const info = ffprobe(file);
  const video = info.streams.find((stream) => stream.codec_type === "video")!;
  const audio = info.streams.find((stream) => stream.codec_type === "audio")!;
  expect(video).toMatchObject({ codec_name: "h264", profile: "High", pix_fmt: "yuv420p" });
  expect(audio).toMatchObject({ codec_name: "aac" });
  expect(info.streams).toHaveLength(2);
  expect(Math.max(video.width!, video.height!)).toBeLessThanOrEqual(WEB_VIDEO.maxSide);
  expect(await moovFirst(file)).toBe(true);
  // Nothing of where, what with or who: no location, comment or make in the file or its streams (only
  // the MP4 sample description's compressor name, "Lavc libx264" when we encoded it, names a program).
  const tags = JSON.stringify([info.format.tags ?? {}, ...info.streams.map((stream) => stream.tags ?? {})]);
  expect(tags).not.toMatch(/location|comment|make|apple|date|48\.8584|TestPhone/i);
  const bytes = await fs.readFile(file);
  expect(bytes.includes("48.8584")).toBe(false);
  expect(bytes.includes("TestPhone")).toBe(false);
  return { video, audio };
}

async function convert(file: string, mime: string) {
  const facts = await probeForWeb(file);
  expect(facts).not.toBeNull();
  const progress: number[] = [];
  const copy = await makeWebVideo(file, mime, facts!, path.join(work, "out"), {
    cpuSeconds: 60,
    onProgress: (percent) => progress.push(percent),
  });
  return { ...copy, progress };
}

describe("the web copy of a video", () => {
  it("re-encodes an iPhone's HEVC .mov into H.264 + AAC without its location", async () => {
    const original = hevcMov();
    expect(ffprobe(original).format.tags?.location).toContain("48.8584");
    const copy = await convert(original, "video/quicktime");
    expect(copy).toMatchObject({ reencoded: true, originalPlays: false });
    const { video } = await expectWebCopy(copy.file);
    expect([video.width, video.height]).toEqual([320, 240]);
  });

  it("re-encodes an MPEG-4 Part 2 AVI", async () => {
    const copy = await convert(mpeg4Avi(), "video/x-msvideo");
    expect(copy.reencoded).toBe(true);
    await expectWebCopy(copy.file);
  });

  it("makes an H.264 MP4 wider than 1080 px smaller, never larger than it was", async () => {
    const copy = await convert(wideH264(), "video/mp4");
    // Smaller only: the original plays everywhere as it is.
    expect(copy).toMatchObject({ reencoded: true, originalPlays: true });
    const { video } = await expectWebCopy(copy.file);
    expect([video.width, video.height]).toEqual([1080, 134]);
  });

  it("copies an MP4 that already plays everywhere without encoding it again, metadata removed", async () => {
    const original = compatibleMp4();
    const copy = await convert(original, "video/mp4");
    expect(copy).toMatchObject({ reencoded: false, originalPlays: true });
    const { video } = await expectWebCopy(copy.file);
    const before = ffprobe(original).streams.find((stream) => stream.codec_type === "video")!;
    // The very same pictures: the same number of packets, and the same bytes of picture data.
    expect(video.nb_read_packets).toBe(before.nb_read_packets);
    const packets = (file: string) =>
      execFileSync("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", file]).toString();
    expect(packets(copy.file)).toBe(packets(original));
  });

  it("reports how far the encode has come from ffmpeg's progress", async () => {
    const file = path.join(work, "longer.mp4");
    ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=6", "-c:v", "mpeg4", file]);
    const copy = await convert(file, "video/mp4");
    expect(copy.progress.length).toBeGreaterThan(0);
    expect(copy.progress.every((percent) => percent >= 0 && percent <= 99)).toBe(true);
  });

  it("turns a video filmed upright the right way up", async () => {
    const plain = path.join(work, "sideways-plain.mp4");
    ffmpeg([...source("320x240"), "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", plain]);
    const rotated = path.join(work, "sideways.mp4");
    ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", rotated]);
    const facts = await probeForWeb(rotated);
    expect(facts!.video!.rotation).not.toBe(0);
    const copy = await convert(rotated, "video/mp4");
    expect(copy.reencoded).toBe(true);
    const { video } = await expectWebCopy(copy.file);
    expect([video.width, video.height]).toEqual([240, 320]);
  });
});
