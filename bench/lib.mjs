// Shared helpers for the bench scripts: start the production build on a
// scratch database and storage folder (scripts/site-process.mjs), and stop it again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { startSite as startSiteProcess } from "../scripts/site-process.mjs";

/**
 * The production build on a scratch folder, or on `dir` (another server's database, left in place at stop).
 * `nodeArgs` go to node before the server's file (`--cpu-prof` to see where its time goes).
 */
/** The allocator settings the Dockerfile gives the container, for benches that imitate it. */
export const CONTAINER_ALLOCATOR = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072", MALLOC_TRIM_THRESHOLD_: "131072" };

export async function startSite({
  port = 3390,
  env = {},
  dir: shared = undefined,
  nodeArgs = /** @type {string[]} */ ([]),
  startScript = false,
} = {}) {
  const dir = shared ?? mkdtempSync(path.join(tmpdir(), "memorial-bench-"));
  const site = await startSiteProcess({
    dir,
    port,
    env: { SESSION_SECRET: "bench-secret", ...env },
    nodeArgs,
    capture: false,
    startScript,
  });
  return {
    origin: site.origin,
    dir,
    pid: site.pid,
    async stop() {
      await site.stop("SIGTERM");
      if (!shared) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Logs `admin` ({ username, password }) in through the JSON API and returns
 * the session's Cookie header for the requests that follow.
 * @param {string} origin
 * @param {{ username: string; password: string }} admin
 */
export async function adminCookie(origin, admin) {
  const login = await fetch(`${origin}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(admin),
  });
  if (!login.ok) throw new Error(`admin login answered ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * Fills a started site's database with a crowd's worth of approved content:
 * `memories` memories one minute apart and `uploads` uploads (every tenth a
 * video), newest last, as the bench pages measure them, then `pending`
 * memories waiting for the family, newer than all of them.
 * @param {string} dir the site's folder (startSite's `dir`)
 * @param {{ memories: number; uploads: number; pending?: number }} counts
 * @returns {number[]} the pending memories' ids, oldest first
 */
export function seedCrowd(dir, { memories, uploads, pending = 0 }) {
  const sqlite = new Database(path.join(dir, "memorial.db"));
  sqlite.pragma("busy_timeout = 5000");
  const start = Date.now() - (memories + pending) * 60_000;
  const addMemory = sqlite.prepare("insert into memories (name, email, message, status, canDisplay, createdAt) values (?, ?, ?, ?, 1, ?)");
  /** The pending memories' ids, oldest first (each newer than every approved one). */
  /** @type {number[]} */
  const waiting = [];
  const addUpload = sqlite.prepare(
    `insert into uploads (submittedBy, type, originalName, url, thumbnailUrl, width, height, durationSec, status, createdAt, storageKey, mimeType, displayKey, thumbnailKey, processedAt, webVideo)
     values (?, ?, ?, ?, ?, 1600, 1200, ?, 'APPROVED', ?, ?, ?, ?, ?, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (let i = 0; i < memories; i++) {
      addMemory.run(
        `Guest ${i}`,
        `guest${i}@example.com`,
        `A memory number ${i}, with a few words of love.\nAnd a second line.`,
        "APPROVED",
        start + i * 60_000,
      );
    }
    for (let i = 1; i <= pending; i++) {
      const { lastInsertRowid } = addMemory.run(
        `Late guest ${i}`,
        `late${i}@example.com`,
        `Bench write #${i}, waiting for the family.`,
        "PENDING",
        start + (memories + i) * 60_000,
      );
      waiting.push(Number(lastInsertRowid));
    }
    for (let i = 1; i <= uploads; i++) {
      const video = i % 10 === 0;
      addUpload.run(
        `Guest ${i} (guest${i}@example.com)`,
        video ? "VIDEO" : "IMAGE",
        video ? `clip-${i}.mp4` : `photo-${i}.jpg`,
        `/media/${i}/display-${i}.${video ? "mp4" : "jpg"}`,
        `/media/${i}/thumb-${i}-thumb.jpg`,
        video ? 75 : null,
        start + i * 60_000,
        `originals/bench${String(i).padStart(17, "0")}`,
        video ? "video/mp4" : "image/jpeg",
        // Finished as processing leaves them (a photo's web copies in widths up to 1600, a
        // video's web copy made), so a server's restart or first answer never takes them up again.
        video ? `media/${i}/display-${i}.mp4` : `media/${i}/display-${i}-1600w.jpg`,
        `media/${i}/thumb-${i}-thumb.jpg`,
        Date.now(),
        video ? "encoded" : null,
      );
    }
  })();
  sqlite.close();
  return waiting;
}
