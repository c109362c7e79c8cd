import { Readable } from "node:stream";
import { and, asc, count, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { memories, uploads, type MediaType, type Upload } from "../../db/schema";
import { db } from "~/platform/db.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { zipStream, type ZipEntry } from "~/media/zip.server";
import { safeFileName, safeNamePart, splitExtension, uniqueNames } from "~/utils/file-name";
import { archiveMediaName, senderName } from "./archive-names.server";
import { archivedVoices, voiceEntries } from "./archive-voices.server";
import { formatIsoDate } from "~/utils/time";
import { approvedMemoryRows, CONTACT_COLUMNS, contactRows, csvReadable, MEMORY_COLUMNS, RSVP_COLUMNS, rsvpRows } from "./csv.server";
import { keepsakePage, type KeepsakeLife, type KeepsakeMedia, type KeepsakeMemory } from "./keepsake-page.server";
import { getAdminLife } from "~/life/life.server";
import { storyBlocks } from "~/life/story-text";
import { formatPartialDate, lifeLine, parsePartialDate } from "~/site/life-dates";
import type { SiteSettings } from "~/site/settings.schema";
import { listPoems } from "~/poems/poem.server";
import { getSiteView } from "~/site/settings.server";
import { bookDate } from "./book/pdf.server";

// "Download everything": the family's copy of the memorial in one ZIP, written
// as it is sent so the server's memory does not grow with the gallery
// (docs/decisions/014-family-archive.md; what it holds: docs/family-guide.md).

const BATCH = 500;

/** "memorial-2025-09-01.zip", the day in the family's time zone. */
export function archiveFileName(now = Date.now()) {
  return `memorial-${formatIsoDate(now, getSiteView(now).timeZone)}.zip`;
}

/** What the archive holds of the gallery and the voices, for the Exports tab: how many photos, videos and voice memories, and their bytes. */
export function archiveContents(): { photos: number; videos: number; voices: number; bytes: number } {
  const rows = db
    .select({ type: uploads.type, n: count(), bytes: sql<number>`coalesce(sum(${uploads.sizeBytes}), 0)` })
    .from(uploads)
    .where(and(eq(uploads.status, "APPROVED"), isNotNull(uploads.storageKey)))
    .groupBy(uploads.type)
    .all();
  const of = (type: MediaType) => rows.find((row) => row.type === type)?.n ?? 0;
  return { photos: of("IMAGE"), videos: of("VIDEO"), voices: of("AUDIO"), bytes: rows.reduce((sum, row) => sum + Number(row.bytes), 0) };
}

interface ArchivedUpload {
  upload: Pick<Upload, "id" | "type" | "storageKey" | "thumbnailKey" | "createdAt">;
  /** `photos/…` or `videos/…`. */
  file: string;
  thumbnail: string | null;
  /** A video's web copy beside its original (`videos/… (web copy).mp4`) and its storage key, when the original may not play everywhere. */
  webCopy: { file: string; key: string } | null;
  media: KeepsakeMedia;
}

/**
 * The key of a video's web copy (H.264 + AAC MP4, docs/decisions/016-web-video.md)
 * worth adding beside its original: one re-encoded because the original does
 * not play in every browser (an iPhone's HEVC), or an older MP4 copy kept. A
 * remuxed copy is the original's own pictures, and a resized one a lighter
 * copy of an original that plays everywhere already: neither is added.
 */
function webCopyKey(upload: Pick<Upload, "type" | "storageKey" | "displayKey" | "webVideo">): string | null {
  if (upload.type !== "VIDEO" || (upload.webVideo !== "encoded" && upload.webVideo !== "kept")) return null;
  const key = upload.displayKey;
  return key && key !== upload.storageKey && key.toLowerCase().endsWith(".mp4") ? key : null;
}

/** The family's life story for the page (published or not: the archive is theirs), its photos as the folder's files. */
function keepsakeLife(site: SiteSettings, media: ArchivedUpload[]): KeepsakeLife | null {
  const life = getAdminLife();
  if (!life.story && life.moments.length === 0) return null;
  const files = new Map(media.map((item) => [item.upload.id, { file: item.file, thumbnail: item.thumbnail }]));
  return {
    line: lifeLine(site),
    blocks: storyBlocks(life.story),
    moments: life.moments.map((moment) => {
      const date = parsePartialDate(moment.date);
      return {
        date: date ? formatPartialDate(date) : moment.date,
        title: moment.title,
        text: moment.text,
        photo: moment.photoId === null ? null : (files.get(moment.photoId) ?? null),
      };
    }),
    unpublished: !life.published,
  };
}

/** Every published photo and video with its original, oldest first, with the names it gets in the archive. */
/** `longDate`: a day as the page writes it, in the family's main language. */
function archivedUploads(timeZone: string, longDate: (date: Date) => string): ArchivedUpload[] {
  const names = { IMAGE: uniqueNames(), VIDEO: uniqueNames() };
  const thumbnailNames = uniqueNames();
  const listed: ArchivedUpload[] = [];
  for (let lastId = 0; ;) {
    const batch = db
      .select({
        id: uploads.id,
        type: uploads.type,
        createdAt: uploads.createdAt,
        submittedBy: uploads.submittedBy,
        originalName: uploads.originalName,
        mimeType: uploads.mimeType,
        storageKey: uploads.storageKey,
        thumbnailKey: uploads.thumbnailKey,
        displayKey: uploads.displayKey,
        webVideo: uploads.webVideo,
      })
      .from(uploads)
      .where(
        and(
          eq(uploads.status, "APPROVED"),
          isNotNull(uploads.storageKey),
          inArray(uploads.type, ["IMAGE", "VIDEO"]),
          gt(uploads.id, lastId),
        ),
      )
      .orderBy(asc(uploads.id))
      .limit(BATCH)
      .all();
    for (const upload of batch) {
      const type = upload.type === "VIDEO" ? "VIDEO" : "IMAGE";
      const name = names[type](archiveMediaName(upload, timeZone));
      const file = `${upload.type === "VIDEO" ? "videos" : "photos"}/${name}`;
      const thumbnail = upload.thumbnailKey ? `thumbnails/${thumbnailNames(`${splitExtension(name).stem}.jpg`)}` : null;
      const webKey = webCopyKey(upload);
      const webCopy = webKey ? { file: `videos/${names.VIDEO(`${splitExtension(name).stem} (web copy).mp4`)}`, key: webKey } : null;
      listed.push({
        upload,
        file,
        thumbnail,
        webCopy,
        media: {
          type,
          title: upload.originalName?.trim() || "Untitled",
          sender: senderName(upload.submittedBy) || "Anonymous",
          date: longDate(upload.createdAt),
          file,
          thumbnail,
          webFile: webCopy?.file ?? null,
        },
      });
    }
    if (batch.length < BATCH) return listed;
    lastId = batch[batch.length - 1]!.id;
  }
}

/** Approved memories, oldest first, a batch at a time, for the page. */
function* approvedMemories(longDate: (date: Date) => string): Generator<KeepsakeMemory[]> {
  for (let lastId = 0; ;) {
    const batch = db
      .select({
        id: memories.id,
        name: memories.name,
        message: memories.message,
        createdAt: memories.createdAt,
        canDisplay: memories.canDisplay,
      })
      .from(memories)
      // As in export.server.ts: walk the primary key, not the status index.
      .where(and(sql`+${memories.status} = 'APPROVED'`, gt(memories.id, lastId)))
      .orderBy(asc(memories.id))
      .limit(BATCH)
      .all();
    yield batch.map((memory) => ({
      name: memory.name,
      message: memory.message,
      canDisplay: memory.canDisplay,
      date: longDate(memory.createdAt),
    }));
    if (batch.length < BATCH) return;
    lastId = batch[batch.length - 1]!.id;
  }
}

/** Text read as UTF-8 by every editor (the BOM), with Windows line ends, which every system shows. */
const textFile = (text: string) => Buffer.from(`\ufeff${text.replace(/\r?\n/g, "\r\n")}`);

/** Strings to bytes, in chunks of about 64 KiB (a deflate stream works better on a few large ones). */
function bytesOf(pieces: Iterable<string>): Readable {
  return Readable.from(
    (function* () {
      let pending = "";
      for (const piece of pieces) {
        pending += piece;
        if (pending.length >= 64 * 1024) {
          yield Buffer.from(pending);
          pending = "";
        }
      }
      if (pending) yield Buffer.from(pending);
    })(),
    { objectMode: false },
  );
}

/**
 * The family's archive as a stream of ZIP bytes, read from the database and
 * storage as it is consumed: one file at a time, media stored as they are
 * (compressed already), text deflated. Aborting `signal` stops the reading;
 * a file that cannot be read ends the stream with an error (and a log line),
 * so the client gets a truncated ZIP rather than an incomplete one that
 * looks whole.
 */
export function createFamilyArchive({ signal, now = Date.now() }: { signal?: AbortSignal; now?: number } = {}): Readable {
  const site = getSiteView(now);
  const { timeZone } = site;
  const storage = getMediaStorage();
  const longDate = bookDate(site.mainLanguage, timeZone);
  const media = archivedUploads(timeZone, longDate);
  const voices = archivedVoices(timeZone, longDate);
  const poemNames = uniqueNames();
  const poems = listPoems()
    .reverse()
    .map((poem) => ({ ...poem, file: `poems/${poemNames(safeFileName(`${safeNamePart(poem.title, 100, "Poem")}.txt`))}` }));
  const memoryCount = db.select({ n: count() }).from(memories).where(eq(memories.status, "APPROVED")).get()?.n ?? 0;
  // The archive is the memorial's content, never a copy of the database: the
  // people who follow it by e-mail (the followers table) are in none of these
  // files. Their list is the family's alone, in the Remember tab and
  // /api/admin/export/followers.csv.
  const spreadsheets = [
    {
      name: "memories.csv",
      label: "memories.csv: the guest book's memories (a spreadsheet)",
      rows: () => csvReadable(MEMORY_COLUMNS, approvedMemoryRows()),
    },
    {
      name: "contacts.csv",
      label: "contacts.csv: everyone who left contact details, for thank-you notes",
      rows: () => csvReadable(CONTACT_COLUMNS, contactRows()),
    },
    { name: "rsvps.csv", label: "rsvps.csv: who said they attended", rows: () => csvReadable(RSVP_COLUMNS, rsvpRows()) },
  ];

  const entries: ZipEntry[] = [
    {
      name: "index.html",
      compress: true,
      mtime: new Date(now),
      open: () =>
        bytesOf(
          keepsakePage({
            language: site.mainLanguage,
            personName: site.personName,
            siteTitle: site.siteTitle,
            heroSubtitle: site.heroSubtitle,
            service: {
              title: site.serviceTitle,
              dateText: site.service.dateText,
              over: site.service.over,
              venueName: site.venueName,
              venueAddress: site.venueAddress,
              note: site.serviceNote,
            },
            life: keepsakeLife(site, media),
            welcome: (site.service.over ? site.welcomeMessageAfter : site.welcomeMessage).split(/\n\s*\n/).filter((p) => p.trim()),
            savedOn: longDate(now),
            counts: {
              memories: memoryCount,
              poems: poems.length,
              photos: media.filter((item) => item.upload.type === "IMAGE").length,
              videos: media.filter((item) => item.upload.type === "VIDEO").length,
              voices: voices.length,
            },
            memories: approvedMemories(longDate),
            poems: poems.map((poem) => ({ title: poem.title, author: poem.author, content: poem.content, file: poem.file })),
            voices: voices.map((item) => item.voice),
            media: media.map((item) => item.media),
            files: spreadsheets.map((sheet) => ({ href: sheet.name, label: sheet.label })),
          }),
        ),
    },
    ...spreadsheets.map((sheet) => ({ name: sheet.name, compress: true, mtime: new Date(now), open: sheet.rows })),
    ...poems.map((poem) => ({
      name: poem.file,
      compress: true,
      mtime: new Date(poem.createdAt),
      open: () => Readable.from([textFile(`${poem.title}\n${poem.author ? `By ${poem.author}\n` : ""}\n${poem.content}\n`)]),
    })),
    ...media.flatMap(({ upload, thumbnail }) =>
      thumbnail ? [{ name: thumbnail, compress: false, mtime: upload.createdAt, open: () => storage.read(upload.thumbnailKey!) }] : [],
    ),
    ...media.flatMap(({ upload, file, webCopy }) => [
      { name: file, compress: false, mtime: upload.createdAt, open: () => storage.read(upload.storageKey!) },
      ...(webCopy ? [{ name: webCopy.file, compress: false, mtime: upload.createdAt, open: () => storage.read(webCopy.key) }] : []),
    ]),
    ...voiceEntries(voices, storage),
  ];

  const archive = zipStream(entries, { signal });
  archive.once("error", (error) => {
    console.error(JSON.stringify({ level: "error", msg: "the family's archive stopped: a file could not be read", error: String(error) }));
  });
  return archive;
}
