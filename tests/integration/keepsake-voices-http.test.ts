// Voice memories in the family's keepsakes, against the production server
// (`node server/index.mjs` on the build) on this test process's database and
// storage: the Exports tab says what the ZIP and the book hold, the ZIP has
// every published voice and its player, and the book the shared ones with
// QR codes to the site's public address.
import { execFileSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Upload } from "../../db/schema";
import { upsertAdmin } from "~/admins/admin.server";
import { operator } from "~/platform/actor.server";
import { SettingsPatch } from "~/site/settings.schema";
import { updateSiteSettings } from "~/site/settings.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { postJson, request, requireBuild, scratchDir, startSite, type Site } from "../support/site-process";
import { makeVoiceFile } from "../support/voice-fixtures";
import { sendVoice } from "../support/voice-uploads";

const ADMIN = { username: "family", password: "keepsake-voices-password" };
const PUBLIC = "https://jo.example.org";
let site: Site;
let cookie: string;
let work: string;
let ann: Upload;
let bo: Upload;

beforeAll(async () => {
  requireBuild();
  work = scratchDir();
  await upsertAdmin(ADMIN.username, ADMIN.password);
  expect((await updateSiteSettings(SettingsPatch.parse({ publicUrl: PUBLIC }), operator())).ok).toBe(true);
  ann = await sendVoice(makeVoiceFile(work, "m4a", { seconds: 3 }), {
    submittedBy: "Ann Lee (ann@example.com)",
    name: "Voice Memo.m4a",
    caption: "For Jo, from the choir",
  });
  bo = await sendVoice(makeVoiceFile(work, "webm", { seconds: 2 }), {
    submittedBy: "Bo",
    caption: "Just for the family",
    canDisplay: false,
  });
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#557799" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([photo]), filename: "garden.jpg" });
  const view = await registerFormUpload(key, { submittedBy: "Cy (cy@example.com)", originalName: "garden.jpg" });
  await processingIdle();
  await setUploadStatus(view.id, "APPROVED", operator());
  // The server shares this process's database and storage (tests/support/setup.ts).
  site = await startSite(path.dirname(process.env.DATABASE_PATH!));
  const login = await postJson(site.port, "/api/admin/login", ADMIN);
  expect(login.status).toBe(200);
  cookie = (login.headers["set-cookie"] ?? []).map((each) => each.split(";")[0]).join("; ");
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await processingIdle();
});

/** Saves what the server sends for `urlPath` (as the family) to `file`; resolves with the status and type. */
function download(urlPath: string, file: string): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port: site.port, path: urlPath, headers: { Cookie: cookie }, agent: false }, (res) => {
        pipeline(res, createWriteStream(file)).then(
          () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] }),
          reject,
        );
      })
      .on("error", reject);
  });
}

describe("voice memories in the family's keepsakes, from the server", () => {
  it("the Exports tab says the ZIP holds both voices and the book the one shared with permission", async () => {
    const page = await request(site.port, "GET", "/admin/exports", { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/It holds 1 photo, 0 videos and 2 voice memories, about [\d.]+ [KM]B\./);
    expect(page.body).toMatch(/(Less than a minute|About \d+ minutes?) for 0 memories, 1 voice memory and 1 photo\./);
  });

  it("the ZIP holds each voice's original and web copy, and its page plays them", async () => {
    const zip = path.join(work, "memorial.zip");
    expect(await download("/admin/exports/archive.zip", zip)).toMatchObject({ status: 200, type: "application/zip" });
    const folder = path.join(work, "unzipped");
    execFileSync("unzip", ["-q", zip, "-d", folder]);
    const voices = (await fs.readdir(path.join(folder, "voices"))).sort();
    expect(voices).toHaveLength(4);
    expect(voices.filter((name) => name.endsWith(" (web copy).m4a"))).toHaveLength(2);
    expect(voices.some((name) => name.endsWith("_Ann Lee_Voice Memo.m4a"))).toBe(true);
    expect(voices.some((name) => /_Bo_.*\.webm$/.test(name))).toBe(true);
    const index = await fs.readFile(path.join(folder, "index.html"), "utf8");
    const players = [...index.matchAll(/<audio [^>]*src="([^"]+)"/g)].map((match) => decodeURIComponent(match[1]!));
    expect(players).toHaveLength(2);
    for (const player of players) expect(voices).toContain(path.basename(player));
    expect(index).toContain("For Jo, from the choir");
    expect(index).toContain("Just for the family");
    expect(index).toContain("shared with the family only");
  });

  it("the book prints the voice shared with permission, with a QR code to its page at the site's public address", async () => {
    const book = path.join(work, "book.pdf");
    expect(await download("/admin/exports/book.pdf?size=letter", book)).toMatchObject({ status: 200, type: "application/pdf" });
    const pages = execFileSync("pdftotext", ["-enc", "UTF-8", book, "-"], { encoding: "utf8" }).split("\f");
    const voicesPage = pages.findIndex((page) => page.startsWith("Voices"));
    expect(voicesPage).toBeGreaterThan(0);
    expect(pages[voicesPage]).toContain("Ann Lee");
    expect(pages[voicesPage]).toContain("For Jo, from the choir");
    expect(pages[voicesPage]).toContain(`Listen: ${PUBLIC}/voices/${ann.id}`);
    const whole = pages.join("\n");
    expect(whole).not.toContain("Just for the family");
    expect(whole).not.toContain(`/voices/${bo.id}`);
    const image = path.join(work, "voices-page");
    execFileSync("pdftoppm", ["-r", "150", "-f", String(voicesPage + 1), "-l", String(voicesPage + 1), "-png", "-singlefile", book, image]);
    const codes = execFileSync("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", `${image}.png`], { encoding: "utf8" });
    expect(codes.trim().split("\n")).toEqual([`${PUBLIC}/voices/${ann.id}`]);
  }, 120_000);
});
