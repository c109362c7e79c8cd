// "Download everything": the family's archive built from a real database
// and disk storage with real uploads, unzipped and read back file by file.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import yauzl from "yauzl";
import { adminUsers, followers, lifeMoments } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { getMediaStorage, useMediaStorage } from "~/media/media-storage.server";
import type { MediaStorage } from "~/media/storage.server";
import { upsertAdmin } from "~/admins/admin.server";
import { archiveFileName, createFamilyArchive } from "~/keepsakes/archive.server";
import { archiveMediaName } from "~/keepsakes/archive-names.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { setMemoryStatus, submitMemory } from "~/guestbook/memory.server";
import { createPoem } from "~/poems/poem.server";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { createRsvp } from "~/attendance/rsvp.server";
import { SettingsPatch } from "~/site/settings.schema";
import { updateSiteSettings } from "~/site/settings.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { loader as contactsCsv } from "~/routes/api.admin.export.contacts[.]csv";
import { loader as memoriesCsv } from "~/routes/api.admin.export.memories[.]csv";
import { safeFileName, uniqueNames } from "~/utils/file-name";
import { addMoment, saveStory } from "~/life/life.server";

const FIXTURES = path.resolve(__dirname, "../fixtures");
const ORIGIN = "http://memorial.test";
let work: string;
let adminCookie: string;

interface Unzipped {
  name: string;
  data: Buffer;
  compressed: boolean;
  crc32: number;
}

/** Every entry of a ZIP file, read back with yauzl (which checks the sizes). */
function unzip(file: string): Promise<Unzipped[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: Unzipped[] = [];
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.push({
              name: entry.fileName,
              data: Buffer.concat(chunks),
              compressed: entry.compressionMethod === 8,
              crc32: entry.crc32,
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

async function writeArchive(options: Parameters<typeof createFamilyArchive>[0] = {}) {
  const file = path.join(work, `archive-${Math.random().toString(36).slice(2)}.zip`);
  await pipeline(createFamilyArchive(options), createWriteStream(file));
  return file;
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function share(bytes: Buffer, originalName: string, submittedBy: string) {
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: originalName });
  const view = await registerFormUpload(key, { submittedBy, originalName });
  await processingIdle();
  return view.id;
}

function memory(name: string, message: string, status: "APPROVED" | "REJECTED" | "PENDING", canDisplay = true) {
  const { id } = submitMemory(
    MemoryApiSchema.parse({ name, email: `${name.split(" ")[0]!.toLowerCase()}@example.com`, message, canDisplay }),
  );
  if (status !== "PENDING") setMemoryStatus(id, status, operator());
}

const photo = (background: string) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** A second of 10-bit HEVC in a .mov, as an iPhone films it: Chromium cannot play it as it is. */
function hevcVideo() {
  const file = path.join(work, "iphone.mov");
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:v", "libx265", "-x265-params", "log-level=error"],
    ...["-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", "-c:a", "aac", file],
  ]);
  return execFileSync("cat", [file]);
}

/** A second of H.264 + AAC in an MP4, wider than the gallery's copy may be: it plays everywhere, and the gallery gets a lighter copy. */
function wideH264Video() {
  const file = path.join(work, "wide.mp4");
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x160:rate=25:duration=1"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    ...["-c:a", "aac", file],
  ]);
  return execFileSync("cat", [file]);
}

const csvOf = async (loader: typeof memoriesCsv) =>
  Buffer.from(
    await (
      (await loader({ request: new Request(`${ORIGIN}/x`, { headers: { Cookie: adminCookie } }), params: {}, context: {} })) as Response
    ).arrayBuffer(),
  );

const originals = new Map<string, Buffer>();
const ids = new Map<string, number>();

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-archive-"));
  await upsertAdmin("keeper", "the-right-password");
  const admin = db.select().from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!;
  adminCookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id: admin.id, username: admin.username })).split(";")[0]!;

  const settings = await updateSiteSettings(
    SettingsPatch.parse({
      personName: `Josephine "Jo" <b>Marsh</b>`,
      serviceTitle: "A Celebration & a Song",
      serviceNote: "Reception to follow <downstairs>",
      venueName: "The Old Boathouse",
      venueAddress: "1 River Lane, Berkeley, CA",
      livestreamUrl: "https://stream.example.com/jo",
    }),
    operator("keeper"),
  );
  expect(settings.ok).toBe(true);

  memory("Ann Lee", "She taught me to swim <script>alert(1)</script> & laugh.\nSecond line.", "APPROVED");
  memory("Bo Private", '=HYPERLINK("http://evil") kept for the family only', "APPROVED", false);
  memory("Pending Person", "This memory is still waiting for review", "PENDING");
  memory("Rejected Person", "This memory was rejected by the family", "REJECTED");
  createPoem({ title: "Afterglow / Dusk", author: "Ann", content: "Line one\nLine two" }, operator());
  createPoem({ title: "Afterglow / Dusk", content: "A second poem with the same title" }, operator());
  createPoem({ title: "CON", content: "A title Windows keeps for itself" }, operator());
  createRsvp(RsvpSchema.parse({ name: "Cy Rsvp", email: "cy@example.com", guestCount: 3, notes: "Bringing the kids" }));
  // Someone who follows the memorial by e-mail: their address is the family's to see in the panel, never in the archive.
  db.insert(followers)
    .values({ name: "Fay Follower", email: "fay@example.com", topics: ["reminders"], createdAt: new Date(), confirmedAt: new Date() })
    .run();

  const ann = "Ann Lee (ann@example.com)";
  const shared: [string, Buffer, string, "APPROVED" | "PENDING" | "REJECTED"][] = [
    ["IMG 0001.jpg", await photo("#336699"), ann, "APPROVED"],
    ["img 0001.JPG", await photo("#996633"), ann, "APPROVED"],
    [
      '..\\evil:na<me>?*|".png',
      await sharp({ create: { width: 64, height: 48, channels: 4, background: "#0f08" } })
        .png()
        .toBuffer(),
      "Eve (eve@example.com)",
      "APPROVED",
    ],
    ["sample.heic", await fs.readFile(path.join(FIXTURES, "sample.heic")), "Dee (dee@example.com)", "APPROVED"],
    ["birthday #1.mp4", await fs.readFile(path.join(FIXTURES, "sample.mp4")), ann, "APPROVED"],
    ["IMG_4127.MOV", hevcVideo(), "Ben Ortiz (ben@example.com)", "APPROVED"],
    ["wide.mp4", wideH264Video(), ann, "APPROVED"],
    ["waiting.jpg", await photo("#aaaaaa"), "Pending Person (p@example.com)", "PENDING"],
    ["rejected.mp4", await fs.readFile(path.join(FIXTURES, "sample.mp4")), "Rejected Person (r@example.com)", "REJECTED"],
  ];
  for (const [name, bytes, by, status] of shared) {
    const id = await share(bytes, name, by);
    if (status !== "PENDING") await setUploadStatus(id, status, operator());
    originals.set(name, bytes);
    ids.set(name, id);
  }
  // The family's life story, not published yet: the archive is theirs, and keeps it all the same.
  saveStory({ story: "Jo grew up <i>by the river</i>.\n\n## Work & play\n\n- Teaching\n- Singing", photoId: null }, operator());
  addMoment({ date: "1964-06-20", title: "Married <Tom>", text: "A wet June day.", photoId: ids.get("IMG 0001.jpg")! }, operator());
  // A moment whose photo is not (or no longer) published: the model refuses to choose it, so written as it might be found.
  db.insert(lifeMoments)
    .values({ date: "1942", title: "Born", photoId: ids.get("waiting.jpg")! })
    .run();
});
afterAll(async () => {
  await processingIdle();
  await fs.rm(work, { recursive: true, force: true });
});

describe("file names in the archive", () => {
  it("are safe on Windows, macOS and Linux, and unique in their folder whatever their case", () => {
    expect(safeFileName('a<b>c:d"e/f\\g|h?i*j.jpg')).toBe("a_b_c_d_e_f_g_h_i_j.jpg");
    expect(safeFileName("  ..hidden. . ")).toBe("hidden");
    expect(safeFileName("CON.txt")).toBe("_CON.txt");
    expect(safeFileName("lpt1")).toBe("_lpt1");
    expect(safeFileName("\u202eevil\u0000name\ttab.jpg")).toBe("_evil_name_tab.jpg");
    expect(safeFileName("")).toBe("file");
    const long = safeFileName(`${"é".repeat(200)}.jpeg`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(150);
    expect(long.endsWith("é.jpeg")).toBe(true);
    const next = uniqueNames();
    expect(["a.jpg", "A.JPG", "a.jpg", "b"].map(next)).toEqual(["a.jpg", "A (2).JPG", "a (3).jpg", "b"]);
  });

  it("are the day, the sender's name (never the email) and the original name, with the extension its type needs", () => {
    const at = new Date("2025-09-01T05:30:00Z"); // still August 31st in California
    const name = (submittedBy: string | null, originalName: string | null, mimeType = "image/jpeg") =>
      archiveMediaName({ id: 9, type: "IMAGE", createdAt: at, submittedBy, originalName, mimeType }, "America/Los_Angeles");
    expect(name("Ann Lee (ann@example.com)", "IMG_0001.JPG")).toBe("2025-08-31_Ann Lee_IMG_0001.JPG");
    expect(name(null, null)).toBe("2025-08-31_Anonymous_photo-9.jpg");
    expect(name("Bo", "scan", "image/heic")).toBe("2025-08-31_Bo_scan.heic");
    expect(name("odd@example.com", "x.png", "image/png")).toBe("2025-08-31_Anonymous_x.png");
    expect(archiveFileName(Date.parse("2025-09-01T05:30:00Z"))).toBe("memorial-2025-08-31.zip");
  });
});

describe("the family's archive", () => {
  let entries: Unzipped[];
  let index: string;
  const named = (name: string) => entries.find((entry) => entry.name === name);

  beforeAll(async () => {
    entries = await unzip(await writeArchive());
    index = named("index.html")!.data.toString("utf8");
  });

  it("holds every published original as it was sent, under safe unique names, and nothing pending or rejected", () => {
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date());
    const names = entries.map((entry) => entry.name).sort();
    expect(names).toEqual(
      [
        "index.html",
        "memories.csv",
        "contacts.csv",
        "rsvps.csv",
        "poems/Afterglow _ Dusk.txt",
        "poems/Afterglow _ Dusk (2).txt",
        "poems/_CON.txt",
        `photos/${day}_Ann Lee_IMG 0001.jpg`,
        `photos/${day}_Ann Lee_img 0001 (2).JPG`,
        `photos/${day}_Eve_.._evil_na_me_____.png`,
        `photos/${day}_Dee_sample.heic`,
        `videos/${day}_Ann Lee_birthday #1.mp4`,
        `videos/${day}_Ben Ortiz_IMG_4127.MOV`,
        `videos/${day}_Ben Ortiz_IMG_4127 (web copy).mp4`,
        `videos/${day}_Ann Lee_wide.mp4`,
        `thumbnails/${day}_Ben Ortiz_IMG_4127.jpg`,
        `thumbnails/${day}_Ann Lee_wide.jpg`,
        `thumbnails/${day}_Ann Lee_IMG 0001.jpg`,
        `thumbnails/${day}_Ann Lee_img 0001 (2).jpg`,
        `thumbnails/${day}_Eve_.._evil_na_me_____.jpg`,
        `thumbnails/${day}_Dee_sample.jpg`,
        `thumbnails/${day}_Ann Lee_birthday #1.jpg`,
      ].sort(),
    );
    const byName = (original: string) =>
      entries.find((entry) => /^(photos|videos)\//.test(entry.name) && entry.name.endsWith(original))!.data;
    expect(sha(byName("IMG 0001.jpg"))).toBe(sha(originals.get("IMG 0001.jpg")!));
    expect(sha(byName("img 0001 (2).JPG"))).toBe(sha(originals.get("img 0001.JPG")!));
    expect(sha(byName("sample.heic"))).toBe(sha(originals.get("sample.heic")!));
    expect(sha(byName("birthday #1.mp4"))).toBe(sha(originals.get("birthday #1.mp4")!));
    expect(sha(byName("IMG_4127.MOV"))).toBe(sha(originals.get("IMG_4127.MOV")!));
    // contacts.csv is everyone who left contact details, as the Exports tab has it (checked below).
    const everything = entries
      .filter((entry) => entry.name !== "contacts.csv")
      .map((entry) => `${entry.name}\n${entry.data.toString("latin1")}`)
      .join("\n");
    for (const absent of ["waiting", "rejected", "Pending Person", "Rejected Person", "still waiting", "was rejected"]) {
      expect(everything).not.toContain(absent);
    }
  });

  it("holds nothing of the people who follow the memorial by e-mail, not even in contacts.csv", () => {
    for (const entry of entries) {
      expect(entry.data.toString("utf8"), entry.name).not.toMatch(/fay@example\.com|Fay Follower/);
    }
  });

  it("stores media as they are, deflates the text, and every checksum is right", async () => {
    for (const entry of entries) {
      expect(entry.compressed, entry.name).toBe(/\.(html|csv|txt)$/.test(entry.name));
      expect(zlib.crc32(entry.data), entry.name).toBe(entry.crc32);
    }
    for (const entry of entries.filter((each) => each.name.startsWith("thumbnails/"))) {
      expect((await sharp(entry.data).metadata()).format, entry.name).toBe("jpeg");
    }
  });

  it("has the same memories and contacts spreadsheets as the Exports tab, and the attendance", async () => {
    expect(named("memories.csv")!.data.equals(await csvOf(memoriesCsv))).toBe(true);
    expect(named("contacts.csv")!.data.equals(await csvOf(contactsCsv))).toBe(true);
    const memoriesText = named("memories.csv")!.data.toString("utf8");
    expect(memoriesText).toContain("'=HYPERLINK");
    expect(memoriesText).not.toContain("still waiting");
    const rsvps = named("rsvps.csv")!.data.toString("utf8").split(/\r?\n/).filter(Boolean);
    expect(rsvps[0]).toBe("\ufeffName,Email,Guests,Notes,Submitted");
    expect(rsvps[1]).toMatch(/^Cy Rsvp,cy@example\.com,3,Bringing the kids,\d{4}-\d\d-\d\d \d\d:\d\d P[DS]T$/);
  });

  it("has each poem as a text file any editor opens", () => {
    expect(named("poems/Afterglow _ Dusk.txt")!.data.toString("utf8")).toBe(
      "\ufeffAfterglow / Dusk\r\nBy Ann\r\n\r\nLine one\r\nLine two\r\n",
    );
    expect(named("poems/_CON.txt")!.data.toString("utf8")).toContain("A title Windows keeps for itself");
  });

  it("opens on index.html: the person, the service, every memory and poem, the gallery, all escaped and all inside the folder", () => {
    expect(index).toMatch(/^<!DOCTYPE html>/);
    expect(index).toContain("<h1>Josephine &quot;Jo&quot; &lt;b&gt;Marsh&lt;/b&gt;</h1>");
    expect(index).toContain("A Celebration &amp; a Song");
    expect(index).toContain("Reception to follow &lt;downstairs&gt;");
    expect(index).toContain("The Old Boathouse<br/>1 River Lane, Berkeley, CA");
    expect(index).toMatch(/Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm/);
    expect(index).toContain("She taught me to swim &lt;script&gt;alert(1)&lt;/script&gt; &amp; laugh.\nSecond line.");
    expect(index).toContain("shared with the family only");
    expect(index).toContain("Afterglow / Dusk");
    expect(index).toContain("Line one\nLine two");
    expect(index).toContain("Photo: ..\\evil:na&lt;me&gt;?*|&quot;.png");
    // The life story, escaped, its timeline in order, a photo only where it is in the folder (never the pending one).
    expect(index).toContain('<a href="#life">Life story</a>');
    expect(index).toContain("Kept by the family; not published on the site when this was saved.");
    expect(index).toContain("Jo grew up &lt;i&gt;by the river&lt;/i&gt;.");
    expect(index).toContain("<h3>Work &amp; play</h3>");
    expect(index).toMatch(/<li>Teaching<\/li><li>Singing<\/li>/);
    expect(index.indexOf("<h4>Born</h4>")).toBeLessThan(index.indexOf("<h4>Married &lt;Tom&gt;</h4>"));
    expect(index).toMatch(
      /June 20, 1964<\/p><h4>Married &lt;Tom&gt;<\/h4><p class="text">A wet June day.<\/p><a href="photos\/[^"]+"><img src="thumbnails\/[^"]+" alt="Photo: Married &lt;Tom&gt;"/,
    );
    expect(index).toMatch(/<h4>Born<\/h4><\/li>/);
    for (const absent of ["<script", "<b>", "<i>", "still waiting", "was rejected", "stream.example.com", "url("])
      expect(index).not.toContain(absent);

    const addresses = [...index.matchAll(/\s(?:href|src|poster)="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));
    const files = addresses.filter((address) => !address.startsWith("#"));
    expect(files.length).toBeGreaterThanOrEqual(6 + 6 + 1 + 3 + 3);
    const names = new Set(entries.map((entry) => entry.name));
    for (const address of files) {
      expect(address, "relative, never to a network").not.toMatch(/^[a-z][a-z0-9+.-]*:|^\/|\\/i);
      expect(names.has(decodeURIComponent(address)), address).toBe(true);
    }
    for (const anchor of addresses.filter((address) => address.startsWith("#"))) expect(index).toContain(`id="${anchor.slice(1)}"`);
    // Each original and each thumbnail is on the page.
    for (const name of names) if (/^(photos|videos|thumbnails)\//.test(name)) expect(files.map(decodeURIComponent)).toContain(name);
  });

  it("plays an iPhone's HEVC video from its H.264 web copy beside the original, and MP4s that play from themselves, without one", async () => {
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date());
    const videos = [...index.matchAll(/<video [^>]*\ssrc="([^"]*)"[^>]*>/g)].map((match) => decodeURIComponent(match[1]!));
    expect(videos.sort()).toEqual([
      `videos/${day}_Ann Lee_birthday #1.mp4`,
      `videos/${day}_Ann Lee_wide.mp4`,
      `videos/${day}_Ben Ortiz_IMG_4127 (web copy).mp4`,
    ]);
    // The wide MP4's gallery copy is a lighter one: the original it came from plays everywhere as it is.
    expect(entries.filter((entry) => entry.name.includes("(web copy)")).map((entry) => entry.name)).toEqual([
      `videos/${day}_Ben Ortiz_IMG_4127 (web copy).mp4`,
    ]);
    expect(index).toContain(`href="videos/${encodeURIComponent(`${day}_Ben Ortiz_IMG_4127.MOV`)}">The original file</a>`);
    const web = named(`videos/${day}_Ben Ortiz_IMG_4127 (web copy).mp4`)!.data;
    const copy = path.join(work, "web-copy.mp4");
    await fs.writeFile(copy, web);
    const probe = JSON.parse(
      execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name:format=format_name", "-of", "json", copy]).toString(),
    ) as { streams: { codec_name: string }[]; format: { format_name: string } };
    expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(["aac", "h264"]);
    expect(probe.format.format_name).toContain("mp4");
  });
});

describe("an archive that cannot finish", () => {
  /** The real storage, with `read` replaced. */
  function storageWith(read: MediaStorage["read"]) {
    const real = getMediaStorage();
    return Object.assign(Object.create(real) as MediaStorage, { read });
  }

  it("ends with an error (logged) when a file fails halfway, so the download is visibly broken, and the server goes on", async () => {
    const real = getMediaStorage();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    useMediaStorage(
      storageWith(async (key) =>
        key.startsWith("media/")
          ? real.read(key)
          : Readable.from(
              (async function* () {
                yield Buffer.alloc(1000, 1);
                throw new Error("the disk went away");
              })(),
            ),
      ),
    );
    try {
      const failed = await writeArchive().catch((error: unknown) => error);
      expect(String(failed)).toMatch(/could not be read: Error: the disk went away/);
      expect(errors).toHaveBeenCalledWith(expect.stringContaining("the family's archive stopped"));
    } finally {
      useMediaStorage(real);
      errors.mockRestore();
    }
  });

  it("stops reading storage when the download is cancelled", async () => {
    const real = getMediaStorage();
    const opened: Readable[] = [];
    useMediaStorage(
      storageWith(async () => {
        // A file that never ends, read only as it is consumed.
        const endless = new Readable({ read: () => void endless.push(Buffer.alloc(64 * 1024)) });
        opened.push(endless);
        return endless;
      }),
    );
    try {
      const controller = new AbortController();
      const archive = createFamilyArchive({ signal: controller.signal });
      let bytes = 0;
      const read = (async () => {
        for await (const chunk of archive) {
          bytes += (chunk as Buffer).length;
          if (bytes > 4 * 1024 * 1024) controller.abort();
        }
      })();
      await expect(read).rejects.toThrow();
      expect(archive.destroyed).toBe(true);
      expect(opened).toHaveLength(1);
      expect(opened[0]!.destroyed).toBe(true);
    } finally {
      useMediaStorage(real);
    }
  });
});
