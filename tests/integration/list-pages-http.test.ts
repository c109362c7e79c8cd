// The guest book and the gallery from the production server: however far a
// visitor (or a crawler) pushes ?offset=, a page holds at most 100 items, and
// the list goes on through "Earlier … →" links that start after the last one.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memories, uploads } from "../../db/schema";
import { db } from "~/platform/db.server";
import { request, requireBuild, startSite, type Site } from "../support/site-process";

let site: Site;
const BASE_TIME = Date.UTC(2025, 8, 1, 12, 0, 0);

beforeAll(async () => {
  requireBuild();
  db.delete(memories).run();
  db.delete(uploads).run();
  db.insert(memories)
    .values(
      Array.from({ length: 150 }, (_, i) => ({
        name: `Guest ${i + 1}`,
        email: `guest${i + 1}@private.example`,
        message: `Memory number ${i + 1}, with love.`,
        status: "APPROVED" as const,
        createdAt: new Date(BASE_TIME + (i + 1) * 1000),
      })),
    )
    .run();
  db.insert(uploads)
    .values(
      Array.from({ length: 130 }, (_, i) => ({
        type: "IMAGE" as const,
        status: "APPROVED" as const,
        originalName: `photo-${i + 1}.jpg`,
        url: `/media/${i + 1}/display.jpg`,
        thumbnailUrl: `/media/${i + 1}/thumb.jpg`,
        storageKey: `originals/${i + 1}`,
        createdAt: new Date(BASE_TIME + (i + 1) * 1000),
      })),
    )
    .run();
  // The server shares this process's database (tests/support/setup.ts).
  site = await startSite(path.dirname(process.env.DATABASE_PATH!));
}, 90_000);

afterAll(async () => {
  await site?.stop();
});

const get = (urlPath: string) => request(site.port, "GET", urlPath, { headers: { Accept: "text/html" } });
const count = (html: string, prefix: string) => (html.match(new RegExp(`id="${prefix}-\\d+"`, "g")) ?? []).length;
const href = (html: string, text: string) => new RegExp(`<a[^>]*href="([^"]+)"[^>]*>${text}</a>`).exec(html)?.[1]?.replaceAll("&amp;", "&");

describe("a guest book page far down the list", () => {
  it("holds 100 memories at ?offset=5000, then Earlier memories → leads to the rest and ← Newest memories back", async () => {
    const far = await get("/guestbook?offset=5000");
    expect(far.status).toBe(200);
    expect(count(far.body, "memory")).toBe(100);
    expect(far.body).toContain("Guest 150");
    expect(far.body).not.toContain("Guest 50<");
    // Not the button (the words themselves are in the page's data, with the rest of the guest book's words).
    expect(far.body).not.toContain(">Load More Memories</button>");
    const earlier = href(far.body, "Earlier memories →");
    expect(earlier).toMatch(/^\/guestbook\?before=[\w-]+#memories-title$/);

    const next = await get(earlier!.replace(/#.*/, ""));
    expect(count(next.body, "memory")).toBe(10);
    expect(next.body).toContain("Guest 50<");
    expect(next.body).not.toContain("Guest 51<");
    expect(href(next.body, "← Newest memories")).toBe("/guestbook#memories-title");
    // Load More there keeps the page's start (a GET form with the cursor).
    expect(next.body).toMatch(/<input type="hidden" name="before" value="[\w-]+"\/>/);
    const grown = await get(`${earlier!.replace(/#.*/, "")}&offset=90`);
    expect(count(grown.body, "memory")).toBe(50);
    expect(grown.body).toContain("Guest 1<");
    expect(href(grown.body, "Earlier memories →")).toBeUndefined();
  });

  it("answers the API's deep offsets with one page too", async () => {
    const answer = await request(site.port, "GET", "/api/guestbook?limit=50&offset=120");
    expect((JSON.parse(answer.body) as unknown[]).length).toBe(30);
  });
});

describe("a gallery page far down the list", () => {
  it("holds 100 items at ?offset=5000, then Earlier photos and videos → leads to the rest", async () => {
    const far = await get("/gallery?offset=5000");
    expect(count(far.body, "media")).toBe(100);
    const earlier = href(far.body, "Earlier photos and videos →");
    expect(earlier).toMatch(/^\/gallery\?before=[\w-]+$/);
    const next = await get(earlier!);
    expect(count(next.body, "media")).toBe(20);
    expect(href(next.body, "← Newest photos and videos")).toBe("/gallery");
  });
});
