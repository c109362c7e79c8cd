// What the tests of admin changes moderate: a pending memory, a processed
// pending photo, and the files in media storage (to see that a refused change
// left none behind and removed none); and what they look at afterwards: a
// setting, the admins' names, an answer sending to the login page.
import { readdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { expect } from "vitest";
import { adminUsers, memories, siteSettings, uploads } from "../../db/schema";
import { db } from "~/platform/db.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";

const OBJECTS = path.join(process.env.STORAGE_DIR!, "objects");

export function pendingMemory() {
  return db
    .insert(memories)
    .values({ name: "Cousin Ellen", email: "ellen@example.com", message: "I remember the summer at the lake." })
    .returning({ id: memories.id })
    .all()[0]!.id;
}
export const memoryRow = (id: number) => db.select().from(memories).where(eq(memories.id, id)).get()!;

/** A photo shared by a visitor and processed: pending, with its copies in storage. */
export async function pendingPhoto(filename = "lake.jpg", submittedBy = "Ann (ann@example.com)") {
  const bytes = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#6a8caf" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename });
  const view = await registerFormUpload(key, { submittedBy, originalName: filename });
  await processingIdle();
  return view.id;
}
export const uploadRow = (id: number) => db.select().from(uploads).where(eq(uploads.id, id)).get()!;

/** Every file in media storage, sorted; none while nothing was ever stored. */
export const storedFiles = () => {
  try {
    return readdirSync(OBJECTS, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(OBJECTS, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
};

/** A stored site setting's value, or undefined. */
export const setting = (key: string) => db.select().from(siteSettings).where(eq(siteSettings.key, key)).get()?.value;

/** Every admin's username. */
export const adminNames = () =>
  db
    .select({ username: adminUsers.username })
    .from(adminUsers)
    .all()
    .map((row) => row.username);

/** The answer is a redirect to the login page. */
export const expectSentToLogin = (response: Response) => {
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toMatch(/^\/admin\/login(\?|$)/);
};
