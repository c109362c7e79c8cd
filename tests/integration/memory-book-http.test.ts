// The memory book against the production server (`node server/index.mjs` on
// the build): a download the family gives up on (a closed tab) leaves no
// book in the temporary folder and no file open.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCookieFor, childCommandLines, request, requireBuild, scratchDir, startSite, type Site } from "../support/site-process";

const ADMIN = { username: "keeper", password: "a-long-enough-password" };
const PHOTOS = 40;
let site: Site;
let dir: string;
let temp: string;
let cookie: string;

beforeAll(async () => {
  requireBuild();
  dir = scratchDir();
  temp = path.join(dir, "os-tmp");
  mkdirSync(temp);
  // A book left by a server that crashed (its process is gone), and one of a server still running, made just now.
  mkdirSync(path.join(temp, "memory-book-999999999-left"));
  writeFileSync(path.join(temp, "memory-book-999999999-left", "book.pdf"), Buffer.alloc(1024 * 1024));
  mkdirSync(path.join(temp, `memory-book-${process.pid}-busy`));
  site = await startSite(dir, { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, TMPDIR: temp });
  cookie = await adminCookieFor(site, ADMIN);

  // Published photos of about a megabyte each (noise, as a real photo's detail), and memories.
  const objects = path.join(dir, "uploads", "objects", "originals");
  mkdirSync(objects, { recursive: true });
  const sample = path.join(dir, "sample.jpg");
  const [width, height] = [1600, 1200];
  await sharp(
    Buffer.alloc(width * height * 3).map(() => Math.floor(Math.random() * 256)),
    { raw: { width, height, channels: 3 } },
  )
    .jpeg({ quality: 85 })
    .toFile(sample);
  const sqlite = new Database(path.join(dir, "memorial.db"));
  sqlite.pragma("busy_timeout = 5000");
  const addPhoto = sqlite.prepare(
    "INSERT INTO uploads (submittedBy, type, url, status, storageKey, mimeType, width, height, processedAt) VALUES (?, 'IMAGE', '', 'APPROVED', ?, 'image/jpeg', ?, ?, ?)",
  );
  const addMemory = sqlite.prepare("INSERT INTO memories (name, email, message, status) VALUES (?, ?, ?, 'APPROVED')");
  for (let i = 0; i < PHOTOS; i++) {
    const key = `originals/photo${String(i).padStart(18, "0")}a`;
    copyFileSync(sample, path.join(dir, "uploads", "objects", key));
    addPhoto.run(`Sender ${i} (s${i}@example.com)`, key, width, height, Date.now());
    addMemory.run(`Friend ${i}`, `f${i}@example.com`, `A memory of a summer by the lake, number ${i}.`);
  }
  sqlite.close();
}, 120_000);

afterAll(async () => {
  if (process.env.SHOW_SERVER_OUTPUT) console.log(site?.output());
  await site?.stop();
});

const books = () => readdirSync(temp).filter((name) => name.startsWith("memory-book-"));
const openFiles = () => readdirSync(`/proc/${site.child.pid}/fd`).length;

async function progress(): Promise<{ done: number; total: number } | null> {
  const answer = await request(site.port, "GET", "/admin/exports/book.json", { headers: { Cookie: cookie } });
  return (JSON.parse(answer.body) as { making: { done: number; total: number } | null }).making;
}

/** Asks for the book; `until` says when the family closes the tab. Resolves with the bytes received by then (or all of them). */
function download(until: "never" | "building" | "first bytes" | "waiting"): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = 0;
    const req = http.get(
      { host: "127.0.0.1", port: site.port, path: "/admin/exports/book.pdf?size=a4", headers: { Cookie: cookie }, agent: false },
      (res) => {
        expect(res.statusCode).toBe(200);
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (until === "first bytes") {
            req.destroy();
            resolve(received);
          }
        });
        res.on("end", () => resolve(received));
        res.on("error", () => resolve(received));
      },
    );
    req.on("error", (error) => (req.destroyed ? resolve(received) : reject(error)));
    if (until === "building") {
      // Closed once the book is a few photos in.
      void (async () => {
        await expect.poll(async () => (await progress())?.done ?? 0, { timeout: 60_000, interval: 50 }).toBeGreaterThan(PHOTOS + 2);
        req.destroy();
        resolve(received);
      })().catch(reject);
    }
    if (until === "waiting") {
      setImmediate(() => {
        req.destroy();
        resolve(received);
      });
    }
  });
}

describe("books left in the temporary folder", () => {
  it("are removed at start when the server that made them is gone, and kept while it runs", async () => {
    await expect.poll(books, { timeout: 15_000 }).toEqual([`memory-book-${process.pid}-busy`]);
    rmSync(path.join(temp, `memory-book-${process.pid}-busy`), { recursive: true });
  });
});

describe("a memory book download given up on", () => {
  let level: number;

  it("is made whole when nobody gives up", async () => {
    // A whole book first: the libraries and fonts are loaded, and the level of open files is measured after it.
    expect(await download("never")).toBeGreaterThan(PHOTOS * 100_000);
    await expect.poll(books, { timeout: 10_000 }).toEqual([]);
    level = openFiles();
  }, 180_000);

  it("while the book is being made leaves no book in the temporary folder and no file open", async () => {
    await download("building");
    await expect.poll(books, { timeout: 30_000 }).toEqual([]);
    await expect.poll(openFiles, { timeout: 30_000 }).toBeLessThanOrEqual(level);
    expect(await progress()).toBeNull();
  }, 120_000);

  it("once the book has begun to arrive leaves no book and no file open", async () => {
    await download("first bytes");
    await expect.poll(books, { timeout: 30_000 }).toEqual([]);
    await expect.poll(openFiles, { timeout: 30_000 }).toBeLessThanOrEqual(level);
  }, 120_000);

  it("while it waits behind another book leaves nothing either, and the other book still arrives whole", async () => {
    const whole = download("never");
    await expect.poll(async () => (await progress())?.done ?? 0, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    await download("waiting");
    expect(await whole).toBeGreaterThan(PHOTOS * 100_000);
    await expect.poll(books, { timeout: 30_000 }).toEqual([]);
    await expect.poll(openFiles, { timeout: 30_000 }).toBeLessThanOrEqual(level);
  }, 180_000);
});

/** The server's child processes making a book, with their nice values (Linux's /proc/<pid>/stat, field 19). */
function bookProcesses(): { pid: number; nice: number }[] {
  return childCommandLines(site.pid).flatMap(({ pid, commandLine }) => {
    if (!commandLine.includes("memory-book-process")) return [];
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return [{ pid, nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) }];
    } catch {
      return [];
    }
  });
}

describe("while a memory book is made", () => {
  it("visitors go first: the book is made at the lowest priority apart from the server, and the guest book answers meanwhile", async () => {
    let arrived = false;
    const whole = download("never").then((bytes) => {
      arrived = true;
      return bytes;
    });
    await expect.poll(async () => (await progress())?.done ?? 0, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    expect(bookProcesses()).toEqual([{ pid: expect.any(Number), nice: 19 }]);
    const guestbook = await request(site.port, "GET", "/guestbook");
    expect(guestbook.status).toBe(200);
    expect(arrived).toBe(false);
    expect(await whole).toBeGreaterThan(PHOTOS * 100_000);
    // The process is gone with its book, and its memory with it.
    expect(bookProcesses()).toEqual([]);
  }, 120_000);

  it("the Exports tab says about how long the book takes, for how many memories and photos", async () => {
    const page = await request(site.port, "GET", "/admin/exports", { headers: { Cookie: cookie } });
    expect(page.body).toMatch(/(Less than a minute|About \d+ minutes?) for 40 memories and 40 photos\./);
  });
});
