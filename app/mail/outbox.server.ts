import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import { mailOutbox, mailUnsubscribeTokens, type OutboxMessage, type Role } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { config } from "~/platform/config.server";
import { db, type Transaction } from "~/platform/db.server";
import type { MailContent } from "~/mail/messages";
import { EmailSchema } from "~/utils/email";
import { sitePublicAddress } from "~/site/settings.server";
import { hashToken, isSuppressed, newLinkToken, normaliseEmail } from "./unsubscribe.server";

// The outbox: an e-mail is a row committed in the same transaction as the
// event it tells of, and sent afterwards by one sender loop per process. A
// guest book entry never waits for, or fails with, the SMTP server: it only
// adds a row. The sender claims one row at a time (so a restart, or a second
// process, never sends what another is sending), sends it, and marks it
// sent; a failure waits longer each time, up to an hour, and is given up
// after two days (the panel shows both).

/** E-mail is sent only when the site has an SMTP server (SMTP_URL). */
export const mailEnabled = () => config.SMTP_URL !== undefined;

/** An absolute address on the site, for links in e-mails (PUBLIC_URL, required with SMTP_URL; else the Site tab's public address). */
export const siteAddress = (path: string) => new URL(path, sitePublicAddress()).href;

/** How long a claim on a message holds: longer than the transport's own timeouts, so no live send is ever taken over. */
export const CLAIM_MS = 5 * 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;
/** A message that still cannot be sent this long after it was queued is given up on (and shown in the panel). */
export const GIVE_UP_AFTER_MS = 2 * 24 * 60 * 60_000;
/**
 * Sent messages (their subject and recipient; the body is dropped when sent) are kept this long,
 * and so are messages given up on (with their body and unsubscribe link, so the family can
 * still try them again from the panel for a while).
 */
const KEEP_SENT_MS = 30 * 24 * 60 * 60_000;
/**
 * The most messages that may wait unsent (a mail server down for days, and a busy guest book).
 * Past it the newest are kept: the oldest waiting messages are set aside, given up on with a
 * reason the E-mail tab shows, and their bodies dropped, so the database stays bounded and no
 * notification goes silently. What they told of waits in the admin panel anyway.
 */
export const MAX_WAITING_MAIL = 500;
const SET_ASIDE =
  "Not sent: more e-mails waited than the site keeps while the mail server could not be reached, and the newest were kept. What it told of is in the admin panel.";
/** Unsubscribe links work this long. */
const KEEP_TOKENS_MS = 400 * 24 * 60 * 60_000;

/** How long to wait after the `failures`-th failure in a row: 30 s, doubling, at most an hour. */
export const retryDelay = (failures: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS);

/** Whether `recipient` is one mailbox by the guest book's rule (no list, no display name). */
export const isOneMailbox = (recipient: string) => EmailSchema.safeParse(recipient).success;

export interface MailToQueue {
  /** What it tells of ("new-memory", "summary", "memory-published"…), for the panel and the tests. */
  kind: string;
  recipient: string;
  /** At most one message with this key is ever queued (a day's summary, a visitor's notice). */
  dedupeKey?: string;
  /** Pictures the HTML shows by cid:, read from media storage when the message is sent. */
  attachments?: { cid: string; key: string; filename: string }[];
  /** The message, given its unsubscribe link. */
  compose(unsubscribeUrl: string): MailContent;
  /** Sent no sooner than this long after it is queued (news that may gather more, such as files sent together). */
  holdMs?: number;
  /**
   * Queued even to an address that unsubscribed: only the confirmation of a
   * request to follow, which asks whether to write again at all (bounded to
   * one a day per address by its caller).
   */
  evenIfUnsubscribed?: boolean;
}

/**
 * Queues `mail` inside the caller's transaction, so it is committed with
 * the event it tells of, or not at all. Nothing is queued without an SMTP
 * server, to an address that unsubscribed, or twice for one `dedupeKey`.
 * A message that cannot be composed is logged and left out: it never costs
 * the event. Returns whether it was queued.
 */
export function queueMail(tx: Transaction, mail: MailToQueue, now = Date.now()): boolean {
  if (!mailEnabled()) return false;
  // One mailbox only: nodemailer would read "a@x,b@y" as a list and write to each, and the
  // suppression list is checked per address, so a list could reach people who unsubscribed.
  if (!isOneMailbox(mail.recipient)) {
    console.error(JSON.stringify({ level: "warn", msg: "an e-mail was not queued: its recipient is not one address", kind: mail.kind }));
    return false;
  }
  if (!mail.evenIfUnsubscribed && isSuppressed(tx, mail.recipient)) return false;
  if (mail.dedupeKey && tx.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.dedupeKey, mail.dedupeKey)).get()) {
    return false;
  }
  // Only its hash is kept with the address.
  const token = newLinkToken();
  const unsubscribeUrl = siteAddress(`/unsubscribe/${token}`);
  let content: MailContent;
  try {
    content = mail.compose(unsubscribeUrl);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "an e-mail could not be composed", kind: mail.kind, error: String(error) }));
    return false;
  }
  tx.insert(mailUnsubscribeTokens)
    .values({ tokenHash: hashToken(token), email: normaliseEmail(mail.recipient), createdAt: new Date(now) })
    .run();
  tx.insert(mailOutbox)
    .values({
      kind: mail.kind,
      recipient: mail.recipient.trim(),
      subject: content.subject,
      text: content.text,
      html: content.html,
      attachments: mail.attachments ?? null,
      messageId: `<${randomUUID()}@${new URL(siteAddress("/")).hostname}>`,
      unsubscribeUrl,
      dedupeKey: mail.dedupeKey ?? null,
      createdAt: new Date(now),
      nextAttemptAt: new Date(now + (mail.holdMs ?? 0)),
    })
    .run();
  setAsideBeyondCap(tx, now);
  // Sent once the caller's transaction has committed: the wake-up runs after this synchronous code.
  wakeMailSender();
  return true;
}

/**
 * Writes the message queued under `dedupeKey` afresh with `compose` (given
 * its own unsubscribe link), while it waits and no sender holds it: news
 * that gathers (more files from the same sender). False when there is no
 * such message (none queued, or it is on its way or gone).
 */
export function rewriteWaitingMail(
  tx: Transaction,
  dedupeKey: string,
  compose: (unsubscribeUrl: string) => MailContent,
  now = Date.now(),
): boolean {
  const row = tx
    .select({ id: mailOutbox.id, unsubscribeUrl: mailOutbox.unsubscribeUrl })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.dedupeKey, dedupeKey),
        isNull(mailOutbox.sentAt),
        isNull(mailOutbox.failedAt),
        eq(mailOutbox.attempts, 0),
        or(isNull(mailOutbox.claimedUntil), lte(mailOutbox.claimedUntil, new Date(now))),
      ),
    )
    .get();
  if (!row?.unsubscribeUrl) return false;
  let content: MailContent;
  try {
    content = compose(row.unsubscribeUrl);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "an e-mail could not be composed", dedupeKey, error: String(error) }));
    return false;
  }
  tx.update(mailOutbox).set({ subject: content.subject, text: content.text, html: content.html }).where(eq(mailOutbox.id, row.id)).run();
  return true;
}

/** Keeps at most MAX_WAITING_MAIL messages waiting: the oldest beyond it are given up on, visibly (SET_ASIDE). */
function setAsideBeyondCap(tx: Transaction, now: number) {
  const waiting = and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt));
  const over = (tx.select({ n: count() }).from(mailOutbox).where(waiting).get()?.n ?? 0) - MAX_WAITING_MAIL;
  if (over <= 0) return;
  const oldest = tx
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    // A message being sent right now is left to finish.
    .where(and(waiting, or(isNull(mailOutbox.claimedUntil), lte(mailOutbox.claimedUntil, new Date(now)))))
    .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id))
    .limit(over)
    .all()
    .map((row) => row.id);
  if (oldest.length === 0) return;
  tx.update(mailOutbox)
    .set({ failedAt: new Date(now), lastError: SET_ASIDE, text: null, html: null, unsubscribeUrl: null, attachments: null })
    .where(inArray(mailOutbox.id, oldest))
    .run();
  console.error(
    JSON.stringify({
      level: "warn",
      msg: "the outbox is full: the oldest waiting e-mails were set aside",
      setAside: oldest.length,
      max: MAX_WAITING_MAIL,
    }),
  );
}

/**
 * Set by this process's sender loop while it runs (sender.server.ts):
 * something was queued, so it sends now rather than at its next look
 * (`resume`: even while it waits after failures).
 */
let wakeSender: ((options?: { resume?: boolean }) => void) | undefined;

/** The sender loop asks to be woken when mail is queued (undefined: it has stopped). */
export function onMailQueued(wake: typeof wakeSender) {
  wakeSender = wake;
}

function wakeMailSender(options?: { resume?: boolean }) {
  wakeSender?.(options);
}

/** Something may now be due (the family changed when reminders go): the sender looks at once rather than at its next minute. */
export function lookForDueMail() {
  wakeMailSender();
}

/** Drops old sent messages, old messages given up on (their text and unsubscribe link with them) and old unsubscribe links (the hourly tidy). */
export function pruneMail(now = Date.now()) {
  const before = new Date(now - KEEP_SENT_MS);
  db.delete(mailOutbox)
    .where(
      or(
        and(isNotNull(mailOutbox.sentAt), lt(mailOutbox.sentAt, before)),
        and(isNull(mailOutbox.sentAt), isNotNull(mailOutbox.failedAt), lt(mailOutbox.failedAt, before)),
      ),
    )
    .run();
  db.delete(mailUnsubscribeTokens)
    .where(lt(mailUnsubscribeTokens.createdAt, new Date(now - KEEP_TOKENS_MS)))
    .run();
}

/** A message as the admin panel lists it. */
interface OutboxEntry {
  id: number;
  recipient: string;
  subject: string;
  createdAt: string;
  attempts: number;
  lastError: string | null;
  /** When it is tried again (a message still being retried), or when it was given up (failedAt). */
  nextAttemptAt: string | null;
  failedAt: string | null;
}

export interface OutboxStatus {
  /** Queued and not sent yet (retries included). */
  waiting: number;
  /** Still being retried after a failure, and given up on: what could not be sent. */
  problems: OutboxEntry[];
}

const toEntry = (row: OutboxMessage): OutboxEntry => ({
  id: row.id,
  recipient: row.recipient,
  subject: row.subject,
  createdAt: row.createdAt.toISOString(),
  attempts: row.attempts,
  lastError: row.lastError,
  nextAttemptAt: row.failedAt ? null : row.nextAttemptAt.toISOString(),
  failedAt: row.failedAt?.toISOString() ?? null,
});

/**
 * What the panel says of the outbox: how many wait, and what could not be
 * sent (the newest 50). A helper is told how many wait only: what failed
 * names its recipients (and a mail server's reply often repeats them).
 */
export function outboxStatus(role: Role = "family"): OutboxStatus {
  const waiting =
    db
      .select({ n: count() })
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)))
      .get()?.n ?? 0;
  if (role !== "family") return { waiting, problems: [] };
  const problems = db
    .select()
    .from(mailOutbox)
    .where(and(isNull(mailOutbox.sentAt), or(isNotNull(mailOutbox.failedAt), isNotNull(mailOutbox.lastError))))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(50)
    .all()
    .map(toEntry);
  return { waiting, problems };
}

/**
 * Tries a message that could not be sent (given up on, or waiting for its
 * next try) again now, for the admin `by`: the loop stops waiting after
 * failures too (she may have just fixed the mail server). False when there
 * is no such unsent message.
 */
export function retryMail(id: number, by: Actor, now = Date.now()): boolean {
  const changed = by.commit(
    (tx) =>
      tx
        .update(mailOutbox)
        .set({ failedAt: null, nextAttemptAt: new Date(now), claimedUntil: null })
        // A message set aside when the outbox was full has no body left to send.
        .where(and(eq(mailOutbox.id, id), isNull(mailOutbox.sentAt), isNotNull(mailOutbox.text)))
        .run().changes > 0,
  );
  if (changed) wakeMailSender({ resume: true });
  return changed;
}

/** For the tests: every message queued, oldest first. */
export function listOutbox(kinds?: string[]): OutboxMessage[] {
  return db
    .select()
    .from(mailOutbox)
    .where(kinds ? inArray(mailOutbox.kind, kinds) : undefined)
    .orderBy(asc(mailOutbox.id))
    .all();
}
