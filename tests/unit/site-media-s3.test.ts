// The family's hero photo and Karen Mode song on the S3 driver, against a
// real S3-compatible server (s3rver) on loopback: stored in the bucket,
// served by a redirect to a presigned address, replaced and deleted there.
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteSettings } from "../../db/schema";
import { operator, type Actor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { useMediaStorage } from "~/media/media-storage.server";
import { S3Storage } from "~/media/s3-storage.server";
import { getSiteView, getStoredValue, STORED_KEYS } from "~/site/settings.server";
import type { StoredHeroImage, StoredKarenSong } from "~/site/site-media.schema";
import { HERO_PHOTO_FORM, heroPhotoSink, receiveHeroPhotoForm, resetHeroPhoto } from "~/site/hero-photo.server";
import { KAREN_SONG_FORM, karenSongSink, receiveKarenSongForm, resetKarenSong } from "~/site/karen-song.server";
import { refusedSiteMediaForm } from "~/site/site-media-files.server";
import { loader as siteMediaFile } from "~/routes/media.site.$file";
import { readMultipartForm } from "~/platform/multipart.server";
// @ts-expect-error s3rver ships no type declarations.
import S3rver from "s3rver";

const ORIGIN = "http://memorial.test";
const BUCKET = "memorial-site-media";
const BUNDLED_SONG = path.resolve(__dirname, "../../public/audio/karen-mode.mp3");

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

let server: S3rverServer;
let serverDir: string;
let storage: S3Storage;

beforeAll(async () => {
  serverDir = await fs.mkdtemp(path.join(os.tmpdir(), "memorial-s3rver-"));
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(serverDir, "buckets"),
    configureBuckets: [{ name: BUCKET }],
  }) as S3rverServer;
  const { port } = await server.run();
  storage = new S3Storage({
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    scratchDir: path.join(serverDir, "scratch"),
  });
  useMediaStorage(storage);
  db.delete(siteSettings).run();
});

afterAll(async () => {
  storage?.client.destroy();
  await server?.close();
  if (serverDir) await fs.rm(serverDir, { recursive: true, force: true });
});

const inBucket = (key: string) =>
  storage.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
    (head) => ({ contentType: head.ContentType, size: head.ContentLength }),
    () => null,
  );

async function fetchServed(url: string, headers: Record<string, string> = {}) {
  const file = url.split("/").pop()!;
  const redirect = (await siteMediaFile({
    request: new Request(`${ORIGIN}${url}`, { headers }),
    params: { file },
    context: {},
  } as never)) as Response;
  expect(redirect.status).toBe(302);
  return fetch(redirect.headers.get("Location")!, { headers });
}

function upload(action: "hero" | "song", fields: Record<string, string | { bytes: Buffer; name: string; type: string }>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type }), value.name);
  }
  return new Request(`${ORIGIN}/admin/site/${action}`, { method: "POST", body: form });
}

/** A form read and answered as its route does (answerSiteMediaForm), by `by`. */
const sendHeroForm = (request: Request, by: Actor) =>
  readMultipartForm(request, HERO_PHOTO_FORM, heroPhotoSink()).then((form) => receiveHeroPhotoForm(form, by), refusedSiteMediaForm);
const sendSongForm = (request: Request, by: Actor) =>
  readMultipartForm(request, KAREN_SONG_FORM, karenSongSink()).then((form) => receiveKarenSongForm(form, by), refusedSiteMediaForm);

describe("the family's photo and song in an S3 bucket", () => {
  it("are stored in the bucket, served through presigned addresses, and replaced and deleted there", async () => {
    const photo = await sharp({ create: { width: 1500, height: 1000, channels: 3, background: "#996633" } })
      .jpeg()
      .toBuffer();
    expect(
      await sendHeroForm(
        upload("hero", { heroImageAlt: "In the bucket", photo: { bytes: photo, name: "p.jpg", type: "image/jpeg" } }),
        operator("family"),
      ),
    ).toEqual({
      ok: true,
      saved: "file",
    });
    const hero = getStoredValue<StoredHeroImage>(STORED_KEYS.heroImage)!;
    expect(hero.copies.map((copy) => copy.width)).toEqual([640, 1280, 1500]);
    for (const copy of hero.copies) {
      expect(await inBucket(copy.webp)).toMatchObject({ contentType: "image/webp" });
      expect(await inBucket(copy.jpeg)).toMatchObject({ contentType: "image/jpeg" });
    }
    const served = await fetchServed(getSiteView().heroImage.src);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(1280);

    const song = await fs.readFile(BUNDLED_SONG);
    expect(
      await sendSongForm(
        upload("song", { title: "Bucket Song", song: { bytes: song, name: "s.mp3", type: "audio/mpeg" } }),
        operator("family"),
      ),
    ).toEqual({
      ok: true,
      saved: "file",
    });
    const { key } = getStoredValue<StoredKarenSong>(STORED_KEYS.karenSong)!;
    expect(await inBucket(key)).toEqual({ contentType: "audio/mpeg", size: song.length });
    const part = await fetchServed(getSiteView().karenMusic.mp3, { Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(song.subarray(0, 10));

    // A new photo replaces the old one's objects; the resets delete the family's.
    const second = await sharp({ create: { width: 700, height: 500, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    await sendHeroForm(
      upload("hero", { heroImageAlt: "Second", photo: { bytes: second, name: "q.png", type: "image/png" } }),
      operator("family"),
    );
    for (const copy of hero.copies) expect(await inBucket(copy.jpeg)).toBeNull();
    const replaced = getStoredValue<StoredHeroImage>(STORED_KEYS.heroImage)!;
    await resetHeroPhoto(operator("family"));
    await resetKarenSong(operator("family"));
    for (const copy of replaced.copies) expect(await inBucket(copy.webp)).toBeNull();
    expect(await inBucket(key)).toBeNull();
    expect(getSiteView().heroImage.src).toBe("/images/hero.jpg");
  });
});
