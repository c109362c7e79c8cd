// What a fuzz aims at, made through the site's own API before it starts:
// memories, poems, an RSVP, shared files of every kind, a completed direct
// upload, signed addresses and multipart uploads. Each step must succeed.
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { expect } from "vitest";
import { ROOT } from "../site-process";
import { multipart } from "./bodies";
import { json, type FuzzTarget } from "./run";
import { pathAndQuery, SEED } from "./values";

/** Three memories waiting for review, the first then approved; their ids. */
export async function seedMemories(f: FuzzTarget): Promise<number[]> {
  const memoryIds: number[] = [];
  for (const name of ["Fuzz Seed One", "Fuzz Seed Two", "Fuzz Seed Three"]) {
    const { id } = await f.must<{ id: number }>(
      {
        endpoint: "POST /api/guestbook",
        method: "POST",
        url: "/api/guestbook",
        ctx: "anon",
        ...json({ name, email: "seed@example.com", message: "A memory to moderate while fuzzing." }),
      },
      201,
    );
    memoryIds.push(id);
  }
  await f.must(
    {
      endpoint: "PATCH /api/admin/memories/{id}",
      method: "PATCH",
      url: `/api/admin/memories/${memoryIds[0]}`,
      ctx: "admin",
      ...json({ status: "APPROVED" }),
    },
    200,
  );
  return memoryIds;
}

export async function seedRsvp(f: FuzzTarget) {
  await f.must(
    {
      endpoint: "POST /api/rsvp",
      method: "POST",
      url: "/api/rsvp",
      ctx: "anon",
      ...json({ name: "Fuzz Seed", email: "seed@example.com", guestCount: 2 }),
    },
    201,
  );
}

/** Three poems; their ids. */
export async function seedPoems(f: FuzzTarget): Promise<number[]> {
  const poemIds: number[] = [];
  for (const title of ["Fuzz Poem One", "Fuzz Poem Two", "Fuzz Poem Three"]) {
    const { id } = await f.must<{ id: number }>(
      {
        endpoint: "POST /api/admin/poems",
        method: "POST",
        url: "/api/admin/poems",
        ctx: "admin",
        ...json({ title, content: "Line one\nLine two" }),
      },
      201,
    );
    poemIds.push(id);
  }
  return poemIds;
}

export interface FileContent {
  data: Buffer;
  /** Whether the server takes it (sniffed from its first bytes) or must refuse it. */
  media: boolean;
}

/** A small PNG and JPEG, and what files may hold: what the server accepts and what it must refuse. */
export async function fileContents(): Promise<{ png: Buffer; jpeg: Buffer; contents: FileContent[] }> {
  const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: "#7a9cc6" } })
    .png()
    .toBuffer();
  const jpeg = await sharp({ create: { width: 20, height: 30, channels: 3, background: "#c69a7a" } })
    .jpeg()
    .toBuffer();
  const contents = [
    { data: png, media: true },
    { data: jpeg, media: true },
    { data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from("not really a JPEG after its first three bytes")]), media: true },
    { data: Buffer.from("GIF89a and then nothing a GIF needs"), media: true },
    { data: Buffer.concat([png.subarray(0, 8), Buffer.from("a PNG signature and garbage")]), media: true },
    { data: Buffer.from("hello, this is plain text"), media: false },
    { data: Buffer.alloc(0), media: false },
    { data: Buffer.from("<html><script>alert(1)</script></html>"), media: false },
    { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), media: false },
    { data: Buffer.from("MZ\x90\x00\x03\x00\x00\x00this program cannot be run", "latin1"), media: false },
    { data: Buffer.from("PK\x03\x04zip archive", "latin1"), media: false },
    { data: Buffer.from("%PDF-1.4 not a photo"), media: false },
    { data: Buffer.from("xxxxxxxx\x00\x01\x02\x03\xff\xfe random bytes", "latin1"), media: false },
  ];
  return { png, jpeg, contents };
}

type AdminUpload = { id: number; originalName: string | null; url: string; thumbnailUrl: string | null; originalUrl: string | null };

export interface SharedFiles {
  /** Uploads only approved or rejected (never rotated), so no rotation races a rejection. */
  moderatable: number[];
  /** Uploads only rotated (never rejected). */
  rotatable: number[];
  /** Published, with its public copy and thumbnail. */
  approvedUploadId: number;
  /** Every upload and the names of its files (as in /media/{id}/{file}). */
  uploads: { id: number; files: string[] }[];
}

/**
 * Files shared through the plain form: two to moderate, one published (and
 * processed), and a JPEG, an iPhone HEIC and a video to rotate.
 */
export async function seedSharedFiles(f: FuzzTarget, { png, jpeg }: { png: Buffer; jpeg: Buffer }): Promise<SharedFiles> {
  const heic = readFileSync(path.join(ROOT, "tests/fixtures/sample.heic"));
  const mp4 = readFileSync(path.join(ROOT, "tests/fixtures/sample.mp4"));
  const tag = `fuzz${SEED}`;
  const seedFiles: [string, Buffer, string][] = [
    [`${tag}-moderate-a.png`, png, "image/png"],
    [`${tag}-moderate-b.png`, png, "image/png"],
    [`${tag}-public.png`, png, "image/png"],
    [`${tag}-rotate.jpg`, jpeg, "image/jpeg"],
    [`${tag}-rotate.heic`, heic, "image/heic"],
    [`${tag}-rotate.mp4`, mp4, "video/mp4"],
  ];
  const boundary = `----seed${tag}`;
  await f.must(
    {
      endpoint: "POST /share (multipart)",
      method: "POST",
      url: "/share",
      ctx: "anon",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: multipart(
        [
          { name: "name", value: "Fuzz Seed" },
          { name: "email", value: "seed@example.com" },
          ...seedFiles.map(([filename, data, type]) => ({ name: "files", filename, type, data })),
        ],
        boundary,
      ),
    },
    302,
  );
  const pending = await f.must<AdminUpload[]>(
    { endpoint: "GET /api/admin/pending-uploads", method: "GET", url: "/api/admin/pending-uploads", ctx: "admin" },
    200,
  );
  const seeded = (suffix: string) => {
    const upload = pending.find((u) => u.originalName === `${tag}-${suffix}`);
    expect(upload, `setup: the shared file ${tag}-${suffix} is pending`).toBeTruthy();
    return upload!.id;
  };
  const publicId = seeded("public.png");
  await f.must(
    {
      endpoint: "PATCH /api/admin/uploads/{id}",
      method: "PATCH",
      url: `/api/admin/uploads/${publicId}`,
      ctx: "admin",
      ...json({ status: "APPROVED" }),
    },
    200,
  );
  // Its public copy and thumbnail, once processed.
  await expect
    .poll(
      async () => {
        const items = await f.must<{ id: number; thumbnailUrl: string | null }[]>(
          { endpoint: "GET /api/gallery?…", method: "GET", url: "/api/gallery?limit=100", ctx: "anon" },
          200,
        );
        return items.find((item) => item.id === publicId)?.thumbnailUrl ?? null;
      },
      { timeout: 15_000, interval: 250 },
    )
    .not.toBeNull();

  const everyUpload = await f.must<AdminUpload[]>(
    { endpoint: "GET /api/admin/pending-uploads", method: "GET", url: "/api/admin/pending-uploads", ctx: "admin" },
    200,
  );
  const approved = await f.must<AdminUpload[]>(
    { endpoint: "GET /api/gallery?…", method: "GET", url: "/api/gallery?limit=100", ctx: "anon" },
    200,
  );
  const basename = (url: string | null) => (url ? url.split("/").pop()! : null);
  const uploads = [...everyUpload, ...approved.filter((a) => a.id === publicId)].map((u) => ({
    id: u.id,
    files: [u.url, u.thumbnailUrl, u.originalUrl].map(basename).filter((name): name is string => !!name),
  }));
  return {
    moderatable: [seeded("moderate-a.png"), seeded("moderate-b.png")],
    rotatable: [seeded("rotate.jpg"), seeded("rotate.heic"), seeded("rotate.mp4")],
    approvedUploadId: publicId,
    uploads,
  };
}

export interface MultipartUpload {
  key: string;
  uploadId: string;
}

/** A multipart upload started as the upload dialog starts one for a long video. */
export const startMultipart = (f: FuzzTarget) =>
  f.must<MultipartUpload>(
    {
      endpoint: "POST /api/uploads/s3/multipart",
      method: "POST",
      url: "/api/uploads/s3/multipart",
      ctx: "anon",
      ...json({ filename: "long-video.mp4", type: "video/mp4" }),
    },
    201,
  );

export interface DirectUploads {
  /** Signed, never sent. */
  signedNoFile: string;
  /** Signed, for the PUT fuzz. */
  putTarget: string;
  /** Sent and completed (with a name full of tricks). */
  completedUrl: string;
  /** Two multipart uploads; A has one part sent, B is aborted after the fuzz. */
  multipartA: MultipartUpload;
  multipartB: MultipartUpload;
}

/** A direct upload, completed, two signed addresses, and two multipart uploads. */
export async function seedDirectUploads(f: FuzzTarget, png: Buffer): Promise<DirectUploads> {
  const sign = async (filename: string) =>
    (
      await f.must<{ uploadURL: string }>(
        { endpoint: "POST /api/uploads/sign", method: "POST", url: "/api/uploads/sign", ctx: "anon", ...json({ filename }) },
        200,
      )
    ).uploadURL;
  const completedUrl = await sign("done.png");
  await f.must(
    {
      endpoint: "PUT /api/uploads/put/{key}",
      method: "PUT",
      url: pathAndQuery(completedUrl),
      ctx: "anon",
      headers: { "Content-Type": "image/png" },
      body: png,
    },
    200,
  );
  await f.must(
    {
      endpoint: "POST /api/uploads/complete",
      method: "POST",
      url: "/api/uploads/complete",
      ctx: "anon",
      ...json({
        uploadURL: completedUrl,
        submittedBy: "Fuzz Seed (seed@example.com)",
        type: "IMAGE",
        originalName: "名前 \u202Eevil\u0000.png 😀 \ud800",
        width: 1,
        height: 1,
      }),
    },
    201,
  );
  const signedNoFile = await sign("never-sent.jpg");
  const putTarget = await sign("put-target.png");
  const multipartA = await startMultipart(f);
  const multipartB = await startMultipart(f);
  const part = await f.must<{ url: string }>(
    {
      endpoint: "GET /api/uploads/s3/multipart/{uploadId}/{partNumber}",
      method: "GET",
      url: `/api/uploads/s3/multipart/${multipartA.uploadId}/1?key=${encodeURIComponent(multipartA.key)}`,
      ctx: "anon",
    },
    200,
  );
  await f.must(
    { endpoint: "PUT /api/uploads/put/{key}", method: "PUT", url: pathAndQuery(part.url), ctx: "anon", body: Buffer.alloc(1024, 7) },
    200,
  );
  return { signedNoFile, putTarget, completedUrl, multipartA, multipartB };
}
