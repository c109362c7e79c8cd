// "Download everything" against the production server (`node
// server/index.mjs` on the build), on this test process's database and
// storage: only for the family, named for the day, at the client's pace,
// stopping when the client leaves, and never taking the site down.
import { readdirSync, readlinkSync } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { uploads } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { upsertAdmin } from "~/admins/admin.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { get, postJson, request, requireBuild, residentBytes, startSite, type Site } from "../support/site-process";

const ADMIN = { username: "family", password: "archive-test-password" };
const ARCHIVE = "/admin/exports/archive.zip";
const OBJECTS = path.join(process.env.STORAGE_DIR!, "objects");

let site: Site;
let adminCookie: string;

beforeAll(async () => {
  requireBuild();
  await upsertAdmin(ADMIN.username, ADMIN.password);
  const bytes = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#557799" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: "garden.jpg" });
  const view = await registerFormUpload(key, { submittedBy: "Ann (ann@example.com)", originalName: "garden.jpg" });
  await processingIdle();
  await setUploadStatus(view.id, "APPROVED", operator());
  // The server shares this process's database and storage (tests/support/setup.ts).
  site = await startSite(path.dirname(process.env.DATABASE_PATH!));
  const login = await postJson(site.port, "/api/admin/login", ADMIN);
  expect(login.status).toBe(200);
  adminCookie = (login.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]).join("; ");
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

/** Files of the storage folder the server has open right now. */
function openStorageFiles() {
  const dir = `/proc/${site.pid}/fd`;
  return readdirSync(dir)
    .map((fd) => {
      try {
        return readlinkSync(path.join(dir, fd));
      } catch {
        return "";
      }
    })
    .filter((target) => target.startsWith(OBJECTS));
}

/** A "video" of `megabytes` random bytes, published, straight into the storage and database the server reads. */
async function addLargeVideo(name: string, megabytes: number) {
  const key = `originals/bench-${name}`;
  const chunks = (function* () {
    for (let i = 0; i < megabytes; i++) yield Buffer.alloc(1024 * 1024, i);
  })();
  const { size } = await getMediaStorage().write(key, Readable.from(chunks), {
    contentType: "video/mp4",
    maxBytes: Number.MAX_SAFE_INTEGER,
  });
  db.insert(uploads)
    .values({
      type: "VIDEO",
      status: "APPROVED",
      url: "",
      originalName: name,
      storageKey: key,
      mimeType: "video/mp4",
      sizeBytes: size,
      processedAt: new Date(),
    })
    .run();
  return key;
}

const unzipBuffer = (bytes: Buffer) =>
  new Promise<string[]>((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on("end", () => resolve(names));
      zip.on("error", reject);
      zip.readEntry();
    });
  });

/** GET the archive, keeping the raw bytes (binary, whatever arrives before an error). */
function download(): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port: site.port, path: ARCHIVE, agent: false, headers: { Cookie: adminCookie } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      const done = (complete: boolean) =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), complete });
      res.on("end", () => done(res.complete));
      res.on("aborted", () => done(false));
      res.on("error", () => done(false));
    });
    req.on("error", reject);
  });
}

describe("GET /admin/exports/archive.zip", () => {
  it("without the family's session goes to the login page, which comes back here", async () => {
    const answer = await request(site.port, "GET", ARCHIVE);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(`/admin/login?redirectTo=${encodeURIComponent(ARCHIVE)}`);
    expect(answer.body).not.toContain("PK");
  });

  it("is the Exports tab's Download everything: memorial-<today>.zip, made as it downloads", async () => {
    const tab = await request(site.port, "GET", "/admin/exports", { headers: { Cookie: adminCookie } });
    expect(tab.status).toBe(200);
    expect(tab.body).toMatch(/<a href="\/admin\/exports\/archive\.zip"[^>]*download[^>]*>Download everything<\/a>/);
    expect(tab.body).toContain("1 photo and 0 videos");

    const answer = await download();
    expect(answer.status).toBe(200);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date());
    expect(answer.headers).toMatchObject({
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="memorial-${today}.zip"`,
      "cache-control": "private, no-store, no-transform",
    });
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.complete).toBe(true);
    const names = await unzipBuffer(answer.body);
    expect(names).toContain("index.html");
    expect(names).toContain(`photos/${today}_Ann_garden.jpg`);
  });

  it("ends early when a file cannot be read (and says so in the log), and the site goes on", async () => {
    const key = await addLargeVideo("gone.mp4", 1);
    await fs.rm(path.join(OBJECTS, key));
    const answer = await download();
    expect(answer.status).toBe(200);
    expect(answer.complete).toBe(false);
    await expect(unzipBuffer(answer.body)).rejects.toThrow();
    expect(site.output()).toContain("the family's archive stopped");
    expect(await get(site.port, "/healthz")).toBe(200);
    db.delete(uploads).where(eq(uploads.storageKey, key)).run();
  });

  it("goes at the client's pace, and stops reading the disk when the client leaves", async () => {
    await addLargeVideo("long-film.mp4", 256);
    const before = residentBytes(site.pid);
    let growth = 0;
    const received = await new Promise<number>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port: site.port, path: ARCHIVE, agent: false, headers: { Cookie: adminCookie } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes < 8 * 1024 * 1024) return;
          // Well into the film: stop reading for a while, as a stalled phone would.
          res.pause();
          setTimeout(() => {
            growth = residentBytes(site.pid) - before;
            expect(openStorageFiles().some((file) => file.includes("bench-long-film"))).toBe(true);
            req.destroy();
            resolve(bytes);
          }, 1500);
        });
      });
      req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    });
    expect(received).toBeLessThan(256 * 1024 * 1024);
    // Without waiting for the client, the server would have read the whole film into memory by now.
    expect(growth).toBeLessThan(50 * 1024 * 1024);
    for (let tries = 0; openStorageFiles().length > 0 && tries < 50; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(openStorageFiles()).toEqual([]);
    expect(await get(site.port, "/healthz")).toBe(200);
  });
});
