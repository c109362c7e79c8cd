import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import { mailOutbox, type OutboxMessage } from "../../db/schema";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { isPermanentFailure, smtpTransport, type MailTransport, type OutgoingMail } from "~/mail/transport.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { CLAIM_MS, GIVE_UP_AFTER_MS, isOneMailbox, mailEnabled, onMailQueued, retryDelay } from "./outbox.server";
import { nextMailDueAt, queueScheduledMail } from "./schedule.server";

// The sender loop: one per process, it claims the next message due in the
// outbox (outbox.server.ts), sends it, and records how it went.

/** Messages one round sends at most before the loop lets everything else run. */
const BATCH = 5;
/** How often the loop looks for work at the latest, whatever the schedule says (schedule.server.ts). */
const POLL_MS = 60_000;
/** The most a picture attached to a message may weigh (a thumbnail is about 20 KB). */
const MAX_ATTACHMENT_BYTES = 1024 * 1024;

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

/** The message's language, as its HTML part names it (`<html lang>`): the header mail programs read. */
function contentLanguage(html: string | null): Record<string, string> {
  const lang = /^<!DOCTYPE html>\n<html lang="([A-Za-z-]+)"/.exec(html ?? "")?.[1];
  return lang ? { "Content-Language": lang } : {};
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
      ...contentLanguage(row.html),
    },
    attachments,
  };
}

export interface MailSenderOptions {
  transport: MailTransport;
  /** The clock (tests give their own). */
  now?: () => number;
  /** Runs at the start of every round: the day's summaries are queued there. */
  beforeRound?: (now: number) => void;
}

/**
 * The one sender loop of a process. A round queues what is due (the day's
 * summaries, the registered schedules) and sends up to BATCH messages, one
 * at a time; the next round comes at once when more wait, when the next
 * message, summary or scheduled e-mail is due, or after POLL_MS. When the
 * SMTP server fails (down, slow, refusing), the loop pauses all sending, 30 s
 * after the first failure, doubling to an hour, so a server that is down
 * costs one attempt per pause.
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
        const startedAt = this.now();
        this.options.beforeRound?.(startedAt);
        queueScheduledMail(startedAt);
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
    this.schedule(this.untilNextDue(now));
  }

  /**
   * How long to sleep: until the next message, summary or scheduled e-mail,
   * to the minute, and POLL_MS at most. A time already past is what this
   * round could not take: looked at again at the next poll.
   */
  private untilNextDue(now: number): number {
    let due: number | null;
    try {
      due = nextMailDueAt(now);
    } catch (error) {
      console.error(JSON.stringify({ level: "error", msg: "could not tell when e-mail is next due", error: String(error) }));
      return POLL_MS;
    }
    return due === null || due <= now ? POLL_MS : Math.min(POLL_MS, Math.max(due - now, 1000));
  }
}

let sender: MailSender | undefined;

/** Starts this process's sender loop (once; nothing without SMTP_URL). */
export function startMailSender(beforeRound?: (now: number) => void, transport?: MailTransport) {
  if (sender || !mailEnabled()) return;
  const started = new MailSender({ transport: transport ?? smtpTransport(config.SMTP_URL!), beforeRound });
  sender = started;
  onMailQueued((options) => started.wake(options));
  started.start();
}

/** Stops it, once the message it is sending (if any) is recorded. */
export async function stopMailSender() {
  const stopping = sender;
  sender = undefined;
  onMailQueued(undefined);
  await stopping?.stop();
}
