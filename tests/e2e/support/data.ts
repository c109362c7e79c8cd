// Test data goes in through the app's own model code, on the same SQLite
// file the server under test uses (see playwright.config.ts; in vitest, the
// test file's own database, which tests/integration/text-browser.test.ts
// starts its server on).
import { createReadStream, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { desc, eq } from "drizzle-orm";
import sharp from "sharp";
import {
  lifeMoments,
  lifeStory,
  memories,
  poems,
  signedUploads,
  siteSettings,
  uploads,
  type MediaType,
  type Status,
} from "../../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle, processUpload } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { setMemoryStatus, submitMemory } from "~/guestbook/memory.server";
import { type PoemInput } from "~/poems/poem.schema";
import { createPoem } from "~/poems/poem.server";
import type { MomentInput } from "~/life/life.schema";
import { addMoment, saveStory } from "~/life/life.server";
import { SettingsPatch } from "~/site/settings.schema";
import { submitterLabel } from "~/utils/submitted-by";
import { makeVoiceFile } from "../../support/voice-fixtures";
import { updateSiteSettings } from "~/site/settings.server";
import { resetHeroPhoto } from "~/site/hero-photo.server";
import { resetKarenSong } from "~/site/karen-song.server";

/** Back to a new site's settings (app/content.ts): public, the bundled photo and song, no passcode. */
export function resetSiteSettings() {
  db.delete(siteSettings).run();
}

/** Back to the bundled hero photo and Karen Mode song, their files deleted (as the Site tab's reset buttons do); then resetSiteSettings. */
export async function removeSiteMedia() {
  await resetHeroPhoto(operator("admin"));
  await resetKarenSong(operator("admin"));
}

/** Changes settings as the Site tab would (checked by the same schema); throws when they are refused. */
export async function changeSiteSettings(patch: Record<string, string | string[]>) {
  const result = await updateSiteSettings(SettingsPatch.parse(patch), operator("admin"));
  if (!result.ok) throw new Error(`settings refused: ${JSON.stringify(result.errors)}`);
  return result.settings;
}

/** The languages visitors may choose, and the family's main language (English unless given). */
export function chooseLanguages(languages: string[], mainLanguage = "en") {
  return changeSiteSettings({ languages, mainLanguage });
}

/** No life story and no timeline, as on a new site. */
export function removeLifeStory() {
  db.delete(lifeMoments).run();
  db.delete(lifeStory).run();
}

/** A published life story with `moments` on its timeline, written as the Life Story tab writes them. */
export function publishLifeStory(story: string, moments: Partial<MomentInput>[] = []) {
  removeLifeStory();
  saveStory({ story, photoId: null }, operator("admin"), true);
  for (const moment of moments) addMoment({ date: "2000", title: "A moment", text: "", photoId: null, ...moment }, operator("admin"));
}

export function removeAllPoems() {
  db.delete(poems).run();
}

/** A poem as the admin form adds it; `addedAt` (ms) sets when it was added, for a page that says so. */
export function addPoem(input: Partial<PoemInput> & { addedAt?: number } = {}) {
  const poem = createPoem(
    {
      title: input.title ?? `A poem ${Math.random().toString(36).slice(2, 8)}`,
      content: input.content ?? "Line one\nLine two",
      author: input.author,
    },
    operator(),
  );
  if (input.addedAt !== undefined)
    db.update(poems)
      .set({ createdAt: new Date(input.addedAt) })
      .where(eq(poems.id, poem.id))
      .run();
  return poem;
}

export function removeAllMemories() {
  db.delete(memories).run();
}

/** A memory as a visitor would submit it, then moderated to `status`. */
export function addMemory(
  input: { name?: string; message?: string; canDisplay?: boolean; status?: Status; email?: string; phone?: string } = {},
) {
  const { id } = submitMemory(
    MemoryApiSchema.parse({
      name: input.name ?? "Test Visitor",
      email: input.email ?? "visitor@example.com",
      phone: input.phone,
      message: input.message ?? "A memory long enough to keep.",
      canDisplay: input.canDisplay ?? true,
    }),
  );
  if (input.status && input.status !== "PENDING") setMemoryStatus(id, input.status, operator());
  return id;
}

export function latestMemory() {
  return db.select().from(memories).orderBy(desc(memories.id)).limit(1).get();
}

export function removeAllUploads() {
  db.delete(uploads).run();
  db.delete(signedUploads).run();
}

export function latestUpload() {
  return db.select().from(uploads).orderBy(desc(uploads.id)).limit(1).get();
}

const SAMPLE_VIDEO = path.resolve("tests/fixtures/sample.mp4");

/**
 * A photo, video or voice memory shared as a visitor would (by `sender`, "Test Visitor"
 * unless given), processed, then moderated to `status`.
 */
export async function addUpload(
  input: {
    type?: MediaType;
    status?: Status;
    name?: string;
    colour?: string;
    sender?: string;
    /** The sender's address ("visitor@example.com" unless given; null: a voice sent with a name alone). */
    email?: string | null;
    width?: number;
    /** A video or recording of the test's own (tests/fixtures/sample.mp4, or a 10 s voice made by makeVoiceFile, unless given). */
    file?: string;
    /** A voice memory's line, and whether visitors may hear it (true unless given). */
    caption?: string;
    canDisplay?: boolean;
  } = {},
) {
  const type = input.type ?? "IMAGE";
  const stream =
    type === "AUDIO"
      ? createReadStream(input.file ?? makeVoiceFile(path.join(tmpdir(), `e2e-voices-${process.pid}`), "m4a"))
      : type === "VIDEO"
        ? createReadStream(input.file ?? SAMPLE_VIDEO)
        : Readable.from([
            await sharp({
              create: {
                width: input.width ?? 640,
                height: ((input.width ?? 640) * 3) / 4,
                channels: 3,
                background: input.colour ?? "#7a9cc6",
              },
            })
              .jpeg()
              .toBuffer(),
          ]);
  const originalName = input.name ?? { IMAGE: "family-photo.jpg", VIDEO: "family-video.mp4", AUDIO: "voice-memo.m4a" }[type];
  const key = await storeFormUpload({ stream, filename: originalName });
  const email = input.email === undefined ? "visitor@example.com" : input.email;
  const submittedBy = email ? submitterLabel(input.sender ?? "Test Visitor", email) : (input.sender ?? "Test Visitor");
  const view = await registerFormUpload(key, {
    submittedBy,
    originalName,
    declaredType: type === "AUDIO" ? "AUDIO" : null,
    caption: input.caption,
    canDisplay: input.canDisplay,
  });
  await processingIdle();
  if (input.status && input.status !== "PENDING") await setUploadStatus(view.id, input.status, operator());
  return view.id;
}

/** Publishes (APPROVED) or deletes (REJECTED) an upload, as the admin's buttons do. */
export async function moderateUpload(id: number, status: Status) {
  await setUploadStatus(id, status, operator("admin"));
}

/**
 * `count` more published items that show the published upload `sourceId`'s
 * files (quick: no processing), named `${prefix}-001…`, newest last, one
 * second apart after everything already there.
 */
export function addGalleryCopies(sourceId: number, count: number, { prefix = "photo", type = "IMAGE" as "IMAGE" | "VIDEO" } = {}) {
  const source = db.select().from(uploads).where(eq(uploads.id, sourceId)).get()!;
  const newest = db.select().from(uploads).orderBy(desc(uploads.createdAt)).limit(1).get()!.createdAt.getTime();
  const { id: _id, ...files } = source;
  db.insert(uploads)
    .values(
      Array.from({ length: count }, (_, i) => ({
        ...files,
        type,
        status: "APPROVED" as const,
        originalName: `${prefix}-${String(i + 1).padStart(3, "0")}.${type === "VIDEO" ? "mp4" : "jpg"}`,
        // Named by its sender on the page: the sender's name tells the copies apart.
        submittedBy: `${prefix}-${String(i + 1).padStart(3, "0")} (copies@example.com)`,
        createdAt: new Date(newest + (i + 1) * 1000),
      })),
    )
    .run();
}

/**
 * A "photo" that is not one (a JPEG's first bytes, then garbage), as it is
 * when its processing finished after the sender stopped waiting: kept for the
 * admin, marked as unprocessable.
 */
export async function addUnprocessableUpload(name = "broken-photo.jpg") {
  const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("not really a JPEG after its first bytes")]);
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: name });
  db.delete(signedUploads).where(eq(signedUploads.key, key)).run();
  const row = db
    .insert(uploads)
    .values({
      type: "IMAGE",
      originalName: name,
      url: "",
      storageKey: key,
      mimeType: "image/jpeg",
      sizeBytes: bytes.length,
      submittedBy: "Test Visitor (visitor@example.com)",
    })
    .returning()
    .get();
  await processUpload(row.id);
  return row.id;
}

/**
 * A video shared and stored, its processing not begun (as while it waits
 * its turn, or after a restart): `finishProcessing` does it.
 */
export async function addWaitingVideo(name = "waiting-video.mp4") {
  const key = await storeFormUpload({ stream: createReadStream(SAMPLE_VIDEO), filename: name });
  db.delete(signedUploads).where(eq(signedUploads.key, key)).run();
  const [row] = db
    .insert(uploads)
    .values({
      type: "VIDEO",
      originalName: name,
      url: "",
      storageKey: key,
      mimeType: "video/mp4",
      sizeBytes: statSync(SAMPLE_VIDEO).size,
      submittedBy: "Test Visitor (visitor@example.com)",
    })
    .returning()
    .all();
  return row!.id;
}

/** Makes a waiting upload's copies (a video's poster, then its web copy). */
export async function finishProcessing(id: number) {
  await processUpload(id);
  await processingIdle();
}
