// A shared photo is shown from copies made for the web (no side over
// 2560 px, in the standard widths below, never enlarged), each served to
// visitors only once the photo is published, turned with the photo, gone
// with it; photos processed before the copies existed get them at the next
// start. The gallery offers the widths to the browser in `srcset`.
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminUsers, signedUploads, uploads, type Upload } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { startAdminSession } from "~/admins/session.server";
import { GalleryGrid } from "~/components/Gallery";
import { translate } from "~/i18n/i18n.server";
import { db } from "~/platform/db.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { photoCopies, photoSrcSet, photoWidths, widthsUpTo } from "~/media/web-sizes";
import { upsertAdmin } from "~/admins/admin.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle, requeueUnprocessedUploads } from "~/uploads/upload-processing.server";
import { rotateUpload, setUploadStatus } from "~/uploads/upload.server";
import { listGallery } from "~/uploads/gallery.server";
import { loader as mediaLoader } from "~/routes/media.$id.$file";

const ORIGIN = "http://memorial.test";
let adminCookie: string;

beforeAll(async () => {
  await upsertAdmin("keeper", "the-right-password");
  const admin = db.select().from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!;
  adminCookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id: admin.id, username: admin.username })).split(";")[0]!;
});
beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
});
afterAll(() => processingIdle());

const row = (id: number): Upload => db.select().from(uploads).where(eq(uploads.id, id)).get()!;

/** A 12 MP phone photo, landscape, with the camera's make and a GPS position in its EXIF. */
const phonePhoto = () =>
  sharp({ create: { width: 4032, height: 3024, channels: 3, background: "#6a8caf" } })
    .jpeg({ quality: 60 })
    .withExif({
      IFD0: { Make: "TestPhone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "37/1 52/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "122/1 16/1 0/1" },
    })
    .toBuffer();

async function share(bytes: Buffer, originalName: string) {
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: originalName });
  const view = await registerFormUpload(key, { submittedBy: "Ann (ann@example.com)", originalName });
  await processingIdle();
  return view.id;
}

function media(url: string, admin = false) {
  const [, , id, file] = url.split("/");
  const request = new Request(`${ORIGIN}${url}`, { headers: admin ? { Cookie: adminCookie } : {} });
  return mediaLoader({ request, params: { id: id!, file: file! }, context: {} } as never) as Promise<Response>;
}

/** The addresses of every web copy of an upload, narrowest first. */
const copyUrls = (upload: Upload) => photoCopies(upload.url)!.map((copy) => copy.name);

const stored = async (key: string) => (await getMediaStorage().stat(key)) !== null;

describe("the widths a photo is made in", () => {
  it("are the standard widths below the photo's own, then its own, never more", () => {
    expect(photoWidths(2560)).toEqual([640, 1280, 2560]);
    expect(photoWidths(1920)).toEqual([640, 1280, 1920]);
    expect(photoWidths(1280)).toEqual([640, 1280]);
    expect(photoWidths(641)).toEqual([640, 641]);
    expect(photoWidths(300)).toEqual([300]);
    expect(widthsUpTo(100, [])).toEqual([100]);
  });

  it("are named after the largest copy, from which the gallery builds its srcset", () => {
    expect(photoCopies("/media/7/AbC_d-e-1920w.jpg")).toEqual([
      { name: "/media/7/AbC_d-e-640w.jpg", width: 640 },
      { name: "/media/7/AbC_d-e-1280w.jpg", width: 1280 },
      { name: "/media/7/AbC_d-e-1920w.jpg", width: 1920 },
    ]);
    expect(photoCopies("/media/7/moving-480w.gif")).toEqual([{ name: "/media/7/moving-480w.gif", width: 480 }]);
    expect(photoCopies("/media/7/old-full-size.jpg")).toBeNull();
    expect(photoCopies("/media/7/clip.mp4")).toBeNull();
    expect(photoSrcSet("/media/7/x-1280w.jpg", { url: "/media/7/t-thumb.jpg", width: 280 })).toBe(
      "/media/7/t-thumb.jpg 280w, /media/7/x-640w.jpg 640w, /media/7/x-1280w.jpg 1280w",
    );
    // Nothing to choose between: no srcset.
    expect(photoSrcSet("/media/7/x-200w.jpg", { url: "/media/7/t-thumb.jpg", width: 280 })).toBeUndefined();
    expect(photoSrcSet("/media/7/old-full-size.jpg")).toBeUndefined();
    expect(photoSrcSet("/media/7/moving-480w.gif", { url: "/media/7/t-thumb.jpg", width: 280 })).toBeUndefined();
  });
});

describe("a shared photo's web copies", () => {
  it("are JPEGs up to 2560 px without the camera's details, served to visitors once published, and deleted with it", async () => {
    const id = await share(await phonePhoto(), "IMG_0001.JPG");
    const upload = row(id);
    expect(upload).toMatchObject({ processingError: null, width: 4032, height: 3024 });
    expect(upload.url).toMatch(new RegExp(`^/media/${id}/[\\w-]+-2560w\\.jpg$`));
    const urls = copyUrls(upload);
    expect(urls).toHaveLength(3);

    // Pending: the family sees every copy, visitors none.
    for (const url of urls) {
      expect((await media(url)).status, url).toBe(404);
      expect((await media(url, true)).status, url).toBe(200);
    }
    await setUploadStatus(id, "APPROVED", operator());
    const sizes: string[] = [];
    for (const url of urls) {
      const response = await media(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/jpeg");
      expect(response.headers.get("Cache-Control")).toContain("immutable");
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(meta.exif).toBeUndefined();
      sizes.push(`${meta.width}x${meta.height}`);
    }
    expect(sizes).toEqual(["640x480", "1280x960", "2560x1920"]);
    // The original stays the family's.
    expect((await media(`/media/${id}/${path.posix.basename(upload.storageKey!)}`)).status).toBe(404);
    // Another width than those made is nothing.
    expect((await media(urls[0]!.replace("-640w", "-320w"))).status).toBe(404);
    // The API keeps its fields, its url the largest copy.
    expect(listGallery({ type: "IMAGE", limit: 20, offset: 0 }).items).toEqual(
      [{ id, type: "IMAGE", url: upload.url, thumbnailUrl: upload.thumbnailUrl, originalName: "IMG_0001.JPG", durationSec: null }].map(
        (item) => ({ ...item, title: "Photo shared by Ann", senderName: "Ann", caption: null }),
      ),
    );

    const keys = photoCopies(upload.displayKey)!.map((copy) => copy.name);
    for (const key of keys) expect(await stored(key)).toBe(true);
    await setUploadStatus(id, "REJECTED", operator());
    for (const key of [...keys, upload.thumbnailKey!, upload.storageKey!]) expect(await stored(key), key).toBe(false);
  });

  it("turn with the photo, every width of them, and the copies they replace are removed", async () => {
    const id = await share(await phonePhoto(), "sideways.jpg");
    const before = row(id);
    const turned = await rotateUpload(id, "right", operator());
    const after = row(id);
    expect(turned?.newUrl).toBe(after.url);
    expect(after).toMatchObject({ rotation: 1, width: 3024, height: 4032 });
    expect(after.url).toMatch(/-1920w\.jpg$/);
    const sizes = [];
    for (const url of copyUrls(after)) {
      const meta = await sharp(Buffer.from(await (await media(url, true)).arrayBuffer())).metadata();
      sizes.push(`${meta.width}x${meta.height}`);
    }
    expect(sizes).toEqual(["640x853", "1280x1707", "1920x2560"]);
    for (const key of photoCopies(before.displayKey)!.map((copy) => copy.name)) expect(await stored(key), key).toBe(false);
  });

  it("are made at the next start for a photo processed before they existed, which keeps its one copy until then", async () => {
    const id = await share(await phonePhoto(), "older.jpg");
    // As the site left it before: one full-size public copy, published.
    const legacyKey = `media/${id}/legacy-full-size.jpg`;
    await getMediaStorage().write(legacyKey, Readable.from([await phonePhoto()]), { contentType: "image/jpeg", maxBytes: 1e9 });
    for (const key of photoCopies(row(id).displayKey)!.map((copy) => copy.name)) await getMediaStorage().delete(key);
    db.update(uploads)
      .set({ displayKey: legacyKey, url: `/media/${id}/legacy-full-size.jpg`, status: "APPROVED" })
      .where(eq(uploads.id, id))
      .run();
    expect((await media(`/media/${id}/legacy-full-size.jpg`)).status).toBe(200);

    expect(requeueUnprocessedUploads()).toBe(1);
    await processingIdle();
    const after = row(id);
    expect(after.url).toMatch(/-2560w\.jpg$/);
    for (const url of copyUrls(after)) expect((await media(url)).status, url).toBe(200);
    expect(await stored(legacyKey)).toBe(false);
    expect(requeueUnprocessedUploads()).toBe(0);
  });
});

describe("the gallery grid", () => {
  it("offers the thumbnail and every web copy of a photo in srcset, and none for a video", () => {
    const html = renderToStaticMarkup(
      <GalleryGrid
        t={translate("en")}
        emptyText=""
        items={[
          {
            id: 1,
            type: "IMAGE",
            url: "/media/1/p-1280w.jpg",
            thumbnailUrl: "/media/1/t-thumb.jpg",
            originalName: "a.jpg",
            durationSec: null,
            title: "Photo shared by Ann",
            senderName: "Ann",
            caption: null,
          },
          {
            id: 2,
            type: "VIDEO",
            url: "/media/2/v.mp4",
            thumbnailUrl: "/media/2/p-poster.jpg",
            originalName: "b.mp4",
            durationSec: 3,
            title: "Video shared by Ben, 0:03",
            senderName: "Ben",
            caption: null,
          },
        ]}
      />,
    );
    const images = [...html.matchAll(/<img [^>]*>/g)].map((match) => match[0]);
    expect(images[0]).toContain('src="/media/1/t-thumb.jpg"');
    expect(images[0]).toContain('srcSet="/media/1/t-thumb.jpg 280w, /media/1/p-640w.jpg 640w, /media/1/p-1280w.jpg 1280w"');
    expect(images[0]).toMatch(/sizes="[^"]+"/);
    expect(images[1]).not.toContain("srcSet");
    // A photo still opens full size in a new tab: the largest copy.
    expect(html).toContain('href="/media/1/p-1280w.jpg" target="_blank"');
  });
});
