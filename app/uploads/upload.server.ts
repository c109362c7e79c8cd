import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { uploads, type MediaType, type Status, type Upload, setAsideRows } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { olderThan, toListPage, type ListPage, type PageCursor } from "~/platform/page-cursor.server";
import { queueUploadPublishedMail } from "~/mail/notifications.server";
import { isReady, mediaUrl, needsProcessing, processingStateOf, publicCopyKeys } from "./processing-state.server";
import { cancelProcessing, enqueueProcessing, turnImage } from "./upload-processing.server";
import { ONLY_FAMILY_UNDOES } from "~/admins/roles";
import { UploadRefused } from "./upload-refusal.server";
import { toGalleryItem } from "./gallery.server";
import { senderName } from "~/utils/submitted-by";
import { type AdminUpload, type UploadView } from "./upload.schema";

export function toUploadView(upload: Upload): UploadView {
  return {
    ...toGalleryItem(upload),
    width: upload.width,
    height: upload.height,
    status: upload.status,
    createdAt: upload.createdAt.toISOString(),
  };
}

export function getUpload(id: number): Upload | undefined {
  return db.select().from(uploads).where(eq(uploads.id, id)).get();
}

/** Only what visitors have seen can be taken back: unpublishing anything else is refused. */
const ONLY_PUBLISHED_UPLOADS_CAN_BE_HIDDEN = "Only a published photo or video can be unpublished.";

/**
 * Publishes, rejects or unpublishes an upload. Unpublishing (HIDDEN) is for
 * a published upload only: it keeps its files and can be published again.
 * A family admin's rejection deletes its files from storage at once: the
 * family asked for it to be gone. They are deleted only once the rejection
 * is committed, so a failed write (a full disk, or the admin's session ended
 * meanwhile) never leaves a PENDING upload whose files are gone. A helper's
 * rejection sets it aside instead: its files are kept, and only the family
 * can publish it or keep it unpublished (its processing, stopped, then starts
 * again). The admin `by` (their username) is kept with when, as who moderated it.
 */
export async function setUploadStatus(id: number, status: Status, by: Actor, now = Date.now()) {
  const current = getUpload(id);
  if (!current) return undefined;
  const helper = by.role === "helper";
  // Rejecting again what is rejected changes nothing for a helper: a family's rejection stays the family's.
  if (helper && status === "REJECTED" && current.status === "REJECTED") return current;
  if (current.status === "REJECTED" && status !== "REJECTED") {
    if (!current.setAside) throw new UploadRefused(409, "status", "This upload was deleted permanently and cannot be published.");
    if (helper) throw new UploadRefused(403, "status", ONLY_FAMILY_UNDOES);
  }
  if (status === "HIDDEN" && current.status !== "APPROVED" && current.status !== "HIDDEN" && !current.setAside) {
    throw new UploadRefused(409, "status", ONLY_PUBLISHED_UPLOADS_CAN_BE_HIDDEN);
  }
  if (status === "APPROVED" && current.processingError) {
    throw new UploadRefused(409, "status", cannotPublish(current.processingError));
  }
  if (status === "APPROVED" && !isReady(current)) throw new UploadRefused(409, "status", notReadyYet(current.type));
  const moderation =
    status === "PENDING" ? { moderatedBy: null, moderatedAt: null } : { moderatedBy: by.username, moderatedAt: new Date(now) };
  if (status !== "REJECTED") {
    const [updated] = by.commit((tx) => {
      // The one e-mail its sender asked for, the first time the family publishes it.
      const tellSender = status === "APPROVED" && current.notifyWhenPublished && !current.publishedNoticeAt;
      if (tellSender) queueUploadPublishedMail(tx, current, now);
      // All RETURNING rows are read, so a failed commit throws instead of passing unseen.
      return tx
        .update(uploads)
        .set({ status, setAside: false, ...moderation, ...(tellSender ? { publishedNoticeAt: new Date(now) } : {}) })
        .where(eq(uploads.id, id))
        .returning()
        .all();
    });
    // Brought back from the Set aside view before it was ready: its copies are made now.
    if (updated && current.setAside && needsProcessing(updated)) void enqueueProcessing(id);
    return updated;
  }
  // A helper's rejection keeps every file for the family; the family's removes them (below).
  const kept = helper ? {} : { storageKey: null, displayKey: null, thumbnailKey: null };
  const [rejected] = by.commit((tx) =>
    tx
      .update(uploads)
      .set({ status, setAside: helper, ...moderation, ...kept })
      .where(eq(uploads.id, id))
      .returning()
      .all(),
  );
  if (!rejected) return undefined;
  // A web copy being made of it stops now (ffmpeg included).
  cancelProcessing(id);
  if (!helper) await deleteStoredFiles(current);
  return rejected;
}

/**
 * Deletes an upload for good, for the family admin `by`: its row, then its
 * files (the original and every copy), only once the row's deletion is
 * committed, so a refused or failed delete never leaves a row whose files
 * are gone. A helper's delete sets it aside instead (setUploadStatus).
 * Returns the deleted upload, or undefined when there was none.
 */
export async function deleteUpload(id: number, by: Actor): Promise<Upload | undefined> {
  if (by.role === "helper") return setUploadStatus(id, "REJECTED", by);
  const [deleted] = by.commit((tx) => tx.delete(uploads).where(eq(uploads.id, id)).returning().all());
  if (!deleted) return undefined;
  cancelProcessing(id);
  await deleteStoredFiles(deleted);
  return deleted;
}

/** Removes an upload's files from storage; one that cannot be removed is logged and left (it is no longer served: no row names it). */
async function deleteStoredFiles(upload: Upload) {
  const keys = [...new Set([upload.storageKey, ...publicCopyKeys(upload)].filter((key): key is string => !!key))];
  await Promise.all(
    keys.map((key) =>
      getMediaStorage()
        .delete(key)
        .catch((error: unknown) => {
          console.error(JSON.stringify({ level: "warn", msg: "could not delete a deleted upload's file", key, error: String(error) }));
        }),
    ),
  );
}

/** Why an upload processing gave up on stays unpublished, as the admin reads it. */
const cannotPublish = (reason: string) =>
  `This file cannot be published because it could not be processed: ${reason}. You can delete it, or ask the sender for another copy.`;

/** Why an upload still being processed cannot be published yet, as the admin reads it. */
const notReadyYet = (type: MediaType) =>
  type === "IMAGE"
    ? "This photo is still being prepared. It can be published once it is ready."
    : `This ${type === "VIDEO" ? "video" : "voice memory"} is still being prepared so that every browser can play it. It can be published once it is ready.`;

export function toAdminUpload(upload: Upload): AdminUpload {
  return {
    ...toUploadView(upload),
    submittedBy: upload.submittedBy,
    mimeType: upload.mimeType,
    sizeBytes: upload.sizeBytes,
    originalUrl: upload.storageKey ? mediaUrl(upload.id, upload.storageKey) : null,
    processingError: upload.processingError,
    processing: processingStateOf(upload),
    setAside: upload.setAside,
    canDisplay: upload.canDisplay,
    moderatedBy: upload.moderatedBy,
    moderatedAt: upload.moderatedAt?.toISOString() ?? null,
  };
}

/** What the Published view lists: what visitors see, and what the family has unpublished (it can be published again). */
const PUBLISHED_STATUSES = ["APPROVED", "HIDDEN"] as const satisfies Status[];
const PUBLISHED_UPLOADS_PAGE_SIZE = 24;

// A helper's search matches a sender by the name she reads (senderName), never by the address
// beside it, or she could find out an address by guessing it: SQLite asks the same function.
db.$client.function("sender_name", { deterministic: true }, (submittedBy) =>
  senderName(typeof submittedBy === "string" ? submittedBy : null),
);

/**
 * Published and unpublished photos and videos, newest first, for the admin:
 * `limit` after the `before` cursor, only those whose sender or file name
 * holds `search` (any case) when given: the sender's whole submittedBy with
 * `matchAddresses` (the family's search), else only the name a helper reads
 * of it. A full page ends with the cursor to continue from.
 */
export function listPublishedUploads({
  search,
  before,
  limit = PUBLISHED_UPLOADS_PAGE_SIZE,
  matchAddresses = false,
}: {
  search?: string;
  before?: PageCursor;
  limit?: number;
  matchAddresses?: boolean;
}): ListPage<AdminUpload> {
  const holds = (text: SQLiteColumn | SQL) => sql`instr(lower(coalesce(${text}, '')), lower(${search})) > 0`;
  const sender = matchAddresses ? uploads.submittedBy : sql`sender_name(${uploads.submittedBy})`;
  const rows = db
    .select()
    .from(uploads)
    .where(
      and(
        inArray(uploads.status, PUBLISHED_STATUSES),
        search ? sql`(${holds(sender)} or ${holds(uploads.originalName)})` : undefined,
        before ? olderThan(uploads.createdAt, uploads.id, before) : undefined,
      ),
    )
    .orderBy(desc(uploads.createdAt), desc(uploads.id))
    .limit(limit)
    .all();
  return toListPage(rows, limit, toAdminUpload);
}

/** Uploads waiting for review, oldest first. */
export function listPendingUploads(): AdminUpload[] {
  return db.select().from(uploads).where(eq(uploads.status, "PENDING")).orderBy(uploads.createdAt, uploads.id).all().map(toAdminUpload);
}

/** Photos and videos helpers set aside, the newest set aside first: the family's Set aside view. */
export function listSetAsideUploads(): AdminUpload[] {
  return db
    .select()
    .from(uploads)
    .where(setAsideRows(uploads))
    .orderBy(desc(uploads.moderatedAt), desc(uploads.id))
    .all()
    .map(toAdminUpload);
}

export function countSetAsideUploads(): number {
  return db.select({ n: count() }).from(uploads).where(setAsideRows(uploads)).get()?.n ?? 0;
}

export function countPendingUploads(): number {
  return db.select({ n: count() }).from(uploads).where(eq(uploads.status, "PENDING")).get()?.n ?? 0;
}

export function getAdminUpload(id: number): AdminUpload | undefined {
  const upload = getUpload(id);
  return upload ? toAdminUpload(upload) : undefined;
}

export type RotateDirection = "left" | "right";

/**
 * Turns a photo a quarter left or right for the admin `by`. The public copy
 * and thumbnail are made again from the original under new names, so no
 * cache can show the old picture, and the old files are removed; the new
 * ones are removed instead when the change is not committed.
 */
export async function rotateUpload(
  id: number,
  direction: RotateDirection,
  by: Actor,
): Promise<{ newUrl: string; upload: AdminUpload } | undefined> {
  const turned = await turnImage(id, direction, by);
  return turned ? { newUrl: turned.url, upload: toAdminUpload(turned) } : undefined;
}
