import { existsSync } from "node:fs";
import path from "node:path";
import { sweepExpiredSessions } from "~/admins/session.server";
import { config } from "~/platform/config.server";
import { DiskStorage } from "~/media/disk-storage.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { ensureConfiguredAdmin } from "~/admins/admin.server";
import { makeBooksApart, sweepStaleBooks } from "~/keepsakes/book/memory-book.server";
import { openSetupAfter } from "~/admins/first-run.server";
import { queueDueSummaries } from "~/mail/notifications.server";
import { mailEnabled, pruneMail } from "~/mail/outbox.server";
import { registerMailSchedule } from "~/mail/schedule.server";
import { startMailSender, stopMailSender } from "~/mail/sender.server";
import { nextFollowerMailAt, queueDueFollowerMail } from "~/remembrance/follower-news.server";
import { pruneFollowRequests } from "~/remembrance/followers.server";
import { cleanupAbandonedUploads } from "~/uploads/upload-intake.server";
import { requeueUnprocessedUploads, stopProcessing } from "~/uploads/upload-processing.server";

const HOUR = 60 * 60 * 1000;

// The followers' reminders, digests and the message after the service have times of their own:
// the sender wakes for them, and on Fly the server stays up for them (docs/decisions/034).
// Registered as the build is imported, before the server listens; the sender queues them at each round.
registerMailSchedule("followers", { nextDueAt: nextFollowerMailAt, queueDue: queueDueFollowerMail });

/** Frees the bytes of uploads that were started and never finished, and the disk driver's stray temporary files. */
async function tidyUploads() {
  try {
    await cleanupAbandonedUploads();
    const storage = getMediaStorage();
    if (storage instanceof DiskStorage) await storage.sweepTemporaryFiles(6 * HOUR);
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", msg: "media maintenance failed", error: String(error) }));
  }
}

/**
 * Before the server answers its first request: the configured admin exists
 * (so a login right after start works), or, without any admin, the first
 * run's setup code is printed.
 */
export async function prepareAdmins() {
  try {
    await openSetupAfter(ensureConfiguredAdmin(config.ADMIN_USERNAME, config.ADMIN_PASSWORD));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "could not set up the configured admin", error: String(error) }));
  }
}

let started = false;

/** Old sent e-mail and unsubscribe links go; a failure to tidy is only logged. */
function tidyMail() {
  try {
    pruneMail();
    pruneFollowRequests();
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", msg: "mail maintenance failed", error: String(error) }));
  }
}

/**
 * Once per server process, after it starts listening: expired sessions are
 * swept (now and hourly), the e-mail sender loop starts (with SMTP_URL: it
 * also makes the day's summaries, and what the registered schedules have due), processing that a
 * restart interrupted is finished, and abandoned uploads are freed (now and hourly).
 */
export async function startBackgroundWork() {
  if (started) return;
  started = true;
  sweepExpiredSessions();
  setInterval(() => sweepExpiredSessions(), HOUR).unref();
  if (mailEnabled()) {
    startMailSender((now) => queueDueSummaries(now));
    tidyMail();
    setInterval(tidyMail, HOUR).unref();
  }
  // Memory books left in the temporary folder by downloads given up on, or by a crash.
  const sweepBooks = () => void sweepStaleBooks().catch((error: unknown) => console.error(error));
  sweepBooks();
  setInterval(sweepBooks, HOUR).unref();
  if (process.env.NODE_ENV === "test") return;
  // Books are made at the lowest CPU priority in a process of their own (decision 030).
  const bookProcess = path.resolve("server/memory-book-process.mjs");
  if (existsSync(bookProcess)) makeBooksApart(bookProcess);
  requeueUnprocessedUploads();
  void tidyUploads();
  setInterval(() => void tidyUploads(), HOUR).unref();
}

/**
 * On shutdown, before the database closes: the e-mail being sent (if any)
 * is finished and recorded, so the next start does not send it again, and
 * media work stops (ffmpeg with it), to be taken up again at the next start.
 */
export async function stopBackgroundWork() {
  await Promise.all([stopMailSender(), stopProcessing()]);
}
