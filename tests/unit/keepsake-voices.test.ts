// Voice memories in "Download everything": sent through the real pipeline
// (an iPhone's .m4a, Chrome's .webm, an Android .3gp), published, and read
// back from the unzipped archive: each original as it was sent, its web copy
// beside it, and the offline page's players.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Upload } from "../../db/schema";
import { getMediaStorage } from "~/media/media-storage.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { setMemoryStatus, submitMemory } from "~/guestbook/memory.server";
import { archiveContents, createFamilyArchive } from "~/keepsakes/archive.server";
import { archiveMediaName } from "~/keepsakes/archive-names.server";
import { keepsakePage, type KeepsakePage, type KeepsakeVoice } from "~/keepsakes/keepsake-page.server";
import { operator } from "~/platform/actor.server";
import { createPoem } from "~/poems/poem.server";
import { getSiteView } from "~/site/settings.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { formatDuration, formatIsoDate, formatLongDate } from "~/utils/time";
import { makeVoiceFile, probe } from "../support/voice-fixtures";
import { sendVoice } from "../support/voice-uploads";

let work: string;
let folder: string;
let index: string;
let day: string;
const sent = new Map<string, { file: string; row: Upload }>();

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const read = (name: string) => fs.readFile(path.join(folder, name));

async function filesIn(dir: string, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory()) names.push(...(await filesIn(path.join(dir, entry.name), `${name}/`)));
    else names.push(name);
  }
  return names;
}

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-keepsake-voices-"));
  const recordings = path.join(work, "recordings");
  const voices: [string, string, Parameters<typeof sendVoice>[1]][] = [
    [
      "ann",
      makeVoiceFile(recordings, "m4a", { seconds: 4 }),
      { submittedBy: "Ann Lee (ann@example.com)", name: "New Recording 12.m4a", caption: "Happy birthday, <Jo> & all of you" },
    ],
    ["bo", makeVoiceFile(recordings, "webm", { seconds: 3 }), { submittedBy: "Bo", name: "voice-memory.webm", canDisplay: false }],
    ["cy", makeVoiceFile(recordings, "3gp", { seconds: 2 }), { submittedBy: "Cy Dvořák", name: "Recording 14.3gp", caption: "给孩子们" }],
    ["pending", makeVoiceFile(recordings, "m4a", { seconds: 2 }), { submittedBy: "Pending Voice", status: "PENDING" }],
    ["rejected", makeVoiceFile(recordings, "m4a", { seconds: 2 }), { submittedBy: "Rejected Voice", status: "REJECTED" }],
  ];
  for (const [who, file, details] of voices) sent.set(who, { file, row: await sendVoice(file, details) });
  for (const who of ["ann", "bo", "cy"]) expect(sent.get(who)!.row).toMatchObject({ type: "AUDIO", processingError: null });

  // A photo, a memory and a poem: the voices stand among them without changing them.
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#336699" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([photo]), filename: "IMG_0001.jpg" });
  const view = await registerFormUpload(key, { submittedBy: "Dee (dee@example.com)", originalName: "IMG_0001.jpg" });
  await processingIdle();
  await setUploadStatus(view.id, "APPROVED", operator());
  const { id } = submitMemory(
    MemoryApiSchema.parse({ name: "Eve", email: "eve@example.com", message: "A memory of the lake", canDisplay: true }),
  );
  setMemoryStatus(id, "APPROVED", operator());
  createPoem({ title: "Afterglow", content: "Line one" }, operator());

  const zip = path.join(work, "memorial.zip");
  await pipeline(createFamilyArchive(), createWriteStream(zip));
  folder = path.join(work, "unzipped");
  execFileSync("unzip", ["-q", zip, "-d", folder]);
  index = (await read("index.html")).toString("utf8");
  day = formatIsoDate(Date.now(), getSiteView().timeZone);
}, 120_000);

afterAll(async () => {
  await processingIdle();
  await fs.rm(work, { recursive: true, force: true });
});

describe("voice memories in the family's archive", () => {
  it("holds each published voice's original exactly as sent, and its web copy, in voices/; nothing pending or rejected", async () => {
    const names = await filesIn(folder);
    expect(names.filter((name) => name.startsWith("voices/")).sort()).toEqual(
      [
        `voices/${day}_Ann Lee_New Recording 12.m4a`,
        `voices/${day}_Ann Lee_New Recording 12 (web copy).m4a`,
        `voices/${day}_Bo_voice-memory.webm`,
        `voices/${day}_Bo_voice-memory (web copy).m4a`,
        `voices/${day}_Cy Dvořák_Recording 14.3gp`,
        `voices/${day}_Cy Dvořák_Recording 14 (web copy).m4a`,
      ].sort(),
    );
    // The photo is where it always was, and no voice went among the photos or videos.
    expect(names.filter((name) => /^(photos|videos)\//.test(name))).toEqual([`photos/${day}_Dee_IMG_0001.jpg`]);
    for (const [who, original] of [
      ["ann", `${day}_Ann Lee_New Recording 12.m4a`],
      ["bo", `${day}_Bo_voice-memory.webm`],
      ["cy", `${day}_Cy Dvořák_Recording 14.3gp`],
    ] as const) {
      const { file, row } = sent.get(who)!;
      expect(sha(await read(`voices/${original}`)), original).toBe(sha(await fs.readFile(file)));
      // The web copy is the site's own, byte for byte: AAC in M4A.
      const web = `voices/${original.replace(/\.[a-z0-9]+$/, "")} (web copy).m4a`;
      const chunks: Buffer[] = [];
      for await (const chunk of await getMediaStorage().read(row.displayKey!)) chunks.push(chunk as Buffer);
      const stored = Buffer.concat(chunks);
      expect(sha(await read(web)), web).toBe(sha(stored));
      const facts = probe(path.join(folder, web));
      expect(facts.codecs).toEqual(["aac"]);
      expect(facts.format).toContain("mp4");
    }
    const everything = (await Promise.all(names.map(async (name) => `${name}\n${(await read(name)).toString("latin1")}`))).join("\n");
    for (const absent of ["Pending Voice", "Rejected Voice"]) expect(everything).not.toContain(absent);
  });

  it("plays each voice on the offline page from its web copy, with the name, the date, the length, the line and the original", async () => {
    const section = index.slice(index.indexOf('<section id="voices"'), index.indexOf("</section>", index.indexOf('<section id="voices"')));
    expect(section).toContain('<h2 id="voices-title">Voices</h2>');
    const cards = section.split('<article class="card voice">').slice(1);
    expect(cards.map((card) => /<h3>([^<]*)<\/h3>/.exec(card)![1])).toEqual(["Ann Lee", "Bo", "Cy Dvořák"]);
    const date = formatLongDate(sent.get("ann")!.row.createdAt, getSiteView().timeZone);
    const length = (who: string) => formatDuration(sent.get(who)!.row.durationSec);
    expect(length("ann")).toMatch(/^0:0[45]$/);

    const [ann, bo, cy] = cards as [string, string, string];
    expect(ann).toContain(`<p class="muted">${date} · ${length("ann")}</p>`);
    expect(ann).toContain(
      `<audio controls="" preload="metadata" src="voices/${encodeURIComponent(`${day}_Ann Lee_New Recording 12 (web copy).m4a`)}" aria-label="Voice memory from Ann Lee, ${length("ann")}">`,
    );
    expect(ann).toContain('<p class="text">Happy birthday, &lt;Jo&gt; &amp; all of you</p>');
    expect(ann).toContain(`<a href="voices/${encodeURIComponent(`${day}_Ann Lee_New Recording 12.m4a`)}">The original recording</a>`);
    // Sent for the family only: kept, and said so.
    expect(bo).toContain(`<p class="muted">${date} · ${length("bo")} · shared with the family only</p>`);
    expect(bo).not.toContain('class="text"');
    expect(ann).not.toContain("family only");
    expect(cy).toContain('<p class="text">给孩子们</p>');
    expect(cy).toContain(`aria-label="Voice memory from Cy Dvořák, ${length("cy")}"`);

    // Every address in the section is a file in the folder, relative to the page.
    const names = new Set(await filesIn(folder));
    const addresses = [...section.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1]!);
    expect(addresses).toHaveLength(3 * 3);
    for (const address of addresses) {
      expect(address).toMatch(/^voices\//);
      expect(names.has(decodeURIComponent(address)), address).toBe(true);
    }
  });

  it("puts the voices after the guest book's memories, in the page's contents and in its footer's count", () => {
    expect(index).toContain('<a href="#voices">Voices (3)</a>');
    expect(index.indexOf('id="memories"')).toBeLessThan(index.indexOf('id="voices"'));
    expect(index.indexOf('id="voices"')).toBeLessThan(index.indexOf('id="poems"'));
    expect(index).toMatch(/1 memory, 1 poem, 1 photo, 0 videos and 3 voice memories\./);
  });

  it("is counted on the Exports tab, the voices for the family only among them", () => {
    expect(archiveContents()).toMatchObject({ photos: 1, videos: 0, voices: 3 });
  });
});

describe("a voice memory's name in the archive", () => {
  const at = new Date("2025-09-01T05:30:00Z"); // still August 31st in California
  const name = (originalName: string | null, mimeType: string) =>
    archiveMediaName(
      { id: 9, type: "AUDIO", createdAt: at, submittedBy: "Ann (ann@example.com)", originalName, mimeType },
      "America/Los_Angeles",
    );

  it("keeps the recording's own extension, adds the one its type needs when it has none that fits, and never the email", () => {
    expect(name("New Recording.m4a", "audio/mp4")).toBe("2025-08-31_Ann_New Recording.m4a");
    expect(name("Recording 14.3gp", "audio/mp4")).toBe("2025-08-31_Ann_Recording 14.3gp");
    expect(name("Recording 14.3gp", "video/mp4")).toBe("2025-08-31_Ann_Recording 14.3gp");
    expect(name("blob", "audio/webm")).toBe("2025-08-31_Ann_blob.webm");
    expect(name("memo.OGG", "audio/ogg")).toBe("2025-08-31_Ann_memo.OGG");
    expect(name(null, "audio/mp4")).toBe("2025-08-31_Ann_voice-9.m4a");
  });
});

describe("the keepsake page of many voices", () => {
  it("is written a couple of hundred voices at a time", () => {
    const voices: KeepsakeVoice[] = Array.from({ length: 450 }, (_, i) => ({
      sender: `Voice ${i}`,
      label: `Voice memory from Voice ${i}, 0:42`,
      date: "August 31, 2025",
      length: "0:42",
      line: `Line ${i} </audio>`,
      canDisplay: i % 2 === 0,
      file: `voices/${i}.webm`,
      webFile: `voices/${i} (web copy).m4a`,
    }));
    const page: KeepsakePage = {
      personName: "Jo",
      siteTitle: "In Loving Memory",
      heroSubtitle: "",
      service: { title: "The service", dateText: "Sunday", over: true, venueName: "Hall", venueAddress: "1 Lane", note: "" },
      welcome: [],
      savedOn: "September 1, 2025",
      counts: { memories: 0, poems: 0, photos: 0, videos: 0, voices: voices.length },
      memories: [],
      poems: [],
      voices,
      media: [],
      files: [],
      life: null,
    };
    const pieces = [...keepsakePage(page)];
    const cards = (html: string) => html.match(/<article class="card voice">/g)?.length ?? 0;
    for (const piece of pieces) expect(cards(piece)).toBeLessThanOrEqual(200);
    const html = pieces.join("");
    expect(cards(html)).toBe(450);
    expect(html.match(/<audio /g)).toHaveLength(450);
    expect(html.match(/shared with the family only/g)).toHaveLength(225);
    expect(html).toContain("Line 449 &lt;/audio&gt;");
    expect(html).toContain("No memories were shared in the guest book.");
  });
});
