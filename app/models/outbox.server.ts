import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, lte, min, or, sql } from "drizzle-orm";
import { adminUsers, mailOutbox, mailSuppressions, mailUnsubscribeTokens, type OutboxMessage } from "../../db/schema";
import type { Actor } from "~/auth/actor.server";
import { config } from "~/config.server";
import { db, type Transaction } from "~/db.server";
import type { MailContent } from "~/mail/messages";
import { isPermanentFailure, smtpTransport, type MailTransport, type OutgoingMail } from "~/mail/transport.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { EmailSchema } from "~/models/memory.schema";
import { sitePublicAddress } from "~/models/settings.server";

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

const normaliseEmail = (email: string) => email.trim().toLowerCase();
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** How long a claim on a message holds: longer than the transport's own timeouts, so no live send is ever taken over. */
export const CLAIM_MS = 5 * 60_000;
/** Messages one round sends at most before the loop lets everything else run. */
const BATCH = 5;
/** How often the loop looks for work with nothing waiting (retries due, the day's summaries). */
const POLL_MS = 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;
/** A message that still cannot be sent this long after it was queued is given up on (and shown in the panel). */
const GIVE_UP_AFTER_MS = 2 * 24 * 60 * 60_000;
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
/** The most a picture attached to a message may weigh (a thumbnail is about 20 KB). */
const MAX_ATTACHMENT_BYTES = 1024 * 1024;

/** How long to wait after the `failures`-th failure in a row: 30 s, doubling, at most an hour. */
export const retryDelay = (failures: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS);

/** Whether `recipient` is one mailbox by the guest book's rule (no list, no display name). */
const isOneMailbox = (recipient: string) => EmailSchema.safeParse(recipient).success;

/** Whether this address asked for no more e-mail. */
export function isSuppressed(tx: Pick<Transaction, "select">, email: string): boolean {
  return (
    tx
      .select({ email: mailSuppressions.email })
      .from(mailSuppressions)
      .where(eq(mailSuppressions.email, normaliseEmail(email)))
      .get() !== undefined
  );
}

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
  if (isSuppressed(tx, mail.recipient)) return false;
  if (mail.dedupeKey && tx.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.dedupeKey, mail.dedupeKey)).get()) {
    return false;
  }
  // 192 random bits; only their hash is kept with the address.
  const token = randomBytes(24).toString("base64url");
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

/** The next message due, claimed for this sender (one immediate transaction: no other sender can claim it too). */
function claimNext(now: number): OutboxMessage | undefined {
  return db.transaction(
    (tx) => {
      const row = tx
        .select({ id: mailOutbox.id, attempts: mailOutbox.attempts })
        .from(mailOutbox)
        .where(
          and(
            isNull(mailOutbox.sentAt),
            isNull(mailOutbox.failedAt),
            lte(mailOutbox.nextAttemptAt, new Date(now)),
            or(isNull(mailOutbox.claimedUntil), lte(mailOutbox.claimedUntil, new Date(now))),
          ),
        )
        .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
        .limit(1)
        .get();
      if (!row) return undefined;
      return tx
        .update(mailOutbox)
        .set({ claimedUntil: new Date(now + CLAIM_MS), attempts: row.attempts + 1 })
        .where(eq(mailOutbox.id, row.id))
        .returning()
        .all()[0];
    },
    { behavior: "immediate" },
  );
}

function markSent(id: number, now: number) {
  db.update(mailOutbox)
    .set({ sentAt: new Date(now), claimedUntil: null, lastError: null, text: null, html: null, unsubscribeUrl: null })
    .where(eq(mailOutbox.id, id))
    .run();
}

const describeFailure = (error: unknown) => {
  const { code, responseCode, message } = (error ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown };
  return [code, responseCode, typeof message === "string" ? message : String(error)]
    .filter((part) => part !== undefined && part !== "")
    .join(" ")
    .slice(0, 500);
};

function markFailed(row: OutboxMessage, error: unknown, now: number, permanent: boolean) {
  const giveUp = permanent || now - row.createdAt.getTime() >= GIVE_UP_AFTER_MS;
  db.update(mailOutbox)
    .set({
      claimedUntil: null,
      lastError: describeFailure(error),
      nextAttemptAt: new Date(now + retryDelay(row.attempts)),
      failedAt: giveUp ? new Date(now) : null,
    })
    .where(eq(mailOutbox.id, row.id))
    .run();
}

async function readAttachment(key: string): Promise<Buffer | null> {
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await getMediaStorage().read(key)) {
      size += (chunk as Buffer).length;
      if (size > MAX_ATTACHMENT_BYTES) return null;
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  } catch {
    // Deleted meanwhile: the message goes without that picture.
    return null;
  }
}

async function outgoing(row: OutboxMessage): Promise<OutgoingMail> {
  const attachments: OutgoingMail["attachments"] = [];
  for (const picture of row.attachments ?? []) {
    const content = await readAttachment(picture.key);
    if (content) attachments.push({ cid: picture.cid, filename: picture.filename, content, contentType: "image/jpeg" });
  }
  return {
    from: config.MAIL_FROM!,
    to: row.recipient,
    subject: row.subject,
    text: row.text ?? "",
    html: row.html ?? "",
    messageId: row.messageId,
    headers: {
      ...(row.unsubscribeUrl
        ? { "List-Unsubscribe": `<${row.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
        : {}),
      "Auto-Submitted": "auto-generated",
    },
    attachments,
  };
}

/** When the next message waiting is due (ms), or null when nothing waits. */
function nextDue(): number | null {
  const row = db
    .select({ at: min(mailOutbox.nextAttemptAt) })
    .from(mailOutbox)
    .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)))
    .get();
  return row?.at ? new Date(row.at).getTime() : null;
}

export interface MailSenderOptions {
  transport: MailTransport;
  /** The clock (tests give their own). */
  now?: () => number;
  /** Runs at the start of every round: the day's summaries are queued there. */
  beforeRound?: (now: number) => void;
}

/**
 * The one sender loop of a process. A round sends up to BATCH messages, one
 * at a time; the next round comes at once when more wait, when the next
 * retry is due, or after POLL_MS. When the SMTP server fails (down, slow,
 * refusing), the loop pauses all sending, 30 s after the first failure,
 * doubling to an hour, so a server that is down costs one attempt per pause.
 * Its timer never keeps the process alive.
 */
export class MailSender {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private round: Promise<void> | null = null;
  private stopped = false;
  private again = false;
  private pausedUntil = 0;
  private failuresInARow = 0;
  private readonly now: () => number;

  constructor(private readonly options: MailSenderOptions) {
    this.now = options.now ?? Date.now;
  }

  start() {
    this.schedule(0);
  }

  /** Something was queued: send it soon (after the current round, if one is on). `resume` ends a pause after failures (an admin asked to try again). */
  wake({ resume = false }: { resume?: boolean } = {}) {
    if (this.stopped) return;
    if (resume) this.pausedUntil = 0;
    if (this.round) this.again = true;
    else this.schedule(0);
  }

  /** Stops the loop: resolves once the message being sent (if any) is sent and recorded, or has failed. */
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
    this.options.transport.close();
  }

  /** One round now: sends up to BATCH messages that are due; returns how many were sent. */
  async runOnce(): Promise<number> {
    let sent = 0;
    if (this.now() < this.pausedUntil) return sent;
    for (let i = 0; i < BATCH && !this.stopped; i++) {
      const row = claimNext(this.now());
      if (!row) break;
      if (!isOneMailbox(row.recipient)) {
        // Queued before every address was checked: never handed to nodemailer as a list.
        markFailed(row, new Error("the recipient is not one e-mail address"), this.now(), true);
        continue;
      }
      try {
        await this.options.transport.send(await outgoing(row));
        markSent(row.id, this.now());
        this.failuresInARow = 0;
        sent++;
      } catch (error) {
        const permanent = isPermanentFailure(error);
        markFailed(row, error, this.now(), permanent);
        console.error(
          JSON.stringify({
            level: "warn",
            msg: "an e-mail could not be sent",
            id: row.id,
            attempt: row.attempts,
            error: describeFailure(error),
          }),
        );
        if (!permanent) {
          // The server, not this message: wait before trying anything else.
          this.failuresInARow++;
          this.pausedUntil = this.now() + retryDelay(this.failuresInARow);
          break;
        }
      }
    }
    return sent;
  }

  private schedule(delay: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), Math.max(0, delay));
    this.timer.unref?.();
  }

  private async tick() {
    if (this.stopped || this.round) return;
    this.again = false;
    let sent = 0;
    this.round = (async () => {
      try {
        this.options.beforeRound?.(this.now());
        sent = await this.runOnce();
      } catch (error) {
        console.error(JSON.stringify({ level: "error", msg: "the e-mail sender's round failed", error: String(error) }));
      }
    })();
    await this.round;
    this.round = null;
    if (this.stopped) return;
    const now = this.now();
    if (now < this.pausedUntil) return this.schedule(this.pausedUntil - now);
    if (this.again || sent === BATCH) return this.schedule(this.again ? 0 : 1000);
    const due = nextDue();
    this.schedule(due === null ? POLL_MS : Math.min(POLL_MS, Math.max(due - now, 1000)));
  }
}

let sender: MailSender | undefined;

/** Starts this process's sender loop (once; nothing without SMTP_URL). */
export function startMailSender(beforeRound?: (now: number) => void, transport?: MailTransport) {
  if (sender || !mailEnabled()) return;
  sender = new MailSender({ transport: transport ?? smtpTransport(config.SMTP_URL!), beforeRound });
  sender.start();
}

/** Stops it, once the message it is sending (if any) is recorded. */
export async function stopMailSender() {
  const stopping = sender;
  sender = undefined;
  await stopping?.stop();
}

/** Something was queued: the loop sends it now rather than at its next look (`resume`: even while it waits after failures). */
function wakeMailSender(options?: { resume?: boolean }) {
  sender?.wake(options);
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

/** What the panel says of the outbox: how many wait, and what could not be sent (the newest 50). */
export function outboxStatus(): OutboxStatus {
  const waiting =
    db
      .select({ n: count() })
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)))
      .get()?.n ?? 0;
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

/** Which address an unsubscribe link stops, or undefined for a link this site did not make (or one too old). */
export function findUnsubscribe(token: string): { email: string; done: boolean } | undefined {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return undefined;
  const row = db
    .select()
    .from(mailUnsubscribeTokens)
    .where(eq(mailUnsubscribeTokens.tokenHash, hashToken(token)))
    .get();
  return row ? { email: row.email, done: isSuppressed(db, row.email) } : undefined;
}

/**
 * Stops all e-mail to the address of an unsubscribe link: it is never sent
 * e-mail again (an admin's choice becomes "none"; choosing again in the
 * panel brings it back), and what waits for it is not sent. Returns the
 * address, or undefined for an unknown link.
 */
export function unsubscribe(token: string, now = Date.now()): string | undefined {
  const found = findUnsubscribe(token);
  if (!found) return undefined;
  db.transaction(
    (tx) => {
      tx.insert(mailSuppressions)
        .values({ email: found.email, createdAt: new Date(now) })
        .onConflictDoNothing()
        .run();
      tx.update(adminUsers)
        .set({ mailChoice: "none" })
        .where(sql`lower(trim(${adminUsers.email})) = ${found.email}`)
        .run();
      tx.delete(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), sql`lower(trim(${mailOutbox.recipient})) = ${found.email}`))
        .run();
    },
    { behavior: "immediate" },
  );
  return found.email;
}

/** An address this admin chose again in the panel: it may be sent e-mail again. */
export function allowMailTo(tx: Transaction, email: string) {
  tx.delete(mailSuppressions)
    .where(eq(mailSuppressions.email, normaliseEmail(email)))
    .run();
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
