import { beforeEach, describe, expect, it } from "vitest";
import { uploads, type MediaType, type Status } from "../../db/schema";
import { db } from "~/platform/db.server";
import { getGalleryItem, listGallery } from "~/uploads/gallery.server";
import { loader as apiLoader } from "~/routes/api.gallery";
import { loader as pageLoader } from "~/routes/gallery";

const BASE_TIME = Date.UTC(2025, 8, 1, 12, 0, 0);

function seed(at: number, type: MediaType = "IMAGE", status: Status = "APPROVED") {
  return db
    .insert(uploads)
    .values({
      type,
      status,
      submittedBy: `Friend ${at} (friend${at}@private.example)`,
      originalName: `file-${at}.${type === "VIDEO" ? "mp4" : "jpg"}`,
      url: `/media/${at}/display.jpg`,
      thumbnailUrl: `/media/${at}/thumb.jpg`,
      durationSec: type === "VIDEO" ? 75 : null,
      storageKey: `originals/${at}`,
      createdAt: new Date(BASE_TIME + at * 1000),
    })
    .returning()
    .get();
}

beforeEach(() => {
  db.delete(uploads).run();
});

const api = (query: string) => apiLoader({ request: new Request(`http://x/api/gallery${query}`), params: {}, context: {} });
type PageData = { items: { originalName: string }[]; next: string | null; before: string | null; type: string };
const page = (query: string) =>
  pageLoader({ request: new Request(`http://x/gallery${query}`), params: {}, context: {} }).then(
    (r) => r.json() as unknown as Promise<PageData>,
  );

describe("the published gallery", () => {
  it("lists only approved media, newest first, 20 at a time, and filters by type", () => {
    for (let at = 1; at <= 25; at++) seed(at, at % 5 === 0 ? "VIDEO" : "IMAGE");
    seed(100, "IMAGE", "PENDING");
    seed(101, "VIDEO", "REJECTED");
    const first = listGallery({ type: "ALL", limit: 20, offset: 0 }).items;
    expect(first.map((item) => item.originalName)[0]).toBe("file-25.mp4");
    expect(first).toHaveLength(20);
    expect(listGallery({ type: "ALL", limit: 20, offset: 20 }).items).toHaveLength(5);
    expect(listGallery({ type: "VIDEO", limit: 20, offset: 0 }).items.map((item) => item.originalName)).toEqual([
      "file-25.mp4",
      "file-20.mp4",
      "file-15.mp4",
      "file-10.mp4",
      "file-5.mp4",
    ]);
    expect(listGallery({ type: "IMAGE", limit: 50, offset: 0 }).items).toHaveLength(20);
    expect(getGalleryItem(seed(102, "IMAGE", "PENDING").id)).toBeUndefined();
  });

  it("answers the API with exactly the gallery fields, never who sent it", async () => {
    seed(1, "VIDEO");
    const response = await api("?limit=20&offset=0&type=VIDEO");
    expect(response.status).toBe(200);
    const body = (await response.json()) as unknown as Record<string, unknown>[];
    expect(Object.keys(body[0]!).sort()).toEqual([
      "caption",
      "durationSec",
      "id",
      "originalName",
      "senderName",
      "thumbnailUrl",
      "title",
      "type",
      "url",
    ]);
    expect(JSON.stringify(body)).not.toContain("private.example");
  });

  it("titles each item by who shared it, a video with its length, never by the file name", async () => {
    const photo = seed(1, "IMAGE");
    const video = seed(2, "VIDEO");
    const silent = db
      .insert(uploads)
      .values({ type: "VIDEO", status: "APPROVED", url: "/media/3/v.mp4", submittedBy: null })
      .returning()
      .get();
    const grandpa = db
      .insert(uploads)
      .values({ type: "IMAGE", status: "APPROVED", url: "/media/5/p.jpg", submittedBy: "Grandpa Ted (ted@private.example)" })
      .returning()
      .get();
    const byAddress = db
      .insert(uploads)
      .values({ type: "IMAGE", status: "APPROVED", url: "/media/4/p.jpg", submittedBy: "ann@private.example" })
      .returning()
      .get();
    // The name as the sender gave it, never cut to its first word.
    expect(getGalleryItem(photo.id)?.title).toBe("Photo shared by Friend 1");
    expect(getGalleryItem(video.id)?.title).toBe("Video shared by Friend 2, 1:15");
    // No stored length (a video from before lengths were measured): no length; no name: a guest, never an address.
    expect(getGalleryItem(silent.id)?.title).toBe("Video shared by a guest");
    expect(getGalleryItem(byAddress.id)?.title).toBe("Photo shared by a guest");
    expect(getGalleryItem(grandpa.id)?.title).toBe("Photo shared by Grandpa Ted");
    const body = (await (await api("?limit=20&offset=0")).json()) as unknown as { id: number; title: string }[];
    expect(body.find((item) => item.id === video.id)?.title).toBe("Video shared by Friend 2, 1:15");
    expect(body.map((item) => item.title).join(" ")).not.toMatch(/file-|private\.example/);
  });

  it("refuses a bad type, limit or offset with 400 and names the field", async () => {
    for (const [query, field] of [
      ["?type=SOUND", "type"],
      ["?type=image", "type"],
      ["?type=IMAGE,", "type"],
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=ten", "limit"],
      ["?offset=-1", "offset"],
      ["?offset=1.5", "offset"],
    ] as const) {
      const response = await api(query);
      expect(response.status, query).toBe(400);
      expect(Object.keys(((await response.json()) as { errors: object }).errors)).toEqual([field]);
    }
  });

  it("renders the page's data without submitters, and reaches further with ?offset= without JavaScript", async () => {
    for (let at = 1; at <= 45; at++) seed(at);
    const start = await page("");
    expect(start.items).toHaveLength(20);
    expect(start.next).not.toBeNull();
    expect((await page("?offset=20")).items).toHaveLength(40);
    const end = await page("?offset=40");
    expect(end.items).toHaveLength(45);
    expect(end.next).toBeNull();
    expect(JSON.stringify(end)).not.toContain("private.example");
  });

  it("shows at most 100 items a page, and the next page of a filter starts after its last one", async () => {
    for (let at = 1; at <= 130; at++) seed(at, at % 2 ? "IMAGE" : "VIDEO");
    const all = await page("?offset=5000");
    expect(all.items).toHaveLength(100);
    const photos = await page("?type=IMAGE&offset=5000");
    expect(photos.items.map((item) => item.originalName).slice(0, 2)).toEqual(["file-129.jpg", "file-127.jpg"]);
    expect(photos.items).toHaveLength(65);
    expect(photos.next).toBeNull();
    const videos = await page("?type=VIDEO&offset=40");
    expect(videos.items).toHaveLength(60);
    const earlierVideos = await page(`?type=VIDEO&before=${videos.next}`);
    expect(earlierVideos.before).toBe(videos.next);
    expect(earlierVideos.items.map((item) => item.originalName)).toEqual([10, 8, 6, 4, 2].map((at) => `file-${at}.mp4`));
  });

  it("API: names the next page of the same filter in a Link header, and refuses a malformed cursor", async () => {
    for (let at = 1; at <= 25; at++) seed(at, at % 5 === 0 ? "VIDEO" : "IMAGE");
    const first = await api("?limit=2&type=VIDEO");
    const link = first.headers.get("Link")!;
    expect(link).toMatch(/^<\/api\/gallery\?limit=2&type=VIDEO&before=[\w-]+>; rel="next"$/);
    const second = await api(link.slice("</api/gallery".length, link.indexOf(">")));
    expect(((await second.json()) as { originalName: string }[]).map((item) => item.originalName)).toEqual(["file-15.mp4", "file-10.mp4"]);
    const bad = await api("?before=garbage!&type=VIDEO");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ errors: { before: [expect.stringMatching(/before/)] } });
  });
});
