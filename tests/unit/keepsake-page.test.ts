// The offline page of "Download everything" (index.html) for a guest book of
// thousands: written a piece at a time as the ZIP is read, each piece a
// bounded batch, so the server's memory does not grow with the guest book.
import { describe, expect, it } from "vitest";
import { keepsakePage, type KeepsakeMedia, type KeepsakeMemory, type KeepsakePage } from "~/keepsakes/keepsake-page.server";

const MEMORIES = 5_000;
const PICTURES = 450;
const DB_BATCH = 500;

function guestBook() {
  const pulled = { batches: 0 };
  function* memories(): Generator<KeepsakeMemory[]> {
    for (let start = 0; start < MEMORIES; start += DB_BATCH) {
      pulled.batches++;
      yield Array.from({ length: DB_BATCH }, (_, i) => ({
        name: `Visitor ${start + i}`,
        // Nothing a visitor writes can stand in for the page's own markup.
        message: `Memory ${start + i} <b>&</b> \u0000 </main>`,
        date: "August 31, 2025",
        canDisplay: true,
      }));
    }
  }
  const media: KeepsakeMedia[] = Array.from({ length: PICTURES }, (_, i) => ({
    type: "IMAGE",
    title: `IMG_${i}.jpg`,
    sender: "Ann Lee",
    date: "August 31, 2025",
    file: `photos/IMG_${i}.jpg`,
    thumbnail: `thumbnails/IMG_${i}.jpg`,
    webFile: null,
  }));
  const page: KeepsakePage = {
    personName: "Josephine Marsh",
    siteTitle: "In Loving Memory",
    heroSubtitle: "",
    service: {
      title: "The service",
      dateText: "Sunday, August 31st, 2025",
      over: true,
      venueName: "Hall",
      venueAddress: "1 Lane",
      note: "",
    },
    welcome: ["Welcome."],
    savedOn: "September 1, 2025",
    counts: { memories: MEMORIES, poems: 0, photos: PICTURES, videos: 0, voices: 0 },
    memories: memories(),
    poems: [],
    voices: [],
    media,
    files: [],
    life: null,
  };
  return { page, pulled };
}

const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

describe("the keepsake page of a long guest book", () => {
  it("is written a couple of hundred memories or pictures at a time, each batch read from the database only when its turn comes", () => {
    const { page, pulled } = guestBook();
    const pieces: string[] = [];
    let readWhenFirstWritten: number | undefined;
    for (const piece of keepsakePage(page)) {
      pieces.push(piece);
      const memories = count(piece, /<article class="card">/g);
      const pictures = count(piece, /<li><a href="photos\//g);
      expect(memories).toBeLessThanOrEqual(200);
      expect(pictures).toBeLessThanOrEqual(200);
      // The first memories are on their way before the guest book's second batch is read.
      if (memories > 0 && readWhenFirstWritten === undefined) readWhenFirstWritten = pulled.batches;
    }
    expect(readWhenFirstWritten).toBe(1);
    const html = pieces.join("");
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html).toMatch(/<\/footer><\/body><\/html>\n$/);
    expect(count(html, /<article class="card">/g)).toBe(MEMORIES);
    expect(count(html, /<li><a href="photos\//g)).toBe(PICTURES);
    expect(count(html, /<\/main>/g)).toBe(1);
    const names = [...html.matchAll(/<h3>Visitor (\d+)<\/h3>/g)].map((match) => Number(match[1]));
    expect(names).toEqual(Array.from({ length: MEMORIES }, (_, i) => i));
    expect(html).toContain("Memory 4999 &lt;b&gt;&amp;&lt;/b&gt; \u0000 &lt;/main&gt;");
    expect(html.indexOf('<ul class="grid">')).toBeGreaterThan(html.lastIndexOf('<article class="card">'));
  });
});
