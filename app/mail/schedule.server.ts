import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { adminUsers, mailOutbox } from "../../db/schema";
import { db } from "~/platform/db.server";
import { instantOf } from "~/site/service-time.server";
import { getSiteSettings } from "~/site/settings.server";
import { formatIsoDate } from "~/utils/time";
import { mailEnabled } from "./outbox.server";

// When the site next has e-mail to send: the outbox's next message (a retry,
// or news held back a moment), each admin's daily summary, and what other
// rooms schedule (the followers' reminders). On Fly the server stops itself
// when idle; it stays up while e-mail is due within the hour, and an hourly
// wake-up starts it (docs/decisions/034-waking-on-time.md). The sender loop
// also sleeps until the next of these times.

/** Something that sends e-mail at times of its own, registered with `registerMailSchedule`. */
export interface MailSchedule {
  /**
   * When this source next has something to queue (ms since the epoch), or
   * null when nothing is coming. Once queued, a message is the outbox's to
   * send: answer the next time that is not queued yet. Called every 30 s
   * and at each of the sender's rounds, so keep it to a query or two.
   */
  nextDueAt(now: number): number | null;
  /** Queues what is due at `now`; run by the sender at the start of every round (at least once a minute, and at each time `nextDueAt` gave). */
  queueDue?(now: number): void;
}

const schedules = new Map<string, MailSchedule>();

/**
 * Adds a source of scheduled e-mail under `name` (registering the name again
 * replaces it); returns what removes it. Call it once, at the start or when
 * the module that owns the e-mail is first used: this module imports nothing
 * of the caller's, so any room may register without an import cycle.
 */
export function registerMailSchedule(name: string, schedule: MailSchedule): () => void {
  schedules.set(name, schedule);
  return () => {
    if (schedules.get(name) === schedule) schedules.delete(name);
  };
}

/** Runs every registered source's `queueDue`; a failure of one is logged and leaves the others to run. */
export function queueScheduledMail(now: number) {
  for (const [name, schedule] of schedules) {
    try {
      schedule.queueDue?.(now);
    } catch (error) {
      console.error(JSON.stringify({ level: "error", msg: "scheduled e-mail could not be queued", source: name, error: String(error) }));
    }
  }
}

/**
 * When the outbox's next message can be sent: its next attempt, or later
 * while a sender holds it (a message on its way, or claimed by a process
 * that crashed). Messages sent or given up on wait for nothing.
 */
function nextOutboxMessageAt(): number | null {
  const row = db
    .select({ at: sql<number | null>`min(max(${mailOutbox.nextAttemptAt}, coalesce(${mailOutbox.claimedUntil}, 0)))` })
    .from(mailOutbox)
    .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)))
    .get();
  return row?.at ?? null;
}

/** The day after `day` ("YYYY-MM-DD") in `timeZone`: noon plus 24 hours stays on the next day across a clock change. */
const dayAfter = (day: string, timeZone: string) => formatIsoDate(instantOf(`${day}T12:00`, timeZone).getTime() + 24 * 3_600_000, timeZone);

/**
 * The next daily summary to make: for each admin who chose one, today's time
 * unless today's is made (queueDueSummaries records the day), else tomorrow's.
 */
function nextSummaryAt(now: number): number | null {
  const admins = db
    .select({ digestTime: adminUsers.digestTime, digestSentFor: adminUsers.digestSentFor })
    .from(adminUsers)
    .where(and(eq(adminUsers.mailChoice, "daily"), isNotNull(adminUsers.email)))
    .all();
  if (admins.length === 0) return null;
  const { timeZone } = getSiteSettings();
  const today = formatIsoDate(now, timeZone);
  const tomorrow = dayAfter(today, timeZone);
  return Math.min(
    ...admins.map(({ digestTime, digestSentFor }) =>
      instantOf(`${digestSentFor === today ? tomorrow : today}T${digestTime}`, timeZone).getTime(),
    ),
  );
}

/**
 * When the site next has e-mail to send or to make (ms), or null: the
 * earliest of the outbox's next message, the admins' daily summaries and
 * every registered source. A time in the past means now. Null without an
 * SMTP server: nothing is ever sent then.
 */
export function nextMailDueAt(now = Date.now()): number | null {
  if (!mailEnabled()) return null;
  const times = [nextOutboxMessageAt(), nextSummaryAt(now)];
  for (const [name, schedule] of schedules) {
    try {
      times.push(schedule.nextDueAt(now));
    } catch (error) {
      console.error(JSON.stringify({ level: "error", msg: "scheduled e-mail could not be looked up", source: name, error: String(error) }));
    }
  }
  const known = times.filter((time): time is number => time !== null && Number.isFinite(time));
  return known.length ? Math.min(...known) : null;
}

/**
 * E-mail overdue by this much is not the sender's to wait for: it sends what
 * is due within seconds of a start, so a time that stays past (a source that
 * never queues its e-mail, a mail server paused after failures) must not keep
 * the machine up for ever.
 */
const OVERDUE_MS = 60 * 60_000;

/** Whether e-mail is due within `ms` from `now`, or overdue by less than an hour: the server then stays up to send it. */
export function mailDueWithin(ms: number, now = Date.now()): boolean {
  try {
    const due = nextMailDueAt(now);
    return due !== null && due - now <= ms && now - due <= OVERDUE_MS;
  } catch (error) {
    // A database that cannot answer must not keep the machine up for ever.
    console.error(JSON.stringify({ level: "error", msg: "could not tell when e-mail is next due", error: String(error) }));
    return false;
  }
}
