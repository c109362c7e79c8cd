// Video encodes against the production server (`node server/index.mjs` on
// the build), with real ffmpeg processes: an encode never outlives the
// server or the upload it is for, and one sender's long video does not hold
// another sender's short clip.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adminCookieFor,
  childCommandLines,
  hasEnded,
  manageSites,
  postJson,
  request,
  scratchDir,
  startSite,
  type Site,
} from "../support/site-process";

manageSites();

const ADMIN = { username: "keeper", password: "a-long-enough-password" };
let clips: string;

/** `seconds` of 1080p that weigh almost nothing (a flat colour, one key frame every 10 s), like the file that held the queue. */
function flatVideo(seconds: number, name: string) {
  const file = path.join(clips, name);
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `color=c=0x336699:s=1920x1080:r=30:d=${Math.min(seconds, 10)}`,
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-g",
    "300",
    "-pix_fmt",
    "yuv420p",
    file + ".part.mp4",
  ]);
  // Repeated without encoding again: four minutes cost the test a second.
  const loops = Math.max(Math.ceil(seconds / 10) - 1, 0);
  execFileSync("ffmpeg", ["-v", "error", "-y", "-stream_loop", String(loops), "-i", file + ".part.mp4", "-c", "copy", file]);
  return readFileSync(file);
}

beforeAll(() => {
  clips = scratchDir();
});

/** Shares `bytes` the way the upload dialog does: sign, PUT, complete. Returns the upload's id. */
async function share(site: Site, bytes: Buffer, submittedBy: string, originalName = "clip.mp4") {
  const signed = await postJson(site.port, "/api/uploads/sign", {});
  expect(signed.status).toBe(200);
  const { uploadURL } = JSON.parse(signed.body) as { uploadURL: string };
  const target = new URL(uploadURL);
  const put = await request(site.port, "PUT", target.pathname + target.search, { body: bytes, headers: { "Content-Type": "video/mp4" } });
  expect(put.status).toBeLessThan(300);
  const completed = await postJson(site.port, "/api/uploads/complete", { uploadURL, submittedBy, type: "VIDEO", originalName });
  expect(completed.status, completed.body).toBe(201);
  return (JSON.parse(completed.body) as { id: number }).id;
}

/** The server's ffmpeg processes making a web copy (x264), with their pids. */
function encodes(site: Site): number[] {
  return childCommandLines(site.pid)
    .filter((child) => child.commandLine.includes("libx264"))
    .map((child) => child.pid);
}

/** Waits for the web copy of a video to be under way, and returns its ffmpeg's pid. */
async function encodeUnderWay(site: Site) {
  await expect.poll(() => encodes(site).length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
  return encodes(site)[0]!;
}

describe("a video longer than the site takes", () => {
  it("is refused to its sender in words, as JSON", async () => {
    const site = await startSite(scratchDir());
    const signed = await postJson(site.port, "/api/uploads/sign", {});
    const { uploadURL } = JSON.parse(signed.body) as { uploadURL: string };
    const target = new URL(uploadURL);
    await request(site.port, "PUT", target.pathname + target.search, {
      body: flatVideo(31 * 60, "long.mp4"),
      headers: { "Content-Type": "video/mp4" },
    });
    const completed = await postJson(site.port, "/api/uploads/complete", {
      uploadURL,
      submittedBy: "Ann (ann@example.com)",
      type: "VIDEO",
      originalName: "long.mp4",
    });
    expect(completed.status).toBe(400);
    expect(JSON.parse(completed.body)).toEqual({
      errors: {
        file: [
          "The video is 31 minutes long, and videos up to 30 minutes can be shared; a shorter version, or the video in parts, can be shared instead.",
        ],
      },
    });
  }, 60_000);
});

describe("a video being prepared", () => {
  let long: Buffer;
  beforeAll(() => {
    long = flatVideo(240, "four-minutes.mp4");
  }, 60_000);

  it("stops with the server: a clean stop (SIGTERM) leaves no ffmpeg running", async () => {
    const site = await startSite(scratchDir());
    await share(site, long, "Ann (ann@example.com)");
    const ffmpeg = await encodeUnderWay(site);
    site.child.kill("SIGTERM");
    expect(await site.exited).toEqual({ code: 0, signal: null });
    await expect.poll(() => hasEnded(ffmpeg), { timeout: 5_000 }).toBe(true);
  }, 90_000);

  it("stops with the server: a server killed outright (SIGKILL) leaves no ffmpeg running", async () => {
    const site = await startSite(scratchDir());
    await share(site, long, "Ann (ann@example.com)");
    const ffmpeg = await encodeUnderWay(site);
    site.child.kill("SIGKILL");
    await site.exited;
    await expect.poll(() => hasEnded(ffmpeg), { timeout: 5_000 }).toBe(true);
  }, 90_000);

  it("stops when the family deletes the upload, or rejects it", async () => {
    const site = await startSite(scratchDir(), { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
    const cookie = await adminCookieFor(site, ADMIN);

    const deleted = await share(site, long, "Ann (ann@example.com)");
    const first = await encodeUnderWay(site);
    const answer = await request(site.port, "DELETE", `/api/admin/uploads/${deleted}`, { headers: { Cookie: cookie } });
    expect(answer.status).toBe(204);
    await expect.poll(() => hasEnded(first), { timeout: 5_000 }).toBe(true);

    const rejected = await share(site, long, "Bo (bo@example.com)");
    const second = await encodeUnderWay(site);
    const patched = await request(site.port, "PATCH", `/api/admin/uploads/${rejected}`, {
      body: JSON.stringify({ status: "REJECTED" }),
      headers: { Cookie: cookie, "Content-Type": "application/json" },
    });
    expect(patched.status).toBe(200);
    await expect.poll(() => hasEnded(second), { timeout: 5_000 }).toBe(true);
    expect(encodes(site)).toEqual([]);
  }, 120_000);
});

function webVideoOf(dir: string, id: number) {
  const sqlite = new Database(path.join(dir, "memorial.db"), { readonly: true, fileMustExist: true });
  try {
    return sqlite.prepare("SELECT webVideo, durationSec, processingError FROM uploads WHERE id = ?").get(id) as
      { webVideo: string | null; durationSec: number | null; processingError: string | null } | undefined;
  } finally {
    sqlite.close();
  }
}

// Long enough for ten segments of 9 s (1080p): other work fits between two,
// and a restart after the second leaves eight to go on with. (Four minutes
// made the same points in 27 segments, at two and a half times the encoding.)
const LONG_SECONDS = 90;

// The clips are H.264 at 1920 × 1080: they play everywhere as they are, so their web copy is a
// lighter one, recorded as "resized" (the archive then adds no "(web copy)" beside them).
describe("one sender's long video", () => {
  it("does not hold another sender's short clip: the clip is ready first", async () => {
    const dir = scratchDir();
    const site = await startSite(dir);
    const long = await share(site, flatVideo(LONG_SECONDS, "ann-ninety-seconds.mp4"), "Ann (ann@example.com)");
    await encodeUnderWay(site);
    const short = await share(site, flatVideo(2, "bo-two-seconds.mp4"), "Bo (bo@example.com)");
    await expect.poll(() => webVideoOf(dir, short)?.webVideo, { timeout: 60_000, interval: 100 }).toBe("resized");
    expect(webVideoOf(dir, long)?.webVideo).toBeNull();
    // …and the long one is finished in its turn, whole.
    await expect.poll(() => webVideoOf(dir, long)?.webVideo, { timeout: 240_000, interval: 500 }).toBe("resized");
    expect(webVideoOf(dir, long)).toMatchObject({ durationSec: LONG_SECONDS, processingError: null });
  }, 300_000);
});

describe("a long video's web copy interrupted by a restart", () => {
  it("goes on from the segments already made", async () => {
    const dir = scratchDir();
    const site = await startSite(dir);
    const id = await share(site, flatVideo(LONG_SECONDS, "ann-ninety-seconds.mp4"), "Ann (ann@example.com)");
    const segments = path.join(dir, "uploads", "tmp", `web-video-${id}-segments`);
    const made = () => (existsSync(segments) ? readdirSync(segments).filter((name) => /^segment-\d+\.mp4$/.test(name)) : []);
    await expect.poll(() => made().length, { timeout: 60_000, interval: 100 }).toBeGreaterThan(1);
    site.child.kill("SIGTERM");
    expect(await site.exited).toEqual({ code: 0, signal: null });
    const kept = made();
    expect(kept.length).toBeGreaterThan(1);

    const again = await startSite(dir);
    // The first encode after the restart starts after the segments already made.
    const resumed = readFileSync(`/proc/${await encodeUnderWay(again)}/cmdline`, "utf8").split("\0");
    expect(Number(resumed[resumed.indexOf("-ss") + 1])).toBeGreaterThan(0);
    await expect.poll(() => webVideoOf(dir, id)?.webVideo, { timeout: 240_000, interval: 500 }).toBe("resized");
    expect(webVideoOf(dir, id)).toMatchObject({ durationSec: LONG_SECONDS, processingError: null });
    // The segments go with the finished copy (just after it is recorded, once the work folder is gone).
    await expect.poll(() => existsSync(segments), { timeout: 30_000 }).toBe(false);
    await again.stop();
  }, 300_000);
});
