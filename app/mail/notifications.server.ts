import { createHash } from "node:crypto";
import { and, asc, desc, eq, gte, isNotNull, like } from "drizzle-orm";
import { adminUsers, followers, mailOutbox, memories, uploads, type Memory, type Role, type Upload } from "../../db/schema";
import type { AdminActor } from "~/platform/actor.server";
import { db, type Transaction } from "~/platform/db.server";
import {
  memoryPublishedMail,
  newMemoryMail,
  newUploadMail,
  summaryMail,
  uploadsPublishedMail,
  voicePublishedMail,
  type MailFrame,
} from "~/mail/messages";
import { translate } from "~/i18n/i18n.server";
import { isLanguage, type Language } from "~/i18n/languages";
import { instantOf } from "~/site/service-time.server";
import { formatIsoDate } from "~/utils/time";
import type { MailPreferences, MailPreferencesInput } from "./mail.schema";
import { mailEnabled, queueMail, rewriteWaitingMail, siteAddress } from "./outbox.server";
import { allowMailTo, isSuppressed } from "./unsubscribe.server";
import { getSiteSettings } from "~/site/settings.server";
import { readFirstInEffect } from "~/site/read-first.server";
import { ADMIN_TABS, summaryItems } from "./summary-items.server";
import { parseSubmittedBy } from "~/utils/submitted-by";
import { senderFor } from "~/admins/contact-details";

// Who is told what, and when: admins of each new memory or upload (those
// who chose "each"), or once a day of everything waiting ("daily", at their
// time in the site's time zone); a visitor who asked, once, when the family
// publishes what they sent. While helpers read first (app/site/read-first.server.ts)
// what waits is theirs: only helpers are told of it, and the family's summary
// keeps to the RSVPs. What an admin is told of a visitor is what her role
// reads (app/admins/contact-details.ts): names and words, and never a
// visitor's address or phone number to a helper. Every message is queued in
// the transaction of the event it tells of (outbox.server.ts sends it).

/** New uploads from one sender within this long of their first make one e-mail ("Ann shared a photo"; several wait together). */
const UPLOAD_MAIL_WINDOW_MS = 10 * 60_000;

/** What every e-mail says around its words: whose memorial, why it came, how to stop it (and, for an admin, where to choose). */
function mailFrame(unsubscribeUrl: string, reason: string, forAdmin: boolean): MailFrame {
  const site = getSiteSettings();
  return {
    personName: site.personName,
    siteTitle: site.siteTitle,
    reason,
    unsubscribeUrl,
    settingsUrl: forAdmin ? siteAddress("/admin/email") : undefined,
  };
}

/** The frame of an e-mail to a visitor, in their language: why it came (`mail.reasons.<reason>`) and how to stop it. */
export function visitorFrame(unsubscribeUrl: string, reason: string, language: Language): MailFrame {
  return { ...mailFrame(unsubscribeUrl, translate(language)(`mail.reasons.${reason}`), false), language };
}

/** The language a row was written in (English for one from before languages, or gone). */
export const languageOf = (row: { language: string } | undefined): Language => (isLanguage(row?.language) ? row.language : "en");

/** The frame of the confirmation to a follower (row `followerId`), in the language they asked in. */
export function followConfirmFrame(tx: Pick<Transaction, "select">, followerId: number, unsubscribeUrl: string): MailFrame {
  const row = tx.select({ language: followers.language }).from(followers).where(eq(followers.id, followerId)).get();
  return visitorFrame(unsubscribeUrl, "follow", languageOf(row));
}

const EACH_REASON = "you chose an e-mail for each new memory, photo and video in the admin panel";

/** Admins who chose an e-mail for each new item, with an address, and their role: the helpers alone while they read first. */
const eachAdmins = (tx: Pick<Transaction, "select">) =>
  tx
    .select({ id: adminUsers.id, email: adminUsers.email, role: adminUsers.role })
    .from(adminUsers)
    .where(
      and(
        eq(adminUsers.mailChoice, "each"),
        isNotNull(adminUsers.email),
        readFirstInEffect(tx) ? eq(adminUsers.role, "helper") : undefined,
      ),
    )
    .all() as { id: number; email: string; role: Role }[];

/** A new memory waits: an e-mail to each admin who chose "each", in the memory's own transaction. */
export function queueNewMemoryMail(tx: Transaction, memory: Pick<Memory, "id" | "name" | "message" | "canDisplay">, now = Date.now()) {
  if (!mailEnabled()) return;
  for (const admin of eachAdmins(tx)) {
    queueMail(
      tx,
      {
        kind: "new-memory",
        recipient: admin.email,
        dedupeKey: `new-memory:${memory.id}:${admin.id}`,
        compose: (unsubscribeUrl) =>
          newMemoryMail(mailFrame(unsubscribeUrl, EACH_REASON, true), {
            name: memory.name,
            message: memory.message,
            canDisplay: memory.canDisplay,
            reviewUrl: siteAddress(`/admin/memories/${memory.id}`),
            tabUrl: siteAddress(ADMIN_TABS.memories),
          }),
      },
      now,
    );
  }
}

const senderOf = (submittedBy: string | null) => parseSubmittedBy(submittedBy ?? "") ?? null;
const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** How long the e-mail about new uploads waits for the rest of what the sender is sending, so it names every file. */
export const UPLOAD_MAIL_GATHER_MS = 2 * 60_000;

/**
 * The files one sender shared since `since` (their first file's time), oldest
 * first (the new one included): those whose submittedBy names the same address.
 */
function filesSentTogether(tx: Pick<Transaction, "select">, email: string | undefined, since: Date) {
  return tx
    .select({ type: uploads.type, originalName: uploads.originalName, submittedBy: uploads.submittedBy })
    .from(uploads)
    .where(gte(uploads.createdAt, since))
    .orderBy(asc(uploads.id))
    .all()
    .filter((file) => (senderOf(file.submittedBy)?.email.toLowerCase() ?? "") === (email?.toLowerCase() ?? ""))
    .map((file) => ({ type: file.type, originalName: file.originalName ?? "Unknown" }));
}

/**
 * When the sender's (`group`'s) ten minutes began: the time of the first
 * file of the newest e-mail about them to any admin (the last part of its
 * key), if that is less than UPLOAD_MAIL_WINDOW_MS ago.
 */
function windowStartedAt(tx: Pick<Transaction, "select">, group: string, now: number) {
  const latest = tx
    .select({ dedupeKey: mailOutbox.dedupeKey })
    .from(mailOutbox)
    .where(like(mailOutbox.dedupeKey, `new-upload:%:${group}:%`))
    .orderBy(desc(mailOutbox.id))
    .get();
  const started = Number(latest?.dedupeKey?.split(":").at(-1));
  return Number.isSafeInteger(started) && now - started < UPLOAD_MAIL_WINDOW_MS ? started : undefined;
}

/**
 * A new photo, video or voice waits: an e-mail to each admin who chose
 * "each", in the upload's own transaction; one per sender in the ten minutes
 * from their first file (someone sharing ten photos sends one e-mail, not
 * ten, even across the hour), naming every file. A sender is their address
 * and their network (`network`, the signed upload's), not the name they
 * type: twenty names from one place are one e-mail. The e-mail waits
 * UPLOAD_MAIL_GATHER_MS for the rest of the files, and each file that
 * arrives meanwhile is added to it; files after it is sent, within the ten
 * minutes, wait in the list without another e-mail.
 */
export function queueNewUploadMail(
  tx: Transaction,
  upload: Pick<Upload, "type" | "originalName" | "submittedBy" | "createdAt">,
  network: string | null = null,
  now = Date.now(),
) {
  if (!mailEnabled()) return;
  const sender = senderOf(upload.submittedBy);
  const group = digest(`${sender?.email.toLowerCase() ?? upload.submittedBy ?? ""}|${network ?? ""}`);
  const started = windowStartedAt(tx, group, now) ?? upload.createdAt.getTime();
  const files = sender
    ? filesSentTogether(tx, sender.email, new Date(started))
    : [{ type: upload.type, originalName: upload.originalName ?? "Unknown" }];
  for (const admin of eachAdmins(tx)) {
    const dedupeKey = `new-upload:${admin.id}:${group}:${started}`;
    const compose = (unsubscribeUrl: string) =>
      newUploadMail(mailFrame(unsubscribeUrl, EACH_REASON, true), {
        sender: senderFor(admin.role, upload.submittedBy) ?? "Someone",
        files,
        tabUrl: siteAddress(ADMIN_TABS.uploads),
      });
    if (rewriteWaitingMail(tx, dedupeKey, compose, now)) continue;
    queueMail(tx, { kind: "new-upload", recipient: admin.email, dedupeKey, compose, holdMs: UPLOAD_MAIL_GATHER_MS }, now);
  }
}

/**
 * The family published a memory whose author asked to be told: the one
 * e-mail, queued in the publishing transaction. Only the address the author
 * gave with their own memory is written to, and only once the family acts,
 * so nobody can make the site write to an address of their choosing.
 * Returns whether it was queued.
 */
export function queueMemoryPublishedMail(tx: Transaction, memory: Pick<Memory, "id" | "name" | "email" | "canDisplay">, now = Date.now()) {
  const language = languageOf(tx.select({ language: memories.language }).from(memories).where(eq(memories.id, memory.id)).get());
  return queueMail(
    tx,
    {
      kind: "memory-published",
      recipient: memory.email,
      dedupeKey: `memory-published:${memory.id}`,
      compose: (unsubscribeUrl) =>
        memoryPublishedMail(visitorFrame(unsubscribeUrl, "memory", language), {
          name: memory.name,
          shownPublicly: memory.canDisplay,
          url: siteAddress("/guestbook"),
        }),
    },
    now,
  );
}

/**
 * The family published a photo or video whose sender asked to be told: one e-mail per sender and
 * day; a voice memory: one of its own, with the address where it plays.
 */
export function queueUploadPublishedMail(
  tx: Transaction,
  upload: Pick<Upload, "id" | "submittedBy" | "type" | "canDisplay">,
  now = Date.now(),
) {
  const sender = senderOf(upload.submittedBy);
  if (!sender) return false;
  const language = languageOf(tx.select({ language: uploads.language }).from(uploads).where(eq(uploads.id, upload.id)).get());
  if (upload.type === "AUDIO") {
    return queueMail(
      tx,
      {
        kind: "uploads-published",
        recipient: sender.email,
        dedupeKey: `voice-published:${sender.email.toLowerCase()}:${upload.id}`,
        compose: (unsubscribeUrl) =>
          voicePublishedMail(visitorFrame(unsubscribeUrl, "voice", language), {
            name: sender.name,
            url: upload.canDisplay ? siteAddress(`/voices/${upload.id}`) : null,
          }),
      },
      now,
    );
  }
  const day = formatIsoDate(now, getSiteSettings().timeZone);
  return queueMail(
    tx,
    {
      kind: "uploads-published",
      recipient: sender.email,
      dedupeKey: `uploads-published:${sender.email.toLowerCase()}:${day}`,
      compose: (unsubscribeUrl) =>
        uploadsPublishedMail(visitorFrame(unsubscribeUrl, "uploads", language), {
          name: sender.name,
          url: siteAddress("/gallery"),
        }),
    },
    now,
  );
}

/**
 * The day's summaries that are due: for each admin who chose "daily", once
 * their time has come on the site's day (in its time zone), one e-mail of
 * everything waiting, unless nothing waits and no one said they attended.
 * The day is recorded with the message in one transaction, so a summary is
 * made once a day, whatever restarts. Run by the sender loop every minute.
 */
export function queueDueSummaries(now = Date.now()): number {
  if (!mailEnabled()) return 0;
  const { timeZone } = getSiteSettings();
  const today = formatIsoDate(now, timeZone);
  const due = db
    .select({ id: adminUsers.id, digestTime: adminUsers.digestTime, digestSentFor: adminUsers.digestSentFor })
    .from(adminUsers)
    .where(and(eq(adminUsers.mailChoice, "daily"), isNotNull(adminUsers.email)))
    .all()
    .filter((admin) => admin.digestSentFor !== today && now >= instantOf(`${today}T${admin.digestTime}`, timeZone).getTime());
  let queued = 0;
  for (const { id } of due) {
    db.transaction(
      (tx) => {
        const admin = tx.select().from(adminUsers).where(eq(adminUsers.id, id)).get();
        if (!admin?.email || admin.mailChoice !== "daily" || admin.digestSentFor === today) return;
        // While helpers read first, what waits is theirs: the family's summary keeps to the RSVPs.
        const { items, pictures } = summaryItems(tx, now, admin.role, admin.role === "helper" || !readFirstInEffect(tx));
        const anything = items.memories.length + items.uploads.length + items.rsvps.length > 0;
        const recipient = admin.email;
        const reason = `you chose a daily summary at ${admin.digestTime} in the admin panel`;
        if (
          anything &&
          queueMail(
            tx,
            {
              kind: "summary",
              recipient,
              dedupeKey: `summary:${id}:${today}`,
              attachments: pictures,
              compose: (unsubscribeUrl) => summaryMail(mailFrame(unsubscribeUrl, reason, true), items),
            },
            now,
          )
        ) {
          queued++;
        }
        tx.update(adminUsers).set({ digestSentFor: today }).where(eq(adminUsers.id, id)).run();
      },
      { behavior: "immediate" },
    );
  }
  return queued;
}

/** An admin's e-mail choice, for the E-mail tab. */
export function getMailPreferences(adminId: number): MailPreferences {
  const row = db
    .select({ email: adminUsers.email, mailChoice: adminUsers.mailChoice, digestTime: adminUsers.digestTime })
    .from(adminUsers)
    .where(eq(adminUsers.id, adminId))
    .get();
  return {
    email: row?.email ?? null,
    mailChoice: row?.mailChoice ?? "none",
    digestTime: row?.digestTime ?? "08:00",
    unsubscribed: row?.email ? isSuppressed(db, row.email) : false,
  };
}

/**
 * Saves the admin `by`'s own e-mail choice. Choosing again undoes an
 * unsubscribe link used for that address (she asked, logged in). A daily
 * time already past today starts tomorrow, so saving never sends at once.
 */
export function saveMailPreferences(input: MailPreferencesInput, by: AdminActor, now = Date.now()): MailPreferences {
  const { timeZone } = getSiteSettings();
  const today = formatIsoDate(now, timeZone);
  const past = now >= instantOf(`${today}T${input.digestTime}`, timeZone).getTime();
  by.commit((tx) => {
    tx.update(adminUsers)
      .set({
        email: input.email ?? null,
        mailChoice: input.mailChoice,
        digestTime: input.digestTime,
        ...(input.mailChoice === "daily" && past ? { digestSentFor: today } : {}),
      })
      .where(eq(adminUsers.id, by.id))
      .run();
    if (input.email && input.mailChoice !== "none") allowMailTo(tx, input.email);
  });
  return getMailPreferences(by.id);
}
