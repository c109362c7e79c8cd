import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startLowPriority } from "~/media/run-tool.server";
import { listPoems } from "~/poems/poem.server";
import { getSiteView } from "~/site/settings.server";
import { formatDateTime, formatIsoDate } from "~/utils/time";
import { countMemories, countPublishedMedia, countPublishedVoices } from "./content.server";
import type { BookSize } from "./layout.server";
import { type BookOptions, type BookProgress, writeMemoryBook } from "./pdf.server";

// The memory book as the Exports tab makes it: one at a time, in a process
// of its own at the lowest priority, in a temporary folder swept when left.

/** "memory-book-2025-09-01-a4.pdf", the day in the family's time zone. */
export function bookFileName(size: BookSize, now = Date.now()) {
  return `memory-book-${formatIsoDate(now, getSiteView(now).timeZone)}-${size}.pdf`;
}

// One book at a time on the machine: a second asks waits for the first.
let queue: Promise<unknown> = Promise.resolve();
let progress: (BookProgress & { size: BookSize; startedAt: string }) | null = null;

/** How far the book being made has got, for the Exports tab's progress line; null when none is being made. */
export function bookProgress() {
  return progress;
}

/** The script that makes a book in a process of its own (server/memory-book-process.mjs); null: in this one. */
let bookProcessScript: string | null = null;

/**
 * Called by the Node server at start: from now on each book is made by
 * `script` in a child process at the lowest CPU priority (`nice -n 19`), so
 * on one shared CPU visitors' pages go first and the server's own memory
 * stays as it was (the child's is given back when it ends). Tests and
 * `remix dev` make books in process.
 */
export function makeBooksApart(script: string) {
  bookProcessScript = script;
}

/** Prefix of the child's progress lines on its stdout (anything else it prints is passed on to the log). */
export const BOOK_PROGRESS = "memory-book-progress ";

function writeMemoryBookApart(script: string, { onProgress, signal, ...options }: BookOptions) {
  return new Promise<void>((resolve, reject) => {
    const { child, kill } = startLowPriority(process.execPath, [script, JSON.stringify(options)]);
    const onAbort = () => kill();
    signal?.addEventListener("abort", onAbort, { once: true });
    let pending = "";
    let errors = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith(BOOK_PROGRESS)) onProgress?.(JSON.parse(line.slice(BOOK_PROGRESS.length)) as BookProgress);
        else if (line.trim()) console.log(line);
      }
    });
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => (errors = (errors + chunk).slice(-4000)));
    child.once("error", reject);
    child.once("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) return reject(signal.reason);
      if (code === 0) return resolve();
      reject(new Error(`The memory book's process ended with ${String(code)}: ${errors.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

/** How long the last book took per item placed, measured; null until one has been made since the server started. */
let lastPace: { secondsPerItem: number } | null = null;

/**
 * Per item when no book has been made since the server started: at a
 * shared CPU's baseline a book of 100 memories took 213 s, about 2 s a
 * memory, and a photo costs more (it is read and resized); at full speed
 * it is a tenth of that.
 */
const GUESSED_SECONDS = { memory: 2, photo: 4 };

/** What the next book would hold and about how long it would take to make, for the Exports tab. */
export function bookEstimate() {
  const memoriesCount = countMemories();
  const poems = listPoems().length;
  const photos = countPublishedMedia();
  const voices = countPublishedVoices();
  // A voice is a few lines and a QR code: it costs about what a memory does.
  const seconds = lastPace
    ? (memoriesCount + voices + poems + photos) * lastPace.secondsPerItem
    : (memoriesCount + voices + poems) * GUESSED_SECONDS.memory + photos * GUESSED_SECONDS.photo;
  return { memories: memoriesCount, voices, poems, photos, seconds: Math.round(seconds), measured: lastPace !== null };
}

/** The temporary folders of books this process is making or sending now. */
const liveFolders = new Set<string>();
/** A book's temporary folder names the process that made it: `memory-book-<pid>-<random>`. */
const FOLDER_PREFIX = "memory-book-";

/**
 * Makes the book in a temporary file, one at a time; the caller sends it and
 * calls `done` (as often as it likes). A book whose `signal` is aborted
 * while it waits its turn is never begun; one aborted while being made
 * stops, and its folder goes.
 */
export function makeMemoryBook(options: Omit<BookOptions, "file">): Promise<{ file: string; done: () => Promise<void> }> {
  const run = async () => {
    options.signal?.throwIfAborted();
    const dir = await fs.mkdtemp(path.join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
    liveFolders.add(dir);
    const remove = async () => {
      await fs.rm(dir, { recursive: true, force: true });
      liveFolders.delete(dir);
    };
    const file = path.join(dir, "book.pdf");
    const startedAt = formatDateTime(new Date(options.now ?? Date.now()), getSiteView().timeZone);
    progress = { size: options.size, done: 0, total: 0, startedAt };
    const began = Date.now();
    let placed = 0;
    const onProgress = (p: BookProgress) => {
      placed = p.done;
      progress = { size: options.size, startedAt, ...p };
      options.onProgress?.(p);
    };
    try {
      if (bookProcessScript) await writeMemoryBookApart(bookProcessScript, { ...options, file, onProgress });
      else await writeMemoryBook({ ...options, file, onProgress });
      if (placed > 0) lastPace = { secondsPerItem: (Date.now() - began) / 1000 / placed };
    } catch (error) {
      await remove();
      throw error;
    } finally {
      progress = null;
    }
    return { file, done: remove };
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

const STALE_AFTER_MS = 60 * 60 * 1000;

/**
 * Removes books left in the temporary folder: by this process and no longer
 * being sent, by a process that has ended (a crash, a restart), or older
 * than an hour. At start and hourly (app/server/background.server.ts). A file still
 * being read by a download is unaffected: the open file stays readable.
 */
export async function sweepStaleBooks(now = Date.now()) {
  const root = tmpdir();
  const names = await fs.readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const dir = path.join(root, name);
    if (liveFolders.has(dir)) continue;
    const pid = Number(/^memory-book-(\d+)-/.exec(name)?.[1]);
    const stat = await fs.stat(dir).catch(() => null);
    if (!stat) continue;
    const ours = pid === process.pid;
    const ownerAlive = !ours && Number.isInteger(pid) && pid > 0 && processAlive(pid);
    if (ownerAlive && now - stat.mtimeMs < STALE_AFTER_MS) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

function processAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
