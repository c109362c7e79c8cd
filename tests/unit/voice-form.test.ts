// The voice form's server, called as Remix calls it: POST /voices (the form
// of the guest book, the share page and /voices, without JavaScript) and
// POST /api/voices (the same form from the in-page recorder), with real
// recordings made by ffmpeg, real storage and the real processing. Every
// refusal keeps nothing and gives back what was typed.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { itemTitle } from "~/uploads/item-title";
import { makeTranslator, type PageWords } from "~/i18n/words";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // "E-mail me when the family has added my memory" is offered only when the site sends e-mail.
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "Memorial <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { signedUploads, uploads, type Upload } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { countUpload, resetUploadLimits, TOO_MANY_UPLOADS, UPLOADS_PER_10_MINUTES } from "~/uploads/upload-intake.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { countSubmission, resetSubmissionLimits, TOO_MANY_SUBMISSIONS } from "~/platform/submission-limit.server";
import { config } from "~/platform/config.server";
import { VOICE_FORM } from "~/voices/voice-form.server";
import { VOICES_PER_PAGE } from "~/voices/voices.server";
import { action as voicesAction, loader as voicesLoader } from "~/routes/voices";
import { action as apiVoices } from "~/routes/api.voices";
import { loader as apiGallery } from "~/routes/api.gallery";
import { loader as galleryLoader } from "~/routes/gallery";
import { loader as galleryItemLoader } from "~/routes/gallery_.$id";
import { loader as guestbookLoader } from "~/routes/guestbook";
import { loader as shareLoader } from "~/routes/share";
import { loader as voicePageLoader } from "~/routes/voices_.$id";
import { answer, toastOf } from "../support/route-calls";
import { makeVoiceFile } from "../support/voice-fixtures";
import { LANGUAGES } from "~/i18n/languages";
import { VOICE_OVER_LIMIT, voiceTooLong } from "~/media/voice-length";
import { voiceFormHtml, voiceWords } from "~/routes/voice-section.server";
import { updateSiteSettings } from "~/site/settings.server";
import { SettingsPatch } from "~/site/settings.schema";
import { refusalIn, type RecorderWords } from "~/voices/voice-form.constants";

const ORIGIN = "http://memorial.test";
const NOT_A_RECORDING =
  "This file is not a voice recording we can accept. Voice memories can be M4A, WebM, Ogg, 3GP, MP3 or WAV recordings.";

let work: string;
let voice: Buffer;
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-voice-form-"));
  voice = readFileSync(makeVoiceFile(work, "m4a", { seconds: 3 }));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});
beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
  resetUploadLimits();
  resetSubmissionLimits();
});

/**
 * Opus in WebM written as it is made (to a pipe), as Chrome's and Firefox's
 * MediaRecorder write it: no length in its header, no index.
 */
function streamedWebm(seconds: number): Buffer {
  const file = path.join(work, `streamed-${seconds}s.webm`);
  const webm = execFileSync(
    "ffmpeg",
    ["-v", "error", "-f", "lavfi", "-i", `sine=f=220:d=${seconds}`, "-c:a", "libopus", "-b:a", "24k", "-f", "webm", "pipe:1"],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  writeFileSync(file, webm);
  const probed = JSON.parse(
    execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "json", file]).toString(),
  ) as {
    format: { duration?: string };
  };
  expect(probed.format.duration).toBeUndefined();
  return webm;
}

interface Recording {
  name: string;
  bytes: Buffer;
  type?: string;
}

/** A multipart body as a browser sends the form: the fields and recordings in order, with its length. */
async function formRequest(
  url: string,
  fields: Record<string, string>,
  recordings: Recording[] = [],
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const recording of recordings)
    form.append("recording", new Blob([new Uint8Array(recording.bytes)], { type: recording.type ?? "audio/mp4" }), recording.name);
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Request(`${ORIGIN}${url}`, {
    method: "POST",
    body,
    headers: { "Content-Type": encoded.headers.get("Content-Type")!, "Content-Length": String(body.length), ...headers },
  });
}

const call = <T>(fn: (args: never) => T, request: Request, { params = {}, clientIp }: { params?: object; clientIp?: string } = {}) =>
  answer(() => fn({ request, params, context: clientIp ? { clientIp } : {} } as never));

/** Posts the form without JavaScript, as the guest book's form does unless `fields` say otherwise. */
const sendForm = (
  fields: Record<string, string>,
  recordings: Recording[] = [{ name: "voice-memo.m4a", bytes: voice }],
  clientIp?: string,
) => formRequest("/voices", { from: "/guestbook", ...fields }, recordings).then((request) => call(voicesAction, request, { clientIp }));

const sendToApi = (fields: Record<string, string>, recordings: Recording[] = [{ name: "voice-memo.m4a", bytes: voice }]) =>
  formRequest("/api/voices", fields, recordings).then((request) => call(apiVoices, request));

const storedOriginals = () => {
  const dir = path.join(process.env.STORAGE_DIR!, "originals");
  return existsSync(dir) ? readdirSync(dir) : [];
};

/** Nothing of a refused form is left: no upload, no waiting key, no file. */
function expectNothingKept() {
  expect(db.select().from(uploads).all()).toEqual([]);
  expect(db.select().from(signedUploads).all()).toEqual([]);
  expect(storedOriginals()).toEqual([]);
}

const onlyUpload = (): Upload => {
  const rows = db.select().from(uploads).all();
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

/** The page /voices answers a refused form with: its status and the form's HTML. */
async function refusedPage(response: Response) {
  const { formHtml } = (await response.json()) as { formHtml: string };
  return formHtml;
}

async function publishedVoice(fields: Record<string, string> = {}) {
  const response = await sendForm({ name: "Ann", line: "For Jo, from the lake", canDisplay: "on", ...fields });
  expect(response.status).toBe(303);
  await processingIdle();
  const upload = onlyUploadNamed(fields.name ?? "Ann");
  await setUploadStatus(upload.id, "APPROVED", operator());
  return upload.id;
}

const onlyUploadNamed = (name: string) => db.select().from(uploads).where(eq(uploads.submittedBy, name)).get()!;

describe("the voice form without JavaScript (POST /voices)", () => {
  it("stores a voice with its name, line and permission, and goes back to the page it came from with the toast", async () => {
    const response = await sendForm({ name: " Ann ", email: "", line: "For Jo,\r\nfrom the lake", canDisplay: "on" });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/guestbook");
    expect(toastOf(response)).toMatchObject({
      title: "Voice Memory Submitted",
      description: "Thank you for sharing your voice. It will be reviewed before being published.",
    });
    await processingIdle();
    expect(onlyUpload()).toMatchObject({
      type: "AUDIO",
      status: "PENDING",
      submittedBy: "Ann",
      originalName: "voice-memo.m4a",
      caption: "For Jo,\nfrom the lake",
      canDisplay: true,
      notifyWhenPublished: false,
    });
  });

  it("keeps the sender's address as the share form writes it, and a voice without permission for the family alone", async () => {
    const response = await sendForm({ from: "/share", name: "Grandpa Ted", email: "ted@example.com", notify: "on" });
    expect(response.headers.get("Location")).toBe("/share");
    expect(onlyUpload()).toMatchObject({
      submittedBy: "Grandpa Ted (ted@example.com)",
      caption: null,
      canDisplay: false,
      notifyWhenPublished: true,
    });
  });

  it("goes back only to a page that shows the form", async () => {
    for (const from of ["https://elsewhere.example/", "//elsewhere.example", "/admin", ""]) {
      db.delete(uploads).run();
      const response = await sendForm({ from, name: "Ann" });
      expect(response.headers.get("Location"), from).toBe("/voices");
    }
  });

  it("thanks a bot that filled in the hidden field, and keeps nothing", async () => {
    const response = await sendForm({ name: "Bot", website: "http://spam.example" });
    expect(response.status).toBe(303);
    expect(toastOf(response)?.title).toBe("Voice Memory Submitted");
    expectNothingKept();
  });

  it.each<[string, Record<string, string>, Recording[] | undefined, Record<string, string[]>]>([
    ["without a name", { name: "  ", line: "Hello" }, undefined, { name: ["Name is required"] }],
    ["with an address that is not one", { name: "Ann", email: "ann.example.com" }, undefined, { email: ["Valid email is required"] }],
    [
      "asking to be told without an address",
      { name: "Ann", notify: "on" },
      undefined,
      { email: ["Please give your email so we can tell you when it is added."] },
    ],
    [
      "with a line of 301 characters",
      { name: "Ann", line: "x".repeat(301) },
      undefined,
      { line: ["The line must be at most 300 characters."] },
    ],
    ["without a recording", { name: "Ann", line: "Hello" }, [], { recording: ["Please record or choose a voice memory to send."] }],
  ])("refuses a form %s (400), keeps nothing and gives back what was typed", async (_case, fields, recordings, errors) => {
    const response = await sendForm({ canDisplay: "on", ...fields }, recordings);
    expect(response.status).toBe(400);
    const html = await refusedPage(response);
    for (const message of Object.values(errors).flat()) expect(html).toContain(message.replace(/'/g, "&#x27;"));
    // Each refused field is marked and named in the summary, which takes the focus.
    for (const field of Object.keys(errors)) {
      expect(html).toMatch(new RegExp(`id="voice-${field}"[^>]*aria-invalid="true"`));
      expect(html).toContain(`href="#voice-${field}"`);
    }
    expect(html).toMatch(/role="alert"[^>]*autofocus=""/);
    // What was typed comes back; the page still sends to where the form came from.
    if (fields.name?.trim()) expect(html).toContain(`value="${fields.name}"`);
    if (fields.line && fields.line.length < 301) expect(html).toContain(`>${fields.line}</textarea>`);
    expect(html).toContain('name="from" value="/guestbook"');
    expect(html).toMatch(/id="voice-canDisplay"[^>]*checked=""/);
    // A browser never gives a chosen file back: the visitor is told to choose it again.
    if (!errors.recording) expect(html).toContain("Your recording was not kept. Please record or choose it again before sending.");
    expectNothingKept();
  });

  it("refuses what is not a recording (415), with the reason", async () => {
    const response = await sendForm({ name: "Ann" }, [{ name: "words.m4a", bytes: Buffer.from("Only words, typed into a file.") }]);
    expect(response.status).toBe(415);
    expect(await refusedPage(response)).toContain(NOT_A_RECORDING);
    expectNothingKept();
  });

  it("refuses a photo sent as a recording (415)", async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)]);
    const response = await sendForm({ name: "Ann" }, [{ name: "photo.jpg", bytes: jpeg, type: "image/jpeg" }]);
    expect(response.status).toBe(415);
    expectNothingKept();
  });

  it("refuses a recording of ten minutes and one second, saying how long it is", async () => {
    const long = readFileSync(makeVoiceFile(work, "webm", { seconds: 601 }));
    const response = await sendForm({ name: "Ann", line: "A long story" }, [{ name: "story.webm", bytes: long, type: "audio/webm" }]);
    expect(response.status).toBe(400);
    const html = await refusedPage(response);
    expect(html).toContain("This recording is 10:01 long. Voice memories can be at most 10 minutes.");
    expect(html).toContain(">A long story</textarea>");
    expectNothingKept();
  }, 120_000);

  it("says a recording is too long in the visitor's language", async () => {
    const saved = await updateSiteSettings(SettingsPatch.parse({ languages: ["en", "es"] }), operator());
    expect(saved.ok).toBe(true);
    try {
      const long = readFileSync(makeVoiceFile(work, "webm", { seconds: 601 }));
      const request = await formRequest("/voices?lang=es", { from: "/guestbook", name: "Ana" }, [
        { name: "historia.webm", bytes: long, type: "audio/webm" },
      ]);
      const response = await call(voicesAction, request);
      expect(response.status).toBe(400);
      expect(await refusedPage(response)).toContain("Esta grabación dura 10:01. Los recuerdos de voz pueden durar como máximo 10 minutos.");
      expectNothingKept();
    } finally {
      await updateSiteSettings(SettingsPatch.parse({ languages: ["en"] }), operator());
    }
  }, 120_000);

  it("has both length refusals in every language, the same on the page and in the in-page recorder", () => {
    const unescape = (html: string) =>
      html
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&");
    for (const language of LANGUAGES) {
      const { tError } = voiceWords(language);
      const form = voiceFormHtml(new Request(`${ORIGIN}/voices`), "/guestbook", null, { language });
      const attribute = /data-words="([^"]*)"/.exec(form)?.[1];
      const words = attribute === undefined ? null : (JSON.parse(unescape(attribute)) as RecorderWords);
      expect(words === null).toBe(language === "en");
      for (const english of [voiceTooLong(601), VOICE_OVER_LIMIT]) {
        const said = tError(english);
        if (language === "en") expect(said).toBe(english);
        else expect(said, `${language}: ${english}`).not.toBe(english);
        expect(refusalIn(english, words)).toBe(said);
      }
      expect(tError(voiceTooLong(601))).toContain("10:01");
      expect(tError(voiceTooLong(754))).toContain("12:34");
    }
  });

  it("takes a recording as a browser's recorder writes it, without its length in front, and measures it", async () => {
    const response = await sendForm({ name: "Ann" }, [
      { name: "voice-memory.webm", bytes: streamedWebm(4), type: "audio/webm;codecs=opus" },
    ]);
    expect(response.status).toBe(303);
    await processingIdle();
    expect(onlyUpload()).toMatchObject({ type: "AUDIO", durationSec: 4, processingError: null });
    expect(onlyUpload().processedAt).not.toBeNull();
  });

  it("refuses such a recording of ten minutes and one second, too", async () => {
    const response = await sendForm({ name: "Ann" }, [{ name: "voice-memory.webm", bytes: streamedWebm(601), type: "audio/webm" }]);
    expect(response.status).toBe(400);
    expect(await refusedPage(response)).toContain("This recording is 10:01 long. Voice memories can be at most 10 minutes.");
    expectNothingKept();
  }, 120_000);

  it("refuses two recordings at once (413)", async () => {
    const response = await sendForm({ name: "Ann" }, [
      { name: "one.m4a", bytes: voice },
      { name: "two.m4a", bytes: voice },
    ]);
    expect(response.status).toBe(413);
    expect(await refusedPage(response)).toContain("Please send one recording at a time.");
    expectNothingKept();
  });

  it("refuses a sender past the network's limit (429, with Retry-After), keeping what was typed", async () => {
    for (let i = 0; i < UPLOADS_PER_10_MINUTES; i++) countUpload("203.0.113.7");
    const response = await sendForm({ name: "Ann", line: "Hello" }, undefined, "203.0.113.7");
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    const html = await refusedPage(response);
    expect(html).toContain(TOO_MANY_UPLOADS);
    expect(html).toContain('value="Ann"');
    expectNothingKept();
  });

  it("keeps one voice sent twice (Back and Send, a second tap), answering the second as the first", async () => {
    const first = await sendForm({ name: "Ann", line: "For Jo", canDisplay: "on" });
    const again = await sendForm({ name: "Ann", line: "For Jo", canDisplay: "on" });
    expect([first.status, again.status]).toEqual([303, 303]);
    expect(toastOf(again)?.title).toBe("Voice Memory Submitted");
    await processingIdle();
    expect(onlyUpload()).toMatchObject({ submittedBy: "Ann", caption: "For Jo" });
    // The second recording was stored as it arrived, then removed: nothing of it is left waiting.
    expect(db.select().from(signedUploads).all()).toEqual([]);
    // Another line, or another recording, is another voice.
    await sendForm({ name: "Ann", line: "And for Sam", canDisplay: "on" });
    const other = readFileSync(makeVoiceFile(work, "m4a", { seconds: 2 }));
    await sendForm({ name: "Ann", line: "For Jo", canDisplay: "on" }, [{ name: "second.m4a", bytes: other }]);
    await processingIdle();
    expect(db.select().from(uploads).all()).toHaveLength(3);
  });

  it("keeps a file name of any length, shortened to 255 characters with its extension", async () => {
    const name = `${"Grandma singing at the lake ".repeat(20)}.m4a`;
    expect((await sendForm({ name: "Ann" }, [{ name, bytes: voice }])).status).toBe(303);
    const kept = onlyUpload().originalName!;
    expect(kept).toHaveLength(255);
    expect(kept.startsWith("Grandma singing at the lake Grandma")).toBe(true);
    expect(kept.endsWith(".m4a")).toBe(true);
  });

  it("counts voices with the guest book's messages: past the network's allowance it is refused (429) before the recording is read", async () => {
    for (let i = 0; i < config.SUBMISSIONS_PER_10_MINUTES; i++) countSubmission({ clientIp: "198.51.100.9" });
    const response = await sendForm({ name: "Ann", line: "Hello" }, undefined, "198.51.100.9");
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refusedPage(response)).toContain(TOO_MANY_SUBMISSIONS);
    expectNothingKept();
    // Another network is not affected; a voice kept counts as one message.
    resetSubmissionLimits();
    for (let i = 0; i < config.SUBMISSIONS_PER_10_MINUTES - 1; i++) countSubmission({ clientIp: "198.51.100.9" });
    expect((await sendForm({ name: "Ann" }, undefined, "198.51.100.9")).status).toBe(303);
    expect((await sendForm({ name: "Bea" }, undefined, "198.51.100.9")).status).toBe(429);
  });

  describe("the form's bounds", () => {
    it("holds one recording of 1 GB and a few short fields, in a few parts", () => {
      expect(VOICE_FORM).toMatchObject({ fileField: "recording", maxFiles: 1, maxFileBytes: 1_073_741_824 });
      expect(VOICE_FORM.fields).toEqual(["name", "email", "line", "canDisplay", "notify", "website", "from"]);
      expect(VOICE_FORM.maxParts).toBeLessThanOrEqual(12);
      expect(VOICE_FORM.maxFieldBytes).toBeLessThanOrEqual(2048);
      expect(VOICE_FORM.maxBodyBytes).toBeLessThan(1_073_741_824 + 100 * 1024);
    });

    it("refuses a field past its bytes (413), naming it", async () => {
      const response = await sendForm({ name: "A".repeat(VOICE_FORM.maxFieldBytes + 1) });
      expect(response.status).toBe(413);
      expect(await refusedPage(response)).toMatch(/id="voice-name-error"[^>]*><li>This is longer than the form accepts/);
      expectNothingKept();
    });

    it("refuses a form of too many parts (413)", async () => {
      const fields = Object.fromEntries(Array.from({ length: VOICE_FORM.maxParts }, (_, i) => [`extra${i}`, "x"]));
      const response = await sendForm({ name: "Ann", ...fields });
      expect(response.status).toBe(413);
      expect(await refusedPage(response)).toContain("The form had more parts than a voice memory needs.");
      expectNothingKept();
    });

    it("refuses a body that says it is larger than the form can be (413) before reading it", async () => {
      const request = await formRequest("/voices", { name: "Ann" }, [{ name: "voice.m4a", bytes: voice }], {
        "Content-Length": String(VOICE_FORM.maxBodyBytes + 1),
      });
      const response = await call(voicesAction, request);
      expect(response.status).toBe(413);
      expectNothingKept();
    });

    it("refuses what is not a multipart form (415)", async () => {
      const request = new Request(`${ORIGIN}/voices`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "name=Ann",
      });
      const response = await call(voicesAction, request);
      expect(response.status).toBe(415);
      expect(await refusedPage(response)).toContain("Please use the voice form on the guest book or the share page");
    });
  });
});

describe("the voice form from the in-page recorder (POST /api/voices)", () => {
  it("answers 201 with the pending voice", async () => {
    const response = await sendToApi({ name: "Ann", line: "Hello", canDisplay: "on" }, [
      { name: "voice-memory.webm", bytes: readFileSync(makeVoiceFile(work, "webm", { seconds: 2 })), type: "audio/webm;codecs=opus" },
    ]);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: number; status: string };
    expect(body).toEqual({ id: onlyUpload().id, status: "PENDING" });
    expect(onlyUpload()).toMatchObject({ type: "AUDIO", caption: "Hello", canDisplay: true, submittedBy: "Ann" });
  });

  it("answers a refusal in the API's shape, each message under its field, and keeps nothing", async () => {
    const response = await sendToApi({ name: "", email: "nope", line: "y".repeat(301) }, []);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: {
        name: ["Name is required"],
        email: ["Valid email is required"],
        line: ["The line must be at most 300 characters."],
        recording: ["Please record or choose a voice memory to send."],
      },
    });
    const notVoice = await sendToApi({ name: "Ann" }, [{ name: "voice-memory.webm", bytes: Buffer.from("not sound at all") }]);
    expect(notVoice.status).toBe(415);
    expect(await notVoice.json()).toEqual({ errors: { recording: [NOT_A_RECORDING] } });
    expectNothingKept();
  });

  it("answers only POST", async () => {
    const response = await call(apiVoices, new Request(`${ORIGIN}/api/voices`, { method: "PUT", body: "x" }));
    expect(response.status).toBe(405);
  });
});

describe("where visitors hear voices", () => {
  it("lists published voices with permission in /api/gallery (all, or type=AUDIO), never one kept for the family", async () => {
    const shared = await publishedVoice({ name: "Ann" });
    const kept = await publishedVoice({ name: "Ben", canDisplay: "" });
    const pending = await sendForm({ name: "Cat", canDisplay: "on" });
    expect(pending.status).toBe(303);
    await processingIdle();

    for (const query of ["", "?type=AUDIO"]) {
      const response = await call(apiGallery, new Request(`${ORIGIN}/api/gallery${query}`));
      expect(response.status).toBe(200);
      const items = (await response.json()) as { id: number }[];
      expect(items.map((item) => item.id)).toEqual([shared]);
      expect(items[0]).toMatchObject({
        type: "AUDIO",
        senderName: "Ann",
        caption: "For Jo, from the lake",
        durationSec: 3,
        title: "Voice memory from Ann, 0:03",
        thumbnailUrl: null,
      });
      expect((items[0] as unknown as { url: string }).url).toMatch(new RegExp(`^/media/${shared}/[A-Za-z0-9_-]+-voice\\.m4a$`));
    }
    expect(kept).not.toBe(shared);
    const pictures = await call(apiGallery, new Request(`${ORIGIN}/api/gallery?type=IMAGE,VIDEO`));
    expect(await pictures.json()).toEqual([]);
    const bad = await call(apiGallery, new Request(`${ORIGIN}/api/gallery?type=SOUND`));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      errors: { type: ["type must be IMAGE, VIDEO or AUDIO, or several separated by commas (or left out for all)"] },
    });
  });

  it("keeps the gallery page to photos and videos", async () => {
    await publishedVoice();
    const response = await call(galleryLoader, new Request(`${ORIGIN}/gallery`));
    const { items } = (await response.json()) as { items: unknown[] };
    expect(items).toEqual([]);
  });

  it("shows published voices with permission on the guest book, newest first, with name, length, player and line", async () => {
    const first = await publishedVoice({ name: "Ann", line: "<b>For Jo</b>" });
    await publishedVoice({ name: "Ben", canDisplay: "" });
    const second = await publishedVoice({ name: "Cat", line: "A song" });
    const response = await call(guestbookLoader, new Request(`${ORIGIN}/guestbook`));
    const { afterForm, voiceForm } = (await response.json()) as { afterForm: string; voiceForm: string };
    const voices = afterForm.slice(afterForm.indexOf('<section id="voices"'));
    expect(voices).toContain('<h2 id="voices-title">Voices</h2>');
    expect(voices.indexOf(`voice-memory-${second}`)).toBeLessThan(voices.indexOf(`voice-memory-${first}`));
    expect(voices).toMatch(
      /<audio controls="" preload="none" src="\/media\/\d+\/[^"]+-voice\.m4a" aria-label="Voice memory from Ann, 0:03"/,
    );
    expect(voices).toContain("&lt;b&gt;For Jo&lt;/b&gt;");
    expect(voices).toContain(">0:03<");
    expect(voices).not.toContain("Ben");
    // The form, before the candles and the voices, sending back to the guest book.
    expect(voiceForm).toContain('name="from" value="/guestbook"');
    expect(voiceForm).toMatch(/type="file" accept="audio\/\*" capture=""/);
    expect(voiceForm).toContain("E-mail me when the family has added my memory");
  });

  it("pages the guest book's voices after the newest twenty, with plain links", async () => {
    await publishedVoice({ name: "Ann" });
    const source = onlyUploadNamed("Ann");
    const { id: _id, ...files } = source;
    db.insert(uploads)
      .values(
        Array.from({ length: VOICES_PER_PAGE }, (_, i) => ({
          ...files,
          submittedBy: `Voice ${i + 1}`,
          createdAt: new Date(source.createdAt.getTime() + (i + 1) * 1000),
        })),
      )
      .run();
    const newest = (await (await call(guestbookLoader, new Request(`${ORIGIN}/guestbook`))).json()) as { afterForm: string };
    expect(newest.afterForm).toContain("Voice 20");
    expect(newest.afterForm).not.toContain(">Ann<");
    const earlier = /href="(\/guestbook\?voices=[^"#]+)#voices">Earlier voices →/.exec(newest.afterForm)?.[1];
    expect(earlier).toBeTruthy();
    const older = (await (await call(guestbookLoader, new Request(`${ORIGIN}${earlier!.replace(/&amp;/g, "&")}`))).json()) as {
      afterForm: string;
    };
    expect(older.afterForm).toContain(">Ann<");
    expect(older.afterForm).toContain('href="/guestbook#voices">← Newest voices');
  });

  it("gives one published voice a page of its own, and no page to any other", async () => {
    const shared = await publishedVoice({ name: "Ann" });
    const response = await call(voicePageLoader, new Request(`${ORIGIN}/voices/${shared}`), { params: { id: String(shared) } });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { voice: Parameters<typeof itemTitle>[1]; words: PageWords };
    expect(page).toMatchObject({ voice: { id: shared, caption: "For Jo, from the lake" } });
    // The page's heading, as it writes it from the words its loader sends.
    expect(itemTitle(makeTranslator("en", [page.words]).t, { ...page.voice, durationSec: null })).toBe("Voice memory from Ann");
    // The gallery's address of a voice leads there.
    const fromGallery = await call(galleryItemLoader, new Request(`${ORIGIN}/gallery/${shared}`), { params: { id: String(shared) } });
    expect(fromGallery.headers.get("Location")).toBe(`/voices/${shared}`);

    const kept = await publishedVoice({ name: "Ben", canDisplay: "" });
    await sendForm({ name: "Cat" });
    await processingIdle();
    const pending = onlyUploadNamed("Cat").id;
    for (const id of [String(kept), String(pending), "999999", "abc"]) {
      const missing = await call(voicePageLoader, new Request(`${ORIGIN}/voices/${id}`), { params: { id } });
      expect(missing.status, id).toBe(404);
      if (/^\d+$/.test(id)) {
        const gallery = await call(galleryItemLoader, new Request(`${ORIGIN}/gallery/${id}`), { params: { id } });
        expect(gallery.status, id).toBe(404);
      }
    }
  });

  it("shows the form on the share page and on /voices", async () => {
    const share = (await (await call(shareLoader, new Request(`${ORIGIN}/share`))).json()) as { voiceForm: string };
    expect(share.voiceForm).toContain('name="from" value="/share"');
    expect(share.voiceForm).toContain("Leave a voice memory");
    const page = (await (await call(voicesLoader, new Request(`${ORIGIN}/voices`))).json()) as { formHtml: string };
    expect(page.formHtml).toContain('name="from" value="/voices"');
    // Under the page's own heading there.
    expect(page.formHtml).not.toContain("<h2");
  });
});
