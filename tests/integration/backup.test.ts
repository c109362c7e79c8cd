// `npm run backup -- <dir>` (scripts/backup.mjs), run as a child process
// against this file's live database and storage folder, then restored the way
// a site would use it.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "../../db/client.server";
import { memories, poems, rsvps, uploads } from "../../db/schema";
import { db } from "~/platform/db.server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCRIPT = path.join(ROOT, "scripts/backup.mjs");
const DATABASE_PATH = process.env.DATABASE_PATH!;
const STORAGE_DIR = process.env.STORAGE_DIR!;

let work: string;
const opened: DB[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node scripts/backup.mjs ...args` from the project folder, as `npm run backup` would. */
function runBackup(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH, STORAGE_DIR, ...extraEnv };
  if (!("BUCKET_NAME" in extraEnv)) delete env.BUCKET_NAME;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file under `dir`, as sorted paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const original = randomBytes(256 * 1024);
const thumbnail = randomBytes(3000);
const MEDIA = { "originals/abc.jpg": original, "media/1/x-thumb.jpg": thumbnail };

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-backup-test-"));
  for (const [key, bytes] of Object.entries(MEDIA)) {
    const file = path.join(STORAGE_DIR, "objects", key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, bytes);
  }
  // Bytes still in flight, which a backup must leave alone.
  await fs.mkdir(path.join(STORAGE_DIR, "tmp"), { recursive: true });
  await fs.writeFile(path.join(STORAGE_DIR, "tmp", "half-an-upload"), randomBytes(500));
  await fs.mkdir(path.join(STORAGE_DIR, "multipart", "upload1234"), { recursive: true });
  await fs.writeFile(path.join(STORAGE_DIR, "multipart", "upload1234", "1"), randomBytes(500));
});

afterAll(async () => {
  for (const restored of opened) restored.$client.close();
  await fs.rm(work, { recursive: true, force: true });
});

describe("npm run backup", () => {
  it("snapshots the live database and finished media, and the snapshot restores into a working site", async () => {
    // The site's own connection (WAL, migrated by the app's code) stays open throughout.
    db.insert(memories).values({ name: "Ada", email: "ada@example.com", message: "Committed before the backup" }).run();
    db.insert(poems).values({ title: "Do not stand at my grave", content: "I am a thousand winds that blow", author: "M. Frye" }).run();
    db.insert(rsvps).values({ name: "Ben", email: "ben@example.com", guestCount: 3, notes: "We will bring flowers" }).run();
    db.insert(uploads)
      .values({ type: "IMAGE", url: "/media/1/x.jpg", storageKey: "originals/abc.jpg", thumbnailKey: "media/1/x-thumb.jpg" })
      .run();
    // Those commits sit in the write-ahead log, not yet in the main file: a
    // plain copy of memorial.db would lose them.
    expect((await fs.stat(`${DATABASE_PATH}-wal`)).size).toBeGreaterThan(0);
    expect((await fs.readFile(DATABASE_PATH)).includes("Committed before the backup")).toBe(false);

    // A visitor's write is in progress (the write lock is held) while the backup runs.
    db.$client.exec("BEGIN IMMEDIATE");
    let backup: Run;
    try {
      db.insert(memories).values({ name: "Cleo", email: "cleo@example.com", message: "Still being written" }).run();
      backup = await runBackup([path.join(work, "snapshot")]);
    } finally {
      db.$client.exec("COMMIT");
    }
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain("integrity ok");
    expect(backup.stdout).toMatch(/1 memories, 1 uploads, 1 poems, 1 rsvps/);
    expect(backup.stdout).toMatch(/2 files/);
    // The site carried on: its write committed after the backup.
    expect(
      db
        .select()
        .from(memories)
        .all()
        .map((m) => m.name),
    ).toEqual(["Ada", "Cleo"]);

    const snapshot = path.join(work, "snapshot");
    expect((await fs.readdir(snapshot)).sort()).toEqual(["backup.json", "memorial.db", "uploads"]);
    expect(await filesUnder(path.join(snapshot, "uploads"))).toEqual(["objects/media/1/x-thumb.jpg", "objects/originals/abc.jpg"]);

    const manifest = JSON.parse(await fs.readFile(path.join(snapshot, "backup.json"), "utf8"));
    expect(Date.now() - Date.parse(manifest.createdAt)).toBeLessThan(60_000);
    expect(manifest.source).toEqual({ databasePath: path.resolve(DATABASE_PATH), storageDir: path.resolve(STORAGE_DIR), bucket: null });
    expect(manifest.database.counts).toEqual({ memories: 1, uploads: 1, poems: 1, rsvps: 1 });
    expect(manifest.database.integrityCheck).toBe("ok");
    expect(manifest.media).toMatchObject({ storage: "disk", files: 2, bytes: original.length + thumbnail.length });

    // Restore: put the files where a fresh site expects them and open it with the app's code.
    const site = path.join(work, "restored-site");
    const restoredDbPath = path.join(site, "data", "memorial.db");
    const restoredStorage = path.join(site, "data", "uploads");
    await fs.mkdir(path.dirname(restoredDbPath), { recursive: true });
    await fs.copyFile(path.join(snapshot, "memorial.db"), restoredDbPath);
    await fs.cp(path.join(snapshot, "uploads"), restoredStorage, { recursive: true, preserveTimestamps: true });
    const restored = openDatabase(restoredDbPath);
    opened.push(restored);

    expect(restored.$client.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(restored.$client.pragma("journal_mode", { simple: true })).toBe("wal");
    const restoredMemories = restored.select().from(memories).all();
    expect(restoredMemories.map((m) => [m.name, m.email, m.message])).toEqual([["Ada", "ada@example.com", "Committed before the backup"]]);
    expect(restored.select().from(poems).all()).toMatchObject([
      { title: "Do not stand at my grave", content: "I am a thousand winds that blow", author: "M. Frye" },
    ]);
    expect(restored.select().from(rsvps).all()).toMatchObject([
      { name: "Ben", email: "ben@example.com", guestCount: 3, notes: "We will bring flowers" },
    ]);
    const upload = restored.select().from(uploads).where(eq(uploads.storageKey, "originals/abc.jpg")).get();
    expect(upload).toMatchObject({ type: "IMAGE", thumbnailKey: "media/1/x-thumb.jpg" });
    // The restored site keeps working: it takes a new memory.
    restored.insert(memories).values({ name: "Dee", email: "dee@example.com", message: "After the restore" }).run();
    expect(restored.select().from(memories).all()).toHaveLength(2);

    for (const [key, bytes] of Object.entries(MEDIA)) {
      expect((await fs.readFile(path.join(restoredStorage, "objects", key))).equals(bytes)).toBe(true);
      // The backup keeps modification times, so the media route's ETags stay the same.
      const [before, after] = await Promise.all([
        fs.stat(path.join(STORAGE_DIR, "objects", key)),
        fs.stat(path.join(snapshot, "uploads", "objects", key)),
      ]);
      expect(Math.floor(after.mtimeMs)).toBe(Math.floor(before.mtimeMs));
    }
    expect(existsSync(path.join(restoredStorage, "tmp"))).toBe(false);
    expect(existsSync(path.join(restoredStorage, "multipart"))).toBe(false);
  });

  it("with a bucket configured, copies only the database and says where the media is", async () => {
    const target = path.join(work, "bucket-snapshot");
    const result = await runBackup([target], { BUCKET_NAME: "memorial-media" });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('bucket "memorial-media"');
    expect(result.stdout).toContain("aws s3 sync");
    expect((await fs.readdir(target)).sort()).toEqual(["backup.json", "memorial.db"]);
    const manifest = JSON.parse(await fs.readFile(path.join(target, "backup.json"), "utf8"));
    expect(manifest.source).toMatchObject({ storageDir: null, bucket: "memorial-media" });
    expect(manifest.media).toMatchObject({ storage: "bucket", files: 0, bytes: 0 });
    expect(manifest.database.counts.memories).toBe(db.select().from(memories).all().length);
  });

  it("refuses a folder that already holds something, and changes nothing in it", async () => {
    const target = path.join(work, "not-empty");
    await fs.mkdir(target);
    await fs.writeFile(path.join(target, "memorial.db"), "an older backup");
    const result = await runBackup([target]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is not empty");
    expect(await filesUnder(target)).toEqual(["memorial.db"]);
    expect(await fs.readFile(path.join(target, "memorial.db"), "utf8")).toBe("an older backup");
  });

  it("without a folder prints how to use it and exits 2", async () => {
    const result = await runBackup([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run backup -- <dir>");
    expect(result.stdout).toBe("");
  });
});
