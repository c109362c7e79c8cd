// Voice memories in the memory book: published ones shared with permission get
// their sender's name, the day, the length and the line, with a QR code beside
// them to the voice's page, read back from the PDF with poppler and zbar.
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploads, type Upload } from "../../db/schema";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { setMemoryStatus, submitMemory } from "~/guestbook/memory.server";
import { BOOK_SIZES, type BookSize } from "~/keepsakes/book/layout.server";
import { bookEstimate } from "~/keepsakes/book/memory-book.server";
import { writeMemoryBook, type BookProgress } from "~/keepsakes/book/pdf.server";
import { voiceAddress } from "~/keepsakes/book/voice-chapter.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { createPoem } from "~/poems/poem.server";
import { SettingsPatch } from "~/site/settings.schema";
import { updateSiteSettings } from "~/site/settings.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { formatDuration } from "~/utils/time";
import { makeVoiceFile } from "../support/voice-fixtures";
import { sendVoice } from "../support/voice-uploads";

const ORIGIN = "https://memorial.example.org";
const TIME_ZONE = "America/Los_Angeles";
let work: string;
const voices = new Map<string, Upload>();
const books = new Map<BookSize, { file: string; progress: BookProgress[] }>();

const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
const pagesOf = (file: string) => run("pdftotext", ["-enc", "UTF-8", file, "-"]).split("\f");
const squash = (value: string) => value.replace(/\s+/g, "");

/** The QR codes zbar finds on one page of the PDF, rendered at 150 dpi. */
function qrCodes(file: string, page: number): string[] {
  const prefix = path.join(work, `${path.basename(file, ".pdf")}-${page}`);
  run("pdftoppm", ["-r", "150", "-f", String(page), "-l", String(page), "-png", "-singlefile", file, prefix]);
  try {
    return run("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", `${prefix}.png`])
      .trim()
      .split("\n")
      .filter(Boolean);
  } catch {
    return []; // zbarimg exits 4 when it finds none
  }
}

const LONG_LINE = "She sang this at every birthday, and we all joined in for the chorus. ".repeat(5).slice(0, 300);

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-book-voices-"));
  const settings = await updateSiteSettings(SettingsPatch.parse({ personName: "Jo Marsh", timeZone: TIME_ZONE }), operator());
  expect(settings.ok).toBe(true);
  const recordings = path.join(work, "recordings");
  const sends: [string, string, Parameters<typeof sendVoice>[1]][] = [
    ["ann", makeVoiceFile(recordings, "m4a", { seconds: 4 }), { submittedBy: "Ann Lee (ann@example.com)", caption: "Happy birthday, Jo" }],
    [
      "bo",
      makeVoiceFile(recordings, "webm", { seconds: 3 }),
      { submittedBy: "Bo Private", caption: "Only for the family", canDisplay: false },
    ],
    ["cy", makeVoiceFile(recordings, "3gp", { seconds: 2 }), { submittedBy: "Cy Dvořák", caption: "给孩子们" }],
    ["pending", makeVoiceFile(recordings, "m4a", { seconds: 2 }), { submittedBy: "Pending Voice", status: "PENDING" }],
    ["rejected", makeVoiceFile(recordings, "m4a", { seconds: 2 }), { submittedBy: "Rejected Voice", status: "REJECTED" }],
  ];
  for (const [who, file, details] of sends) voices.set(who, await sendVoice(file, details));

  // More voices, with lines as long as a line may be, so the chapter runs over pages: copies of Ann's, quick to add.
  const { id: _id, ...ann } = voices.get("ann")!;
  for (let i = 1; i <= 14; i++) {
    const [row] = db
      .insert(uploads)
      .values({ ...ann, submittedBy: `Singer ${i}`, caption: LONG_LINE })
      .returning()
      .all();
    voices.set(`singer-${i}`, row!);
  }

  const { id } = submitMemory(
    MemoryApiSchema.parse({ name: "Eve", email: "eve@example.com", message: "A memory of the lake", canDisplay: true }),
  );
  setMemoryStatus(id, "APPROVED", operator());
  createPoem({ title: "Afterglow", content: "Line one" }, operator());
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#336699" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([photo]), filename: "lake.jpg" });
  const view = await registerFormUpload(key, { submittedBy: "Dee (dee@example.com)", originalName: "lake.jpg" });
  await processingIdle();
  await setUploadStatus(view.id, "APPROVED", operator());

  for (const size of BOOK_SIZES) {
    const file = path.join(work, `${size}.pdf`);
    const progress: BookProgress[] = [];
    await writeMemoryBook({ size, origin: ORIGIN, file, now: Date.parse("2026-03-01T18:00:00Z"), onProgress: (p) => progress.push(p) });
    books.set(size, { file, progress });
  }
}, 180_000);

afterAll(async () => {
  await processingIdle();
  await fs.rm(work, { recursive: true, force: true });
});

/** The pages of the chapter "Voices" (numbered from 1), and their text. */
function chapter(size: BookSize) {
  const pages = pagesOf(books.get(size)!.file);
  const first = pages.findIndex((page) => page.startsWith("Voices"));
  const poems = pages.findIndex((page) => page.startsWith("Afterglow"));
  return { pages, first, poems, numbers: Array.from({ length: poems - first }, (_, i) => first + i + 1) };
}

describe.each(BOOK_SIZES)("the memory book's voices (%s)", (size) => {
  it("come after the guest book's memories and before the poems and photos", () => {
    const { pages, first, poems } = chapter(size);
    const memories = pages.findIndex((page) => page.startsWith("Memories"));
    expect(memories).toBeGreaterThan(0);
    expect(first).toBeGreaterThan(memories);
    expect(poems).toBeGreaterThan(first);
    // Photos are laid out as before.
    expect(pages.findIndex((page) => page.includes("Shared by Dee"))).toBeGreaterThan(poems);
  });

  it("give each voice shared with permission its name, day, length, line and address; none for the family only, pending or rejected", () => {
    const { pages, first, poems } = chapter(size);
    const text = pages.slice(first, poems).join("\n");
    const flat = squash(text);
    for (const [who, name] of [
      ["ann", "Ann Lee"],
      ["cy", "Cy Dvořák"],
    ] as const) {
      const voice = voices.get(who)!;
      const day = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: TIME_ZONE }).format(voice.createdAt);
      expect(flat).toContain(squash(`${name}${day} · ${formatDuration(voice.durationSec)}${voice.caption!}`));
      expect(flat).toContain(squash(`Listen: ${voiceAddress(ORIGIN, voice.id)}`));
    }
    expect(flat).toContain(squash(LONG_LINE));
    const whole = pagesOf(books.get(size)!.file).join("\n");
    for (const absent of ["Bo Private", "Only for the family", "Pending Voice", "Rejected Voice", "ann@example.com"]) {
      expect(whole).not.toContain(absent);
    }
    expect(whole).not.toContain(`/voices/${voices.get("bo")!.id}`);
  });

  it("has a QR code beside each voice that opens its page, every one readable, across the chapter's pages", () => {
    const { numbers } = chapter(size);
    expect(numbers.length).toBeGreaterThan(1);
    const found = numbers.flatMap((page) => qrCodes(books.get(size)!.file, page));
    const expected = [...voices.entries()]
      .filter(([who]) => !["bo", "pending", "rejected"].includes(who))
      .map(([, voice]) => `${ORIGIN}/voices/${voice.id}`);
    expect(found.sort()).toEqual(expected.sort());
  });

  it("counts the voices among the items placed", () => {
    const { progress } = books.get(size)!;
    // 1 memory, 16 voices, 1 poem and 1 photo.
    expect(progress[progress.length - 1]).toEqual({ done: 19, total: 19 });
  });
});

describe("the Exports tab's estimate", () => {
  it("counts the voices the book would hold", () => {
    expect(bookEstimate()).toMatchObject({ memories: 1, voices: 16, poems: 1, photos: 1 });
  });

  it("gives each voice its own address, whatever the end of the site's", () => {
    expect(voiceAddress("https://memorial.example.org/", 7)).toBe("https://memorial.example.org/voices/7");
  });
});
