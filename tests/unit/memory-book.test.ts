// The memory book built from a real database and disk storage with real
// uploads, in each print size, read back with poppler's tools.
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operator } from "~/platform/actor.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { setMemoryStatus, submitMemory } from "~/guestbook/memory.server";
import { BOOK_SIZES, breakLongWords, type BookSize } from "~/keepsakes/book/layout.server";
import { makeMemoryBook } from "~/keepsakes/book/memory-book.server";
import { writeMemoryBook } from "~/keepsakes/book/pdf.server";
import { createPoem } from "~/poems/poem.server";
import { SettingsPatch } from "~/site/settings.schema";
import { updateSiteSettings } from "~/site/settings.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { eq } from "drizzle-orm";
import { uploads } from "../../db/schema";
import { db } from "~/platform/db.server";
import { addMoment, saveStory } from "~/life/life.server";
import { lightCandle, setCandleStatus } from "~/candles/candles.server";
import { candles } from "../../db/schema";

const FIXTURES = path.resolve(__dirname, "../fixtures");
const ORIGIN = "https://memorial.example.org";
let work: string;

const PUBLISHED = [
  ["Zoë Ångström-Müller", "Elle dansait à la fête d'été, café crème à la main, et riait de tout."],
  ["Анна Петрова", "Она всегда пекла пироги по воскресеньям и пела нам песни."],
  ["Γιώργος Παπαδόπουλος", "Θυμάμαι το χαμόγελό της στη θάλασσα κάθε καλοκαίρι."],
  ["王小明", "她教会了我写毛笔字，我永远记得她的笑声。"],
] as const;

const LIFE_STORY = "Ἑλένη was born in Thessaloniki. She taught for forty years.\n\n## 家族\n\nShe married Tom in 1964.\n- Ann\n- Joe";
const LIFE_MOMENTS = [
  { date: "1964-06-20", title: "Married Tom", text: "A wet June day." },
  { date: "1942", title: "Born in Thessaloniki", text: "" },
];

const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

function memory(name: string, message: string, status: "APPROVED" | "REJECTED" | "PENDING" | "HIDDEN", canDisplay = true) {
  const { id } = submitMemory(MemoryApiSchema.parse({ name, email: "someone@example.com", message, canDisplay }));
  if (status === "HIDDEN") setMemoryStatus(id, "APPROVED", operator());
  if (status !== "PENDING") setMemoryStatus(id, status, operator());
}

async function share(bytes: Buffer, originalName: string, submittedBy: string, status: "APPROVED" | "PENDING" | "REJECTED") {
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: originalName });
  const view = await registerFormUpload(key, { submittedBy, originalName });
  await processingIdle();
  if (status !== "PENDING") await setUploadStatus(view.id, status, operator());
}

/** A photo with detail (noise), so its JPEG is a real photo's size. */
const photo = (width: number, height: number) =>
  sharp(
    Buffer.alloc(width * height * 3, 0).map(() => Math.floor(Math.random() * 255)),
    { raw: { width, height, channels: 3 } },
  )
    .jpeg({ quality: 80 })
    .toBuffer();

const books = new Map<BookSize, string>();

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-book-"));
  const settings = await updateSiteSettings(
    SettingsPatch.parse({
      personName: "Ἑλένη Dvořák",
      birthDate: "1942-03-14",
      deathDate: "2026-01-09",
      heroSubtitle: "Beloved mother, teacher and friend",
      serviceTitle: "A Celebration of Life",
      venueName: "The Old Boathouse",
      venueAddress: "1 River Lane, Berkeley, CA",
      timeZone: "America/Los_Angeles",
    }),
    operator(),
  );
  expect(settings.ok).toBe(true);
  for (const [name, message] of PUBLISHED) memory(name, message, "APPROVED");
  memory("Long Writer", "A long memory that runs over many lines. ".repeat(120), "APPROVED");
  memory("Pending Person", "This memory is still waiting for review", "PENDING");
  memory("Rejected Person", "This memory was rejected by the family", "REJECTED");
  memory("Hidden Person", "This memory was taken back by the family", "HIDDEN");
  memory("Private Person", "This memory is for the family only", "APPROVED", false);
  // Candles: two counted at once, one with words the family published, one they rejected.
  lightCandle({}, { clientIp: "192.0.2.1", visitorId: "candle-a" });
  lightCandle({}, { clientIp: "192.0.2.2", visitorId: "candle-b" });
  lightCandle({ name: "Candle Friend", message: "A light for you" }, { clientIp: "192.0.2.3", visitorId: "candle-c" });
  lightCandle({ name: "Refused Candle", message: "Not for the book" }, { clientIp: "192.0.2.4", visitorId: "candle-d" });
  for (const row of db.select().from(candles).all()) {
    if (row.name) setCandleStatus(row.id, row.name === "Candle Friend" ? "APPROVED" : "REJECTED", operator());
  }
  createPoem({ title: "Afterglow", author: "Ann", content: "Line one of the first poem\nLine two" }, operator());
  createPoem({ title: "Do Not Stand", content: "A second poem on its own page" }, operator());

  await share(await photo(2400, 1600), "landscape-1.jpg", "Ann Lee (ann@example.com)", "APPROVED");
  await share(await photo(2400, 1600), "landscape-2.jpg", "Bo Chen (bo@example.com)", "APPROVED");
  await share(await photo(2400, 1600), "landscape-3.jpg", "Bo Chen (bo@example.com)", "APPROVED");
  await share(await photo(2400, 1600), "landscape-4.jpg", "Bo Chen (bo@example.com)", "APPROVED");
  await share(await photo(1500, 2250), "portrait-1.jpg", "Cy Dvořák (cy@example.com)", "APPROVED");
  await share(await photo(1500, 2250), "portrait-2.jpg", "Dee (dee@example.com)", "APPROVED");
  await share(await fs.readFile(path.join(FIXTURES, "sample.mp4")), "birthday.mp4", "Eve Video (eve@example.com)", "APPROVED");
  await share(await photo(800, 600), "waiting.jpg", "Pending Sender (p@example.com)", "PENDING");
  await share(await photo(800, 600), "refused.jpg", "Refused Sender (r@example.com)", "REJECTED");

  // The life story, published, in more than one script, with a photo on its timeline.
  const [firstPhoto] = db.select({ id: uploads.id }).from(uploads).where(eq(uploads.originalName, "landscape-1.jpg")).all();
  saveStory({ story: LIFE_STORY, photoId: null }, operator(), true);
  for (const moment of LIFE_MOMENTS) addMoment({ ...moment, photoId: moment.title === "Married Tom" ? firstPhoto!.id : null }, operator());

  for (const size of BOOK_SIZES) {
    const file = path.join(work, `${size}.pdf`);
    await writeMemoryBook({ size, origin: ORIGIN, file, now: Date.parse("2026-03-01T18:00:00Z") });
    books.set(size, file);
  }
}, 180_000);

afterAll(async () => {
  await processingIdle();
  await fs.rm(work, { recursive: true, force: true });
});

const text = (file: string) => run("pdftotext", ["-enc", "UTF-8", file, "-"]);
/** The text without the page numbers at the foot of each page. */
const body = (file: string) =>
  text(file)
    .split("\f")
    .map((page) => page.replace(/\n\s*\d+\s*$/, ""))
    .join("\n");
const squash = (value: string) => value.replace(/\s+/g, "");

describe.each(BOOK_SIZES)("the memory book (%s)", (size) => {
  it("holds every published memory, poem and sender, and nothing pending, rejected, hidden or private", () => {
    const book = body(books.get(size)!);
    const flat = squash(book);
    for (const [name, message] of PUBLISHED) {
      expect(flat).toContain(squash(name));
      expect(flat).toContain(squash(message));
    }
    expect(flat).toContain(squash("A long memory that runs over many lines. ".repeat(120)));
    expect(flat).toContain("ἙλένηDvořák");
    // The years under the name on the cover.
    expect(text(books.get(size)!).split("\f")[0]).toContain("1942 – 2026");
    expect(flat).toContain(squash("Beloved mother, teacher and friend"));
    expect(book).toContain("The Old Boathouse");
    expect(flat).toContain("(America/Los_Angeles)");
    expect(book).toContain("Afterglow");
    expect(book).toContain("Do Not Stand");
    for (const sender of ["Ann Lee", "Bo Chen", "Cy Dvořák", "Dee", "Eve Video"]) expect(book).toContain(`Shared by ${sender}`);
    for (const absent of [
      "Pending Person",
      "Rejected Person",
      "Hidden Person",
      "Private Person",
      "Pending Sender",
      "Refused Sender",
      "@example.com",
    ]) {
      expect(book).not.toContain(absent);
    }
    expect(book).toContain("This book was made on March 1, 2026.");
    expect(flat).toContain(squash("3 candles were lit in memory of Ἑλένη Dvořák."));
    expect(book).toContain("Candle Friend");
    expect(book).toContain("A light for you");
    expect(book).not.toContain("Refused Candle");
  });

  it("starts each poem on its own page and numbers the pages", () => {
    const pages = text(books.get(size)!).split("\f");
    const afterglow = pages.findIndex((page) => page.includes("Afterglow"));
    const second = pages.findIndex((page) => page.includes("Do Not Stand"));
    expect(afterglow).toBeGreaterThan(0);
    expect(second).toBe(afterglow + 1);
    expect(pages[afterglow]!.trim().startsWith("Afterglow")).toBe(true);
    expect(pages[2]).toMatch(/\b3\s*$/);
  });

  it("has the life story after the welcome: its headings and lists, then the timeline in order with its photo", () => {
    const file = books.get(size)!;
    const pages = text(file).split("\f");
    const welcome = pages.findIndex((page) => page.includes("The Old Boathouse"));
    const life = pages.findIndex((page) => page.includes("Life Story"));
    const memories = pages.findIndex((page) => page.startsWith("Memories"));
    expect(welcome).toBeGreaterThan(0);
    expect(life).toBe(welcome + 1);
    expect(memories).toBeGreaterThan(life);
    const chapter = squash(pages.slice(life, memories).join(""));
    expect(chapter).toContain(squash("Ἑλένη was born in Thessaloniki. She taught for forty years."));
    expect(chapter).toContain("家族");
    expect(chapter).toContain(squash("•  Ann"));
    expect(chapter.indexOf("BorninThessaloniki")).toBeLessThan(chapter.indexOf("MarriedTom"));
    expect(chapter).toContain(squash("June 20, 1964 Married Tom A wet June day."));
    const rows = run("pdfimages", ["-list", file]).trim().split("\n").slice(2);
    const onChapter = rows
      .map((row) => row.trim().split(/\s+/))
      .filter((cols) => cols[2] === "image" && Number(cols[0]) > life && Number(cols[0]) <= memories);
    expect(onChapter).toHaveLength(1);
  });

  it("embeds every font", () => {
    const rows = run("pdffonts", [books.get(size)!])
      .trim()
      .split("\n")
      .slice(2);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row.split(/\s+/).slice(-5, -4)[0], row).toBe("yes");
    expect(rows.some((row) => row.includes("NotoSansHans"))).toBe(true);
  });

  it("has the page size of its kind", () => {
    const info = run("pdfinfo", [books.get(size)!]);
    const [, width, height] = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!;
    const expected = { a4: [595.28, 841.89], letter: [612, 792], trim: [432 + 17.01, 648 + 17.01] }[size];
    expect(Number(width)).toBeCloseTo(expected[0]!, 0);
    expect(Number(height)).toBeCloseTo(expected[1]!, 0);
  });

  it("places the photos at 200 dpi or more, without their metadata, up to four a page by orientation", () => {
    const file = books.get(size)!;
    const pages = text(file).split("\f");
    const photoPages = new Set(
      pages.flatMap((page, i) => (page.includes("Shared by") && !page.includes("Watch the video") ? [String(i + 1)] : [])),
    );
    expect(photoPages.size).toBe(2);
    const rows = run("pdfimages", ["-list", file]).trim().split("\n").slice(2);
    const images = rows.map((row) => row.trim().split(/\s+/)).filter((cols) => cols[2] === "image");
    // The cover's hero, six photos, the video's poster and the life story's timeline photo.
    expect(images.length).toBe(9);
    const photos = images.filter((cols) => photoPages.has(cols[0]!));
    expect(photos.length).toBe(6);
    // The four landscapes share a page, the two portraits another.
    const perPage = [...photoPages].map((page) => photos.filter((cols) => cols[0] === page).length).sort();
    expect(perPage).toEqual([2, 4]);
    for (const cols of photos) {
      expect(cols[8], cols.join(" ")).toBe("jpeg");
      expect(Math.min(Number(cols[12]), Number(cols[13])), cols.join(" ")).toBeGreaterThanOrEqual(200);
    }
  });

  it("has QR codes that lead to the site and to the video", async () => {
    const file = books.get(size)!;
    const pages = Number(/Pages:\s+(\d+)/.exec(run("pdfinfo", [file]))![1]);
    const found: string[] = [];
    for (const page of [pages - 1, pages]) {
      const prefix = path.join(work, `${size}-qr-${page}`);
      run("pdftoppm", ["-r", "150", "-f", String(page), "-l", String(page), "-png", "-singlefile", file, prefix]);
      found.push(
        ...run("zbarimg", ["--quiet", "--raw", `${prefix}.png`])
          .trim()
          .split("\n"),
      );
    }
    expect(found).toContain(ORIGIN);
    expect(found.some((link) => /^https:\/\/memorial\.example\.org\/gallery\/\d+$/.test(link))).toBe(true);
  });
});

describe("making books", () => {
  it("makes one at a time and removes its temporary file once sent", async () => {
    const order: string[] = [];
    const first = makeMemoryBook({ size: "a4", origin: ORIGIN, onProgress: (p) => p.done === p.total && order.push("first") });
    const second = makeMemoryBook({ size: "letter", origin: ORIGIN, onProgress: (p) => p.done === 0 && order.push("second") });
    const [a, b] = await Promise.all([first, second]);
    expect(order).toEqual(["first", "second"]);
    await a.done();
    await b.done();
    await expect(fs.stat(a.file)).rejects.toThrow();
  }, 120_000);
});

describe("a memory with a 5,000-letter word", () => {
  it("is broken into lines at its break points (no letter-by-letter cutting), and every letter is in the book", async () => {
    const word = "Remember".repeat(625);
    memory("Endless Typist", word, "APPROVED");
    const file = path.join(work, "long-word.pdf");
    await writeMemoryBook({ size: "a4", origin: ORIGIN, file });
    const book = body(file).replace(/\u200b/g, "");
    expect(squash(book)).toContain(word);
    // pdfkit cut such a word letter by letter, measuring the rest of it again for every line (0.9 s
    // for this word here, 2 to 5 s on the server); broken every 30 letters, each line holds whole pieces.
    const lines = book.split("\n").filter((line) => line.length > 20 && /^[Rembr]+$/.test(line));
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines.slice(0, -1)) expect(line.length % 30, line).toBe(0);
  }, 120_000);

  it("keeps short words and spaces as they are", () => {
    expect(breakLongWords("A memory of her laugh")).toBe("A memory of her laugh");
    expect(breakLongWords("x".repeat(61)).split("\u200b")).toEqual(["x".repeat(30), "x".repeat(30), "x"]);
  });
});
