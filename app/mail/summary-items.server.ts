import { and, asc, count, eq, gt } from "drizzle-orm";
import { memories, rsvps, uploads, type Role } from "../../db/schema";
import { senderFor } from "~/admins/contact-details";
import type { Transaction } from "~/platform/db.server";
import { formatDuration } from "~/utils/time";
import { firstLines, oneLine, type SummaryItems } from "./messages";
import { siteAddress } from "./outbox.server";

// What a daily summary holds: the memories, photos, videos and voice
// memories waiting (a few of each, the rest counted) and the day's RSVPs.

export const ADMIN_TABS = { memories: "/admin", uploads: "/admin/uploads", attendance: "/admin/attendance" };
/** What one summary shows at most; the rest is counted ("And 4 more in the panel"). */
const SUMMARY_MEMORIES = 20;
const SUMMARY_UPLOADS = 12;
const DAY_MS = 24 * 60 * 60_000;

/** The memories, photos and videos waiting now: the first few of each, and how many in all. */
function waitingNow(tx: Pick<Transaction, "select">) {
  const waitingMemories = tx
    .select({ id: memories.id, name: memories.name, message: memories.message })
    .from(memories)
    .where(eq(memories.status, "PENDING"))
    .orderBy(asc(memories.createdAt), asc(memories.id))
    .limit(SUMMARY_MEMORIES)
    .all();
  const memoryCount = tx.select({ n: count() }).from(memories).where(eq(memories.status, "PENDING")).get()?.n ?? 0;
  const waitingUploads = tx
    .select({
      id: uploads.id,
      type: uploads.type,
      originalName: uploads.originalName,
      submittedBy: uploads.submittedBy,
      thumbnailKey: uploads.thumbnailKey,
      durationSec: uploads.durationSec,
      caption: uploads.caption,
    })
    .from(uploads)
    .where(eq(uploads.status, "PENDING"))
    .orderBy(asc(uploads.createdAt), asc(uploads.id))
    .limit(SUMMARY_UPLOADS)
    .all();
  const uploadCount = tx.select({ n: count() }).from(uploads).where(eq(uploads.status, "PENDING")).get()?.n ?? 0;
  const voiceCount =
    tx
      .select({ n: count() })
      .from(uploads)
      .where(and(eq(uploads.status, "PENDING"), eq(uploads.type, "AUDIO")))
      .get()?.n ?? 0;
  return { waitingMemories, memoryCount, waitingUploads, uploadCount, voiceCount };
}

const NOTHING_WAITING: ReturnType<typeof waitingNow> = {
  waitingMemories: [],
  memoryCount: 0,
  waitingUploads: [],
  uploadCount: 0,
  voiceCount: 0,
};

/**
 * How the summary names a waiting upload: "Photo from Ann: picnic.jpg", or a
 * voice memory by its length and its line ("Voice memory from Ann, 0:42:
 * “Happy birthday, Mum”"), its file name being the recorder's.
 */
function uploadLabel(upload: ReturnType<typeof waitingNow>["waitingUploads"][number], sender: string) {
  if (upload.type !== "AUDIO") return `${upload.type === "VIDEO" ? "Video" : "Photo"} from ${sender}: ${upload.originalName ?? "Unknown"}`;
  const length = upload.durationSec === null ? "" : `, ${formatDuration(upload.durationSec)}`;
  return `Voice memory from ${sender}${length}${upload.caption ? `: “${oneLine(upload.caption, 120)}”` : ""}`;
}

/**
 * What waits now, and the RSVPs of the last day, for a summary to an admin
 * of `role` (a helper reads senders by name only). `waiting`
 * false (the family's summary while helpers read first): the RSVPs alone,
 * no memory, photo or video read at all.
 */
export function summaryItems(
  tx: Pick<Transaction, "select">,
  now: number,
  role: Role,
  waiting = true,
): { items: SummaryItems; pictures: { cid: string; key: string; filename: string }[] } {
  const { waitingMemories, memoryCount, waitingUploads, uploadCount, voiceCount } = waiting ? waitingNow(tx) : NOTHING_WAITING;
  const newRsvps = tx
    .select({ name: rsvps.name, guestCount: rsvps.guestCount, notes: rsvps.notes })
    .from(rsvps)
    .where(gt(rsvps.createdAt, new Date(now - DAY_MS)))
    .orderBy(asc(rsvps.createdAt), asc(rsvps.id))
    .all();
  const pictures: { cid: string; key: string; filename: string }[] = [];
  const items: SummaryItems = {
    memories: waitingMemories.map((memory) => ({
      name: memory.name,
      opening: firstLines(memory.message),
      url: siteAddress(`/admin/memories/${memory.id}`),
    })),
    moreMemories: memoryCount - waitingMemories.length,
    uploads: waitingUploads.map((upload) => {
      const cid = upload.thumbnailKey ? `thumbnail-${upload.id}@memorial` : null;
      if (cid) pictures.push({ cid, key: upload.thumbnailKey!, filename: `thumbnail-${upload.id}.jpg` });
      const sender = senderFor(role, upload.submittedBy) ?? "Someone";
      return {
        label: uploadLabel(upload, sender),
        url: siteAddress(`/admin/uploads/${upload.id}`),
        cid,
      };
    }),
    moreUploads: uploadCount - waitingUploads.length,
    voices: voiceCount,
    rsvps: newRsvps,
    tabs: {
      memories: siteAddress(ADMIN_TABS.memories),
      uploads: siteAddress(ADMIN_TABS.uploads),
      attendance: siteAddress(ADMIN_TABS.attendance),
    },
  };
  return { items, pictures };
}
