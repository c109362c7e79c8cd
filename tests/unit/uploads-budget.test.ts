// The storage budget of uploads, configured small for this file: 5 MiB may
// wait for review, one network may send 3 MiB a day, and the disk keeps
// 16 MiB free (checked on a 20 MiB tmpfs).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signedUploads, uploads } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { DiskStorage } from "~/media/disk-storage.server";
import { getMediaStorage, useMediaStorage } from "~/media/media-storage.server";
import { cleanupAbandonedUploads, resetUploadLimits } from "~/uploads/upload-intake.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { action as shareAction } from "~/routes/share";
import { complete, ORIGIN, put, routeArgs, settle, sign, signFrom, signPart, startMultipart } from "../support/upload-requests";

vi.hoisted(() => {
  process.env.PENDING_UPLOAD_BYTES = String(5 * 1024 * 1024);
  process.env.UPLOAD_BYTES_PER_DAY = String(3 * 1024 * 1024);
  process.env.MIN_FREE_DISK_BYTES = String(16 * 1024 * 1024);
});

const MiB = 1024 * 1024;
const STORAGE_FULL =
  "The memorial's storage is full right now, so this file can't be accepted. The family has been told; please try again later.";
const WHO = "Aunt May (may@example.com)";

let smallPhoto: Buffer;
/** A real JPEG padded to `size` bytes (decoders stop at its end marker). */
async function photoOf(size: number) {
  smallPhoto ??= await sharp({ create: { width: 64, height: 48, channels: 3, background: "#aa5533" } })
    .jpeg()
    .toBuffer();
  return Buffer.concat([smallPhoto, Buffer.alloc(size - smallPhoto.length)]);
}

beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
  resetUploadLimits();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Signs from `clientIp` and sends `size` bytes of photo from there. */
async function upload(clientIp: string, size: number) {
  const uploadURL = await sign(clientIp);
  return { uploadURL, response: await put(uploadURL, await photoOf(size), { clientIp }) };
}

async function errorsOf(response: Response) {
  return ((await response.json()) as { errors: Record<string, string[]> }).errors;
}

describe("bytes waiting for review have a budget", () => {
  it("refuses signing and sending with 507 once it is reached, and frees it when uploads are published or deleted", async () => {
    const first = await upload("198.51.100.1", 2 * MiB);
    expect(first.response.status).toBe(200);
    const done = await complete({ uploadURL: first.uploadURL, submittedBy: WHO });
    expect(done.status).toBe(201);
    const firstId = ((await done.json()) as { id: number }).id;
    // Sent but not completed yet: counted too.
    const second = await upload("198.51.100.2", 2 * MiB);
    expect(second.response.status).toBe(200);

    const third = await upload("198.51.100.3", 2 * MiB);
    expect(third.response.status).toBe(507);
    expect(await errorsOf(third.response)).toEqual({ file: [STORAGE_FULL] });
    // A browser that says how large its file is hears it before sending it.
    const told = await signFrom("198.51.100.3", { filename: "big.jpg", size: 2 * MiB });
    expect(told.status).toBe(507);
    expect(await errorsOf(told)).toEqual({ file: [STORAGE_FULL] });

    await processingIdle();
    await setUploadStatus(firstId, "APPROVED", operator());
    expect((await put(third.uploadURL, await photoOf(2 * MiB), { clientIp: "198.51.100.3" })).status).toBe(200);
    expect((await upload("198.51.100.4", 1.5 * MiB)).response.status).toBe(507);

    const secondDone = await complete({ uploadURL: second.uploadURL, submittedBy: WHO });
    await processingIdle();
    await setUploadStatus(((await secondDone.json()) as { id: number }).id, "REJECTED", operator());
    expect((await upload("198.51.100.4", 1.5 * MiB)).response.status).toBe(200);
  });

  it("stops counting a file sent and never completed after two hours, when it is cleaned up", async () => {
    expect((await upload("198.51.100.20", 2 * MiB)).response.status).toBe(200);
    expect((await upload("198.51.100.21", 2 * MiB)).response.status).toBe(200);
    expect((await upload("198.51.100.22", 2 * MiB)).response.status).toBe(507);
    expect(await cleanupAbandonedUploads(Date.now() + 60 * 60 * 1000)).toBe(0);
    expect(await cleanupAbandonedUploads(Date.now() + 2 * 60 * 60 * 1000 + 60_000)).toBe(3);
    expect((await upload("198.51.100.22", 2 * MiB)).response.status).toBe(200);
  });

  it("counts the parts of a multipart upload as they arrive", async () => {
    const { uploadId, key } = (await (await startMultipart("198.51.100.8")).json()) as { uploadId: string; key: string };
    for (const [index, clientIp] of ["198.51.100.8", "198.51.100.9"].entries()) {
      const url = await signPart(uploadId, key, index + 1);
      expect((await put(url, await photoOf(2 * MiB), { clientIp })).status).toBe(200);
    }
    expect((await upload("198.51.100.10", 2 * MiB)).response.status).toBe(507);
  });

  it("refuses a body without a Content-Length with 411 instead of guessing its size", async () => {
    const uploadURL = await sign();
    const response = await put(uploadURL, await photoOf(MiB), { length: null });
    expect(response.status).toBe(411);
    expect(Object.keys(await errorsOf(response))).toEqual(["file"]);
  });
});

describe("one network's bytes per day", () => {
  it("refuses a network past 3 MiB in a day with 429 and Retry-After, counting an IPv6 /64 as one network", async () => {
    expect((await upload("2001:db8:1:2::5", 2 * MiB)).response.status).toBe(200);
    const refused = await upload("2001:db8:1:2:ffff::9", 2 * MiB);
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get("Retry-After"))).toBeGreaterThan(23 * 60 * 60);
    expect((await errorsOf(refused.response)).file?.[0]).toMatch(
      /^So much has been uploaded from your network today .* Please try again in about \d+ hours\.$/,
    );
    expect((await upload("2001:db8:1:3::1", 2 * MiB)).response.status).toBe(200);

    // A day later the network may send again (the abandoned uploads are cleaned up by then too).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000 + 60_000);
    await cleanupAbandonedUploads();
    expect((await upload("2001:db8:1:2::77", 2 * MiB)).response.status).toBe(200);
  });

  it("counts bytes still arriving, so parallel uploads cannot pass the budget together", async () => {
    const urls = await Promise.all([sign("203.0.113.5"), sign("203.0.113.5")]);
    const answers = await Promise.all(urls.map(async (url) => put(url, await photoOf(2 * MiB), { clientIp: "203.0.113.5" })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429]);
  });
});

describe("the plain share form", () => {
  async function shareForm(files: Buffer[], options: { clientIp?: string; length?: string | null; name?: string } = {}) {
    const form = new FormData();
    form.set("name", options.name ?? "Cousin Ruth");
    form.set("email", "ruth@example.com");
    for (const [index, file] of files.entries())
      form.append("files", new Blob([new Uint8Array(file)], { type: "image/jpeg" }), `photo-${index}.jpg`);
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const headers: Record<string, string> = { "Content-Type": encoded.headers.get("Content-Type")! };
    const length = options.length === undefined ? String(body.length) : options.length;
    if (length !== null) headers["Content-Length"] = length;
    const request = new Request(`${ORIGIN}/share`, { method: "POST", headers, body });
    const response = await settle(shareAction(routeArgs(request, {}, options.clientIp)));
    return { response, result: response.status === 302 ? null : ((await response.json()) as { errors: string[] }) };
  }

  it("shows the refusals as sentences: storage full (507), too much at once (413), no length (411), too long a name (413)", async () => {
    expect((await shareForm([await photoOf(MiB)], { clientIp: "192.0.2.1" })).response.status).toBe(302);
    expect((await upload("192.0.2.2", 2 * MiB)).response.status).toBe(200);
    expect((await upload("192.0.2.3", MiB)).response.status).toBe(200);

    const full = await shareForm([await photoOf(2 * MiB)], { clientIp: "192.0.2.4" });
    expect(full.response.status).toBe(507);
    expect(full.result?.errors).toEqual([
      "The memorial's storage is full right now, so your files can't be accepted. The family has been told; please try again later.",
    ]);

    const tooMuch = await shareForm([await photoOf(3 * MiB), await photoOf(3 * MiB)], { clientIp: "192.0.2.5" });
    expect(tooMuch.response.status).toBe(413);
    expect(tooMuch.result?.errors).toEqual([
      "These files together are more than the memorial can take at once. Please send fewer files at a time.",
    ]);

    const unsized = await shareForm([await photoOf(1000)], { length: null });
    expect(unsized.response.status).toBe(411);
    const huge = await shareForm([await photoOf(1000)], { length: String(11 * 1024 * 1024 * 1024) });
    expect(huge.response.status).toBe(413);
    expect(huge.result?.errors[0]).toContain("10 files of at most 1 GB each");

    const longName = await shareForm([await photoOf(1000)], { name: "x".repeat(5000) });
    expect(longName.response.status).toBe(413);
    expect(longName.result?.errors).toEqual(["The name or email is longer than this form accepts. Please shorten it and try again."]);
    expect(
      db
        .select()
        .from(signedUploads)
        .all()
        .map((row) => row.bytes),
    ).toEqual([2 * MiB, MiB]);
  });
});

describe("the upload API asks for the name and email the share form asks for", () => {
  it("refuses a completion without them with the spec's words", async () => {
    const uploadURL = await sign();
    await put(uploadURL, await photoOf(1000));
    for (const submittedBy of [undefined, "", "   ", "Ann", "Ann ()", "(ann@example.com)"]) {
      const response = await complete({ uploadURL, submittedBy });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ errors: { submittedBy: ["Name and email are required"] } });
    }
    expect((await complete({ uploadURL, submittedBy: "Ann (ann@example.com)" })).status).toBe(201);
  });
});

/** A 20 MiB tmpfs, so the free space is small and real; null where mounting is not permitted. */
function mountSmallDisk(): string | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), "memorial-small-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=20m", "tmpfs", dir], { stdio: "ignore" });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

const smallDisk = mountSmallDisk();

/** Bytes free on the disk at `dir`, as the storage reads them. */
async function freeSpace(dir: string) {
  const stats = await fs.statfs(dir);
  return stats.bavail * stats.bsize;
}

describe.skipIf(!smallDisk)("the free-space floor (a 20 MiB tmpfs keeping 16 MiB free; skipped where mount is not permitted)", () => {
  const original = getMediaStorage();
  afterAll(() => {
    useMediaStorage(original);
    execFileSync("umount", [smallDisk!]);
    rmSync(smallDisk!, { recursive: true, force: true });
  });

  it("refuses bytes that would leave less than the floor free, and signing once the disk is below it, with 507", async () => {
    useMediaStorage(new DiskStorage(smallDisk!, config.sessionSecrets));
    expect((await upload("192.0.2.10", 3 * MiB)).response.status).toBe(200);
    const refused = await upload("192.0.2.11", 2 * MiB);
    expect(refused.response.status).toBe(507);
    expect(await errorsOf(refused.response)).toEqual({ file: [STORAGE_FULL] });
    expect(await fs.readdir(path.join(smallDisk!, "tmp"))).toEqual([]);

    // Something else (the database, say) takes the disk below the floor: nothing more is signed.
    expect((await signFrom("192.0.2.12")).status).toBe(200);
    const freeBefore = await freeSpace(smallDisk!);
    await fs.writeFile(path.join(smallDisk!, "other-use"), Buffer.alloc(2 * MiB));
    const signing = await signFrom("192.0.2.12");
    expect(signing.status).toBe(507);
    expect(await errorsOf(signing)).toEqual({ file: [STORAGE_FULL] });
    await fs.rm(path.join(smallDisk!, "other-use"));
    // The space comes back once nothing holds the file open: a process another
    // test file's thread forks at that moment holds it until its exec.
    await expect.poll(() => freeSpace(smallDisk!)).toBeGreaterThanOrEqual(freeBefore);
    expect((await signFrom("192.0.2.12")).status).toBe(200);
  });
});
