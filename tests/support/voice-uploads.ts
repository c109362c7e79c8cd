// Voice memories sent through the real pipeline (stored, identified, made into
// their web copy), then published or not, for the keepsake's and the book's tests.
import { createReadStream } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { uploads, type Upload } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { setUploadStatus } from "~/uploads/upload.server";

export interface VoiceSent {
  submittedBy: string;
  /** The name it was sent under; the file's own name unless given. */
  name?: string;
  caption?: string;
  canDisplay?: boolean;
  status?: "APPROVED" | "PENDING" | "REJECTED";
}

/** Sends `file` as the voice form does, waits for its processing, then publishes (or rejects) it; returns its row. */
export async function sendVoice(file: string, { submittedBy, name, caption, canDisplay, status = "APPROVED" }: VoiceSent): Promise<Upload> {
  const originalName = name ?? path.basename(file);
  const key = await storeFormUpload({ stream: createReadStream(file), filename: originalName });
  const view = await registerFormUpload(key, { submittedBy, originalName, declaredType: "AUDIO", caption, canDisplay });
  await processingIdle();
  if (status !== "PENDING") await setUploadStatus(view.id, status, operator());
  return db.select().from(uploads).where(eq(uploads.id, view.id)).get()!;
}
