import { execFileSync } from "node:child_process";
import { createReadStream, readFileSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signedUploads, uploads, type Upload } from "../../db/schema";
import { db } from "~/platform/db.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { sniffMediaType } from "~/media/process.server";
import { CpuBudgetExceeded } from "~/media/cpu-budget.server";
import { ToolFailed } from "~/media/run-tool.server";
import { voiceGain, voiceToolProblem } from "~/media/voice.server";
import { operator } from "~/platform/actor.server";
import { Refusal } from "~/platform/refusal.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { loader as mediaLoader } from "~/routes/media.$id.$file";
import { makeVoiceFile, measureLufs, probe, type VoiceFormat } from "../support/voice-fixtures";

// Voice memories through the real pipeline: stored, identified by their
// bytes, turned into one loudness-normalised AAC M4A without metadata, the
// original kept; ten minutes at most.

let work: string;
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-voices-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});
beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
});

/** A file's first 64 bytes, all that sniffing reads. */
async function headOf(file: string) {
  const head = Buffer.alloc(64);
  const handle = await fs.open(file);
  await handle.read(head, 0, 64, 0);
  await handle.close();
  return head;
}

/** Opus in WebM, `seconds` long, whose header (its Duration element) says 5 seconds. */
function webmClaimingFiveSeconds(seconds: number) {
  const file = path.join(work, `claims-5s-holds-${seconds}s.webm`);
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", `sine=f=220:duration=${seconds}`],
    ...["-c:a", "libopus", "-b:a", "6k", "-ac", "1", "-compression_level", "0", "-frame_duration", "60", file],
  ]);
  const bytes = readFileSync(file);
  // Duration (0x4489), an 8-byte float in milliseconds.
  const at = bytes.indexOf(Buffer.from([0x44, 0x89, 0x88]));
  expect(at).toBeGreaterThan(0);
  bytes.writeDoubleBE(5000, at + 3);
  writeFileSync(file, bytes);
  return file;
}

const row = (id: number): Upload => db.select().from(uploads).where(eq(uploads.id, id)).get()!;

/** A recording sent as the voice form sends it (declared a voice, unless `declared` says otherwise), then processed. */
async function send(file: string, options: { name?: string; declared?: "AUDIO" | null; caption?: string; canDisplay?: boolean } = {}) {
  const originalName = options.name ?? path.basename(file);
  const key = await storeFormUpload({ stream: createReadStream(file), filename: originalName });
  const view = await registerFormUpload(key, {
    submittedBy: "Aunt May",
    originalName,
    declaredType: options.declared === undefined ? "AUDIO" : options.declared,
    caption: options.caption,
    canDisplay: options.canDisplay,
  });
  await processingIdle();
  return row(view.id);
}

/** The published copy's bytes, as a visitor's browser gets them. */
async function published(upload: Upload) {
  const file = path.posix.basename(upload.url);
  const response = await mediaLoader({
    request: new Request(`http://memorial.test${upload.url}`),
    params: { id: String(upload.id), file },
    context: {},
  });
  return response;
}

async function saved(response: Response, name: string) {
  const file = path.join(work, name);
  await fs.writeFile(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

describe("a voice memory's bytes say what it is", () => {
  it.each<[VoiceFormat, string]>([
    ["m4a", "audio/mp4"],
    ["mp3", "audio/mpeg"],
    ["wav", "audio/wav"],
  ])("a %s recording is a voice (%s), whatever it is called", async (format, mime) => {
    expect(sniffMediaType(await headOf(makeVoiceFile(work, format, { seconds: 2 })))).toMatchObject({ type: "AUDIO", mime });
  });

  it.each<[VoiceFormat, string]>([
    ["webm", "video/webm"],
    ["ogg", "video/ogg"],
  ])("a %s file may hold pictures too, as an MP4 may: its bytes leave it to processing (%s)", async (format, mime) => {
    expect(sniffMediaType(await headOf(makeVoiceFile(work, format, { seconds: 2 })))).toMatchObject({ type: "VIDEO", mime });
  });

  it("does not take a photo's or a text's first bytes for sound", () => {
    expect(sniffMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(60)]))?.type).toBe("IMAGE");
    expect(sniffMediaType(Buffer.from("Dear family, this is not a recording at all, only words in a file.."))).toBeNull();
    // An MPEG frame header with an invalid bitrate is no frame.
    expect(sniffMediaType(Buffer.from([0xff, 0xfb, 0xf0, 0x00, ...Buffer.alloc(60)]))).toBeNull();
  });
});

describe("processing a voice memory", () => {
  it.each<[VoiceFormat, string]>([
    ["m4a", "an iPhone's Voice Memos"],
    ["webm", "Chrome's recorder"],
    ["3gp", "an Android phone"],
    ["ogg", "Firefox's recorder"],
    ["mp3", "an MP3"],
    ["wav", "a WAV"],
  ])("turns %s (%s) into one AAC M4A at -16 LUFS without metadata, and keeps the original", async (format) => {
    const original = makeVoiceFile(work, format, { seconds: 12, lufs: -32 });
    const upload = await send(original, { caption: "Happy birthday, Jo" });
    expect(upload).toMatchObject({
      type: "AUDIO",
      processingError: null,
      caption: "Happy birthday, Jo",
      canDisplay: true,
      durationSec: 12,
    });
    expect(upload.displayKey).toMatch(/-voice\.m4a$/);
    expect(upload.url).toBe(`/media/${upload.id}/${path.posix.basename(upload.displayKey!)}`);
    expect(await getMediaStorage().stat(upload.storageKey!)).toMatchObject({ size: (await fs.stat(original)).size });

    await setUploadStatus(upload.id, "APPROVED", operator());
    const response = await published(upload);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("audio/mp4");
    const copy = await saved(response, `published-${format}.m4a`);
    const facts = probe(copy);
    expect(facts.format).toContain("mp4");
    expect(facts.codecs).toEqual(["aac"]);
    expect(Object.values(facts.tags).join(" ")).not.toContain("Elm Street");
    expect(Math.abs(facts.seconds - 12)).toBeLessThan(0.2);
    expect(Math.abs(measureLufs(copy) - -16)).toBeLessThanOrEqual(1);
  });

  it("brings a whisper and a shout to the same loudness", async () => {
    const whisper = await send(makeVoiceFile(work, "m4a", { seconds: 8, lufs: -40 }));
    const shout = await send(makeVoiceFile(work, "webm", { seconds: 8, lufs: -9 }));
    const levels: number[] = [];
    for (const upload of [whisper, shout]) {
      await setUploadStatus(upload.id, "APPROVED", operator());
      levels.push(measureLufs(await saved(await published(upload), `level-${upload.id}.m4a`)));
    }
    expect(Math.abs(levels[0]! - levels[1]!)).toBeLessThanOrEqual(1);
  });

  it("blames the recording only for what reading it found: the server's failures keep it for the family", () => {
    const damaged = new ToolFailed("ffmpeg failed (1): Invalid data found when processing input", false);
    const killed = new ToolFailed("ffmpeg failed (SIGKILL): ", false, true);
    const full = new ToolFailed("ffmpeg failed (1): Error writing trailer: No space left on device", false);
    const kinds = (error: unknown) => [voiceToolProblem(error, "unreadable").kind, voiceToolProblem(error, "failed").kind];
    // Reading it the first time: a damaged file is no recording; a killed tool or a full disk is the server's.
    expect(kinds(damaged)).toEqual(["unreadable", "failed"]);
    expect(kinds(killed)).toEqual(["failed", "failed"]);
    expect(kinds(full)).toEqual(["failed", "failed"]);
    expect(kinds(new CpuBudgetExceeded(40))).toEqual(["too-slow", "too-slow"]);
    expect(voiceToolProblem(new ToolFailed("not found", true), "unreadable")).toMatchObject({ kind: "failed" });
  });

  it("never raises a near-silent recording by more than 30 dB, nor lowers a shout by more", () => {
    expect([voiceGain(-40), voiceGain(-9), voiceGain(-70), voiceGain(10), voiceGain(null)]).toEqual([24, -7, 30, -26, 0]);
  });

  it("makes an MP4 with sound alone a voice even when it was sent as a photo or video", async () => {
    const original = makeVoiceFile(work, "3gp", { seconds: 3 });
    const upload = await send(original, { declared: null, name: "Recording 14.3gp" });
    expect(upload).toMatchObject({ type: "AUDIO", mimeType: "audio/mp4", processingError: null, durationSec: 3 });
  });

  it("makes a WebM or Ogg with sound alone a voice, sent as anything", async () => {
    for (const format of ["webm", "ogg"] as const) {
      const upload = await send(makeVoiceFile(work, format, { seconds: 3 }), { declared: null, name: `Recording.${format}` });
      expect(upload).toMatchObject({ type: "AUDIO", mimeType: `audio/${format}`, processingError: null, durationSec: 3 });
    }
  });

  it("keeps a WebM video a video, its pictures and all, unless it was sent as a voice", async () => {
    const video = path.join(work, "birthday.webm");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=3"],
      ...["-f", "lavfi", "-i", "sine=f=330:duration=3", "-c:v", "libvpx", "-b:v", "200k", "-c:a", "libopus", "-shortest", video],
    ]);
    const asVideo = await send(video, { declared: null });
    expect(asVideo).toMatchObject({ type: "VIDEO", mimeType: "video/webm", processingError: null, width: 320, height: 240 });
    expect(asVideo.thumbnailKey).not.toBeNull();
    // Sent as a voice (the voice form, or type AUDIO): its sound is the voice.
    const asVoice = await send(video);
    expect(asVoice).toMatchObject({ type: "AUDIO", mimeType: "audio/webm", processingError: null, durationSec: 3 });
  });

  it("measures a recording by its sound, not by what its header claims", async () => {
    // A WebM whose Duration element was rewritten to say 5 seconds: eleven minutes of sound, then forty seconds.
    for (const [seconds, expected] of [
      [660, { refused: "This recording is more than 10 minutes long. Voice memories can be at most 10 minutes." }],
      [40, { durationSec: 40 }],
    ] as const) {
      const forged = webmClaimingFiveSeconds(seconds);
      expect(probe(forged).seconds).toBe(5);
      if ("refused" in expected) {
        await expect(send(forged)).rejects.toMatchObject({ status: 400, message: expected.refused });
        expect(db.select().from(uploads).all()).toEqual([]);
      } else {
        // Within ten minutes, the length kept and shown is the sound's own.
        expect(await send(forged)).toMatchObject({ type: "AUDIO", processingError: null, durationSec: expected.durationSec });
      }
    }
  });

  it("refuses a recording of ten minutes and one second with its length, and keeps nothing", async () => {
    const long = makeVoiceFile(work, "webm", { seconds: 601 });
    const refused = await send(long).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({ status: 400, message: "This recording is 10:01 long. Voice memories can be at most 10 minutes." });
    expect(db.select().from(uploads).all()).toEqual([]);
  });

  it("takes a recording of exactly ten minutes", async () => {
    const upload = await send(makeVoiceFile(work, "webm", { seconds: 600 }));
    expect(upload).toMatchObject({ type: "AUDIO", durationSec: 600, processingError: null });
  });

  it("refuses a photo sent as a voice, and a file that is no recording, with the reason", async () => {
    const text = path.join(work, "notes.m4a");
    await fs.writeFile(text, "These are my notes for the service, not a recording.");
    for (const file of [text, path.resolve("tests/fixtures/sample.heic")]) {
      await expect(send(file)).rejects.toMatchObject({
        status: 415,
        message: "This file is not a voice recording we can accept. Voice memories can be M4A, WebM, Ogg, 3GP, MP3 or WAV recordings.",
      });
    }
    expect(db.select().from(uploads).all()).toEqual([]);
  });

  it("keeps a voice shared with the family only from every visitor, even once published", async () => {
    const upload = await send(makeVoiceFile(work, "m4a", { seconds: 2 }), { canDisplay: false });
    await setUploadStatus(upload.id, "APPROVED", operator());
    expect((await published(upload)).status).toBe(404);
  });
});
