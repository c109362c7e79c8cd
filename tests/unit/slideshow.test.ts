// The reception slideshow's data: what the screen may show (GET
// /api/slideshow and the page's loader), how its address and timing are
// read, and how a fresh list joins the rotation on the screen. The privacy
// gate in front of both is checked with every other address in
// privacy-http.test.ts.
import { beforeEach, describe, expect, it } from "vitest";
import { uploads, type MediaType, type Status } from "../../db/schema";
import { db } from "~/platform/db.server";
import { getGalleryItem, listSlideshow } from "~/uploads/gallery.server";
import { senderName } from "~/utils/submitted-by";
import { SLIDESHOW_MAX_ITEMS, type SlideshowItem } from "~/uploads/upload.schema";
import { loader as apiLoader } from "~/routes/api.slideshow";
import { loader as pageLoader } from "~/routes/slideshow";
import { mergeRotation, slideSeconds, slideshowHref, slideshowParams } from "~/uploads/slideshow";

const BASE_TIME = Date.UTC(2025, 8, 1, 12, 0, 0);

type Seed = {
  type?: MediaType;
  status?: Status;
  submittedBy?: string | null;
  processed?: boolean;
  processingError?: string;
  legacyVideo?: boolean;
  /** A voice memory's line, and its sender's permission to show it. */
  caption?: string;
  canDisplay?: boolean;
};

const EXTENSIONS = { IMAGE: "jpg", VIDEO: "mp4", AUDIO: "m4a" } as const;

function seed(
  at: number,
  { type = "IMAGE", status = "APPROVED", submittedBy, processed = true, processingError, legacyVideo, caption, canDisplay }: Seed = {},
) {
  const ext = EXTENSIONS[type];
  const storageKey = `media/${at}/original.${ext}`;
  return db
    .insert(uploads)
    .values({
      type,
      status,
      submittedBy: submittedBy === undefined ? `Friend${at} Surname (friend${at}@private.example)` : submittedBy,
      originalName: `IMG_${at}.${ext}`,
      url: processed && !legacyVideo ? `/media/${at}/display.${ext}` : `/media/${at}/original.${ext}`,
      // A voice has no picture.
      thumbnailUrl: processed && type !== "AUDIO" ? `/media/${at}/thumb.jpg` : null,
      durationSec: type === "VIDEO" ? 75 : type === "AUDIO" ? 42 : null,
      storageKey,
      displayKey: legacyVideo ? storageKey : processed ? `media/${at}/display.${ext}` : null,
      thumbnailKey: processed && type !== "AUDIO" ? `media/${at}/thumb.jpg` : null,
      processingError,
      caption,
      canDisplay,
      createdAt: new Date(BASE_TIME + at * 1000),
    })
    .returning()
    .get();
}

beforeEach(() => {
  db.delete(uploads).run();
});

const api = (headers: Record<string, string> = {}) =>
  apiLoader({ request: new Request("http://memorial.test/api/slideshow", { headers }), params: {}, context: {} });

const page = (query = "") =>
  pageLoader({ request: new Request(`http://memorial.test/slideshow${query}`), params: {}, context: {} }).then(
    (response) =>
      response.json() as Promise<{
        item: SlideshowItem | null;
        at: number;
        count: number;
        every: number;
        links: Record<string, string>;
        refresh: { seconds: number; url: string } | null;
        share: { qrSrc: string; address: string } | null;
      }>,
  );

describe("what the slideshow shows", () => {
  it("only published media with their public copies, newest first, with the name the sender gave and nothing more about them", () => {
    seed(1);
    seed(2, { type: "VIDEO", submittedBy: "Anne-Marie de la Cruz (anne@private.example)" });
    seed(3, { status: "PENDING" });
    seed(4, { status: "REJECTED" });
    seed(5, { processed: false }); // published before its copies were made
    seed(6, { processingError: "unreadable" });
    seed(7, { type: "VIDEO", legacyVideo: true }); // its only copy is the original
    seed(8, { submittedBy: null });
    expect(listSlideshow()).toEqual([
      {
        id: expect.any(Number),
        type: "IMAGE",
        imageUrl: "/media/8/display.jpg",
        videoUrl: null,
        posterUrl: null,
        durationSec: null,
        senderName: null,
        caption: null,
      },
      {
        id: expect.any(Number),
        type: "VIDEO",
        imageUrl: null,
        videoUrl: "/media/2/display.mp4",
        posterUrl: "/media/2/thumb.jpg",
        durationSec: 75,
        senderName: "Anne-Marie de la Cruz",
        caption: null,
      },
      {
        id: expect.any(Number),
        type: "IMAGE",
        imageUrl: "/media/1/display.jpg",
        videoUrl: null,
        posterUrl: null,
        durationSec: null,
        senderName: "Friend1 Surname",
        caption: null,
      },
    ]);
  });

  it("is the newest SLIDESHOW_MAX_ITEMS, however many there are", () => {
    const rows = Array.from({ length: SLIDESHOW_MAX_ITEMS + 20 }, (_, i) => ({
      type: "IMAGE" as const,
      status: "APPROVED" as const,
      url: `/media/${i}/display.jpg`,
      storageKey: `media/${i}/original.jpg`,
      displayKey: `media/${i}/display.jpg`,
      createdAt: new Date(BASE_TIME + i * 1000),
    }));
    db.insert(uploads).values(rows).run();
    const items = listSlideshow();
    expect(items).toHaveLength(SLIDESHOW_MAX_ITEMS);
    expect(items[0]!.imageUrl).toBe(`/media/${SLIDESHOW_MAX_ITEMS + 19}/display.jpg`);
    expect(items.at(-1)!.imageUrl).toBe("/media/20/display.jpg");
  });

  it.each([
    ["Grandpa Ted (ted@example.com)", "Grandpa Ted"],
    ["Anne Smith (anne@example.com)", "Anne Smith"],
    ["  Ngozi   Okafor  (n@example.com)", "Ngozi Okafor"],
    ["Ted ted@example.com (ted@example.com)", "Ted"],
    ["anne@example.com (anne@example.com)", null],
    // A voice memory may be sent with a name alone.
    ["Just a name", "Just a name"],
    ["anne@example.com", null],
    [" (x@example.com)", null],
    [null, null],
    [`${"A".repeat(60)} ${"B".repeat(60)} (a@example.com)`, `${"A".repeat(60)} ${"B".repeat(39)}`],
  ])("the caption's name of %j is %j", (submittedBy, expected) => {
    expect(senderName(submittedBy)).toBe(expected);
  });
});

describe("a voice memory in the slideshow", () => {
  it("is a card with its sender's name and line, only once published with permission, and carries nothing to play", () => {
    seed(1, { type: "AUDIO", caption: "For Grandma, who taught me every song I know" });
    seed(2, { type: "AUDIO", caption: "Only for the family", canDisplay: false });
    seed(3, { type: "AUDIO", status: "PENDING", submittedBy: "Pending Person (p@private.example)" });
    seed(4, { type: "AUDIO", status: "HIDDEN" });
    seed(5, { type: "AUDIO", status: "REJECTED" });
    seed(6, { type: "AUDIO", processed: false });
    seed(7, { type: "AUDIO", processingError: "the recording could not be read" });
    // Sent with a name alone, as the voice form allows.
    seed(8, { type: "AUDIO", submittedBy: "Grandpa Ted" });
    seed(9);
    expect(listSlideshow()).toEqual([
      expect.objectContaining({ type: "IMAGE", imageUrl: "/media/9/display.jpg" }),
      {
        id: expect.any(Number),
        type: "AUDIO",
        imageUrl: null,
        videoUrl: null,
        posterUrl: null,
        durationSec: null,
        senderName: "Grandpa Ted",
        caption: null,
      },
      {
        id: expect.any(Number),
        type: "AUDIO",
        imageUrl: null,
        videoUrl: null,
        posterUrl: null,
        durationSec: null,
        senderName: "Friend1 Surname",
        caption: "For Grandma, who taught me every song I know",
      },
    ]);
  });

  it("never reaches the API or the page without permission, and stays the usual photo time", async () => {
    seed(1, { type: "AUDIO", caption: "Happy birthday, Mum" });
    seed(2, { type: "AUDIO", caption: "Only for the family", canDisplay: false, submittedBy: "Kept Private (k@private.example)" });
    const text = await (await api()).text();
    expect(text).toContain("Happy birthday, Mum");
    expect(text).not.toMatch(/Only for the family|Kept Private|private\.example|\.m4a/);
    const shown = await page("?every=12");
    expect([shown.count, shown.item?.type, shown.item?.caption]).toEqual([1, "AUDIO", "Happy birthday, Mum"]);
    expect(shown.refresh).toEqual({ seconds: 12, url: "/slideshow?at=0&every=12" });
    expect(slideSeconds({ type: "AUDIO", durationSec: 600 }, 8)).toBe(8);
  });

  it("kept for the family, has no page of its own at /gallery/{id} either", () => {
    const shown = seed(1, { type: "AUDIO" });
    const kept = seed(2, { type: "AUDIO", canDisplay: false });
    expect(getGalleryItem(shown.id)?.title).toBe("Voice memory from Friend1 Surname, 0:42");
    expect(getGalleryItem(kept.id)).toBeUndefined();
  });
});

describe("GET /api/slideshow", () => {
  it("answers the list with exactly the slideshow's fields, and 304 while it has not changed", async () => {
    seed(1, { submittedBy: "Rosa Park (rosa@private.example)" });
    seed(2, { status: "PENDING", submittedBy: "Pending Person (p@private.example)" });
    const response = await api();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("private, no-cache");
    const text = await response.text();
    const body = JSON.parse(text) as { items: Record<string, unknown>[] };
    expect(Object.keys(body)).toEqual(["items"]);
    expect(body.items).toHaveLength(1);
    expect(Object.keys(body.items[0]!).sort()).toEqual([
      "caption",
      "durationSec",
      "id",
      "imageUrl",
      "posterUrl",
      "senderName",
      "type",
      "videoUrl",
    ]);
    expect(body.items[0]!.senderName).toBe("Rosa Park");
    expect(text).not.toMatch(/private\.example|Pending|IMG_|original/);

    const etag = response.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await api({ "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    // Compression may weaken the tag on the way out; the browser sends it back so.
    expect((await api({ "If-None-Match": `"other", W/${etag}` })).status).toBe(304);

    seed(3);
    const changed = await api({ "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect(((await changed.json()) as { items: unknown[] }).items).toHaveLength(2);
  });
});

describe("the page without JavaScript", () => {
  it("shows the item at ?at=, links round the list both ways, and refreshes to the next", async () => {
    for (let at = 1; at <= 3; at++) seed(at);
    seed(4, { status: "PENDING" });
    const first = await page();
    expect([first.at, first.count, first.item?.imageUrl]).toEqual([0, 3, "/media/3/display.jpg"]);
    expect(first.refresh).toEqual({ seconds: 8, url: "/slideshow?at=1" });
    expect(first.links).toEqual({
      previous: "/slideshow?at=2",
      next: "/slideshow?at=1",
      pause: "/slideshow?at=0&paused=1",
      play: "/slideshow?at=0",
    });
    const last = await page("?at=2&every=20&qr=1");
    expect(last.item?.imageUrl).toBe("/media/1/display.jpg");
    expect(last.refresh).toEqual({ seconds: 20, url: "/slideshow?at=0&every=20&qr=1" });
    expect(last.share).toEqual({ qrSrc: "/qr/share.svg", address: "memorial.test/share" });
    // Deleted meanwhile: a place past the end is the start again.
    expect((await page("?at=3")).at).toBe(0);
    const paused = await page("?at=1&paused=1");
    expect(paused.refresh).toBeNull();
    expect(paused.links.play).toBe("/slideshow?at=1");
  });

  it("waits for a video to play through, and looks again in half a minute when nothing is published", async () => {
    seed(1, { type: "VIDEO" });
    expect((await page("?every=5")).refresh).toEqual({ seconds: 76, url: "/slideshow?at=0&every=5" });
    db.delete(uploads).run();
    const empty = await page();
    expect([empty.item, empty.count, empty.refresh]).toEqual([null, 0, { seconds: 30, url: "/slideshow?at=0" }]);
  });
});

describe("the slideshow's address", () => {
  it.each([
    ["", { every: 8, at: 0, qr: false, paused: false }],
    ["?every=15&at=7&qr=1&paused=1", { every: 15, at: 7, qr: true, paused: true }],
    ["?every=2", { every: 3, at: 0, qr: false, paused: false }],
    ["?every=500", { every: 120, at: 0, qr: false, paused: false }],
    ["?every=abc&at=-3", { every: 8, at: 0, qr: false, paused: false }],
    ["?every=8.5&at=1e3", { every: 8, at: 0, qr: false, paused: false }],
    ["?every=99999999999999999999&at=500", { every: 8, at: 0, qr: false, paused: false }],
    ["?at=499&qr=yes", { every: 8, at: 499, qr: false, paused: false }],
  ])("reads %j within bounds", (query, expected) => {
    expect(slideshowParams(new URLSearchParams(query))).toEqual(expected);
  });

  it("writes only what differs from the defaults", () => {
    expect(slideshowHref({ at: 3, every: 8, qr: false, paused: false })).toBe("/slideshow?at=3");
    expect(slideshowHref({ at: 0, every: 30, qr: true, paused: true })).toBe("/slideshow?at=0&every=30&qr=1&paused=1");
  });

  it("keeps a photo `every` seconds and a video until it has played through, up to ten minutes", () => {
    expect(slideSeconds({ type: "IMAGE", durationSec: null }, 8)).toBe(8);
    expect(slideSeconds({ type: "VIDEO", durationSec: 3 }, 8)).toBe(8);
    expect(slideSeconds({ type: "VIDEO", durationSec: 30.2 }, 8)).toBe(32);
    expect(slideSeconds({ type: "VIDEO", durationSec: null }, 8)).toBe(8);
    expect(slideSeconds({ type: "VIDEO", durationSec: 3600 }, 8)).toBe(600);
  });
});

describe("a fresh list joining the rotation", () => {
  const item = (id: number): SlideshowItem => ({
    id,
    type: "IMAGE",
    imageUrl: `/media/${id}/display.jpg`,
    videoUrl: null,
    posterUrl: null,
    durationSec: null,
    senderName: null,
    caption: null,
  });
  const ids = (rotation: { items: SlideshowItem[]; index: number }) => ({ ids: rotation.items.map((i) => i.id), index: rotation.index });

  it("puts newly published items right after the one on the screen, and keeps the rest in place", () => {
    const merged = mergeRotation({ items: [item(5), item(4), item(3)], index: 1 }, [item(7), item(6), item(5), item(4), item(3)]);
    expect(ids(merged)).toEqual({ ids: [5, 4, 7, 6, 3], index: 1 });
    expect(merged.removedCurrent).toBe(false);
  });

  it("starts from the page's own item on the first list", () => {
    expect(ids(mergeRotation({ items: [item(2)], index: 0 }, [item(3), item(2), item(1)]))).toEqual({ ids: [2, 3, 1], index: 0 });
    expect(ids(mergeRotation({ items: [], index: 0 }, [item(3), item(2)]))).toEqual({ ids: [3, 2], index: 0 });
  });

  it("drops deleted items; the one on the screen gives way to the next, round to the start", () => {
    const gone = mergeRotation({ items: [item(5), item(4), item(3)], index: 1 }, [item(5), item(3)]);
    expect(ids(gone)).toEqual({ ids: [5, 3], index: 1 });
    expect(gone.removedCurrent).toBe(true);
    const last = mergeRotation({ items: [item(5), item(4), item(3)], index: 2 }, [item(5), item(4)]);
    expect(ids(last)).toEqual({ ids: [5, 4], index: 0 });
    const all = mergeRotation({ items: [item(5)], index: 0 }, []);
    expect([all.items, all.removedCurrent]).toEqual([[], true]);
  });

  it("takes an item's new addresses (a photo turned by the family)", () => {
    const turned = { ...item(4), imageUrl: "/media/4/turned.jpg" };
    expect(mergeRotation({ items: [item(5), item(4)], index: 0 }, [item(5), turned]).items[1]!.imageUrl).toBe("/media/4/turned.jpg");
  });
});
