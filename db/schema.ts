import { and, eq, sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

// HIDDEN: published once, then taken back by the family (unpublished): kept, shown to no visitor, and can be published again.
export const STATUSES = ["PENDING", "APPROVED", "REJECTED", "HIDDEN"] as const;
export type Status = (typeof STATUSES)[number];

// What an admin may do: "family" everything, "helper" moderation only (app/admins/roles.ts).
export const ROLES = ["family", "helper"] as const;
export type Role = (typeof ROLES)[number];
const role = () => text("role", { enum: ROLES }).notNull().default("family");
const roleCheck = (table: string) => sql.raw(`"${table}"."role" in ('family', 'helper')`);

// AUDIO: a voice memory (issue 45), kept as sent and played from an AAC-in-M4A copy.
export const MEDIA_TYPES = ["IMAGE", "VIDEO", "AUDIO"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

// Timestamps are integer milliseconds since the epoch, filled in by SQLite
// itself so that a row written by any client gets one.
const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("createdAt", { mode: "timestamp_ms" }).notNull().default(nowMs);
const status = () => text("status", { enum: STATUSES }).notNull().default("PENDING");
/**
 * Who last approved or rejected a row (the admin's username, kept if the admin is removed) and when.
 * setAside: rejected by a helper, so kept whole for the family to undo (app/admins/roles.ts); it is
 * shown only in the family's "Set aside by helpers" view, never to a visitor.
 */
const moderation = () => ({
  moderatedBy: text("moderatedBy"),
  moderatedAt: integer("moderatedAt", { mode: "timestamp_ms" }),
  setAside: integer("setAside", { mode: "boolean" }).notNull().default(false),
});
/** The rows of a table with moderation() columns that a helper set aside: rejected, and kept whole for the family. */
export const setAsideRows = (table: { status: AnySQLiteColumn; setAside: AnySQLiteColumn }) =>
  and(eq(table.status, "REJECTED"), eq(table.setAside, true));
const statusCheck = (table: string) => sql.raw(`"${table}"."status" in ('PENDING', 'APPROVED', 'REJECTED', 'HIDDEN')`);

export const sessions = sqliteTable(
  "sessions",
  {
    sid: text("sid").primaryKey(),
    sess: text("sess", { mode: "json" }).notNull(),
    expire: integer("expire", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("sessions_expire_idx").on(t.expire)],
);

export const users = sqliteTable("users", {
  id: text("id")
    .primaryKey()
    .default(sql`(lower(hex(randomblob(16))))`),
  email: text("email").unique(),
  firstName: text("firstName"),
  lastName: text("lastName"),
  profileImageUrl: text("profileImageUrl"),
  createdAt: createdAt(),
  updatedAt: integer("updatedAt", { mode: "timestamp_ms" }).notNull().default(nowMs),
});

export const memories = sqliteTable(
  "memories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    message: text("message").notNull(),
    canDisplay: integer("canDisplay", { mode: "boolean" }).notNull().default(true),
    status: status(),
    createdAt: createdAt(),
    ...moderation(),
    // A correction by the family: the name and message as the visitor sent
    // them (kept from the first correction on), and who corrected it last, when.
    originalName: text("originalName"),
    originalMessage: text("originalMessage"),
    editedBy: text("editedBy"),
    editedAt: integer("editedAt", { mode: "timestamp_ms" }),
    // The visitor asked for one e-mail once the family has published it; when that e-mail was queued.
    notifyWhenPublished: integer("notifyWhenPublished", { mode: "boolean" }).notNull().default(false),
    publishedNoticeAt: integer("publishedNoticeAt", { mode: "timestamp_ms" }),
    // The language the visitor used (app/i18n/languages.ts): their e-mails are written in it.
    language: text("language").notNull().default("en"),
  },
  (t) => [
    index("memories_status_created_idx").on(t.status, t.createdAt),
    index("memories_public_idx").on(t.status, t.canDisplay, t.createdAt),
    check("memories_status_check", statusCheck("memories")),
    check("memories_can_display_check", sql`${t.canDisplay} in (0, 1)`),
  ],
);

export const uploads = sqliteTable(
  "uploads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    submittedBy: text("submittedBy"),
    type: text("type", { enum: MEDIA_TYPES }).notNull(),
    originalName: text("originalName"),
    url: text("url").notNull(),
    thumbnailUrl: text("thumbnailUrl"),
    width: integer("width"),
    height: integer("height"),
    durationSec: integer("durationSec"),
    status: status(),
    createdAt: createdAt(),
    // Where the files live in storage. Only the server ever names them; the
    // public url/thumbnailUrl above point at the media route, which looks
    // these up.
    storageKey: text("storageKey"),
    mimeType: text("mimeType"),
    sizeBytes: integer("sizeBytes"),
    displayKey: text("displayKey"),
    thumbnailKey: text("thumbnailKey"),
    // Quarter turns clockwise applied to the original (admin rotation), so a
    // public copy is always made fresh from the original.
    rotation: integer("rotation").notNull().default(0),
    processedAt: integer("processedAt", { mode: "timestamp_ms" }),
    // Why processing gave up on this upload (unreadable, over a size or time
    // limit); the admin sees it, and it cannot be published.
    processingError: text("processingError"),
    // A video's web copy (H.264 + AAC MP4, docs/decisions/016-web-video.md):
    // "remuxed" when the original already played everywhere and was copied
    // without its metadata, "resized" when it played everywhere but was
    // re-encoded smaller (larger than 1080 px or 4 Mbit/s, or turned),
    // "encoded" when it was re-encoded because not every browser plays it,
    // "kept" when a video published before web copies existed could not get
    // one and keeps its older public copy; null until then (a video is
    // published only once it is not null).
    webVideo: text("webVideo", { enum: ["remuxed", "resized", "encoded", "kept"] }),
    ...moderation(),
    // The sender asked for an e-mail once the family has published it (to the address in
    // submittedBy); when that e-mail was queued.
    notifyWhenPublished: integer("notifyWhenPublished", { mode: "boolean" }).notNull().default(false),
    publishedNoticeAt: integer("publishedNoticeAt", { mode: "timestamp_ms" }),
    // A voice memory's typed line: what it says, read in place of listening (its text alternative).
    caption: text("caption"),
    // As the guest book's permission box: without it, a published voice is kept for the family
    // (the keepsake) and shown to no visitor.
    canDisplay: integer("canDisplay", { mode: "boolean" }).notNull().default(true),
    // The language the sender used (app/i18n/languages.ts): their e-mails are written in it.
    language: text("language").notNull().default("en"),
  },
  (t) => [
    index("uploads_status_created_idx").on(t.status, t.createdAt),
    index("uploads_status_type_created_idx").on(t.status, t.type, t.createdAt),
    check("uploads_status_check", statusCheck("uploads")),
    check("uploads_type_check", sql`${t.type} in ('IMAGE', 'VIDEO', 'AUDIO')`),
    check("uploads_can_display_check", sql`${t.canDisplay} in (0, 1)`),
  ],
);

/**
 * Object keys the server has handed out for a direct or multipart upload and
 * not yet seen completed. Completion only accepts a key found here, and keys
 * left here too long are abandoned uploads whose bytes get cleaned up.
 */
export const signedUploads = sqliteTable(
  "signed_uploads",
  {
    key: text("key").primaryKey(),
    multipartUploadId: text("multipartUploadId"),
    // The network the upload was started from (an IPv4 address or an IPv6
    // /64), for the per-address byte budget.
    clientKey: text("clientKey"),
    // Bytes already stored for this upload (a finished PUT, or the parts of
    // a multipart upload so far): they count against the storage budget.
    bytes: integer("bytes").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("signed_uploads_created_idx").on(t.createdAt)],
);

/**
 * Events counted by the rate limits (a submission, a failed login, bytes
 * uploaded), kept in the database so that a restart does not reset them.
 * `weight` is 1 for an event, or a number of bytes.
 */
export const rateLimitHits = sqliteTable(
  "rate_limit_hits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    weight: integer("weight").notNull().default(1),
  },
  (t) => [index("rate_limit_hits_bucket_key_at_idx").on(t.bucket, t.key, t.at), index("rate_limit_hits_at_idx").on(t.at)],
);

export const MAIL_CHOICES = ["each", "daily", "none"] as const;
export type MailChoice = (typeof MAIL_CHOICES)[number];

export const adminUsers = sqliteTable(
  "admin_users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull().unique(),
    password: text("password").notNull(),
    createdAt: createdAt(),
    // E-mail when something waits: for each new item, one summary a day at
    // digestTime ("HH:MM" in the site's time zone), or none; digestSentFor is
    // the site's day ("YYYY-MM-DD") of the last summary made (or found empty).
    email: text("email"),
    mailChoice: text("mailChoice", { enum: MAIL_CHOICES }).notNull().default("none"),
    digestTime: text("digestTime").notNull().default("08:00"),
    digestSentFor: text("digestSentFor"),
    role: role(),
  },
  // One admin per username whatever its case: "Margaret" logs in as "margaret" (a phone capitalises the first letter).
  (t) => [
    uniqueIndex("admin_users_username_nocase_idx").on(sql`${t.username} collate nocase`),
    check("admin_users_role_check", roleCheck("admin_users")),
  ],
);

export const poems = sqliteTable(
  "poems",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    title: text("title").notNull(),
    content: text("content").notNull(),
    author: text("author"),
    createdAt: createdAt(),
  },
  (t) => [index("poems_created_idx").on(t.createdAt)],
);

export const rsvps = sqliteTable(
  "rsvps",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    guestCount: integer("guestCount").notNull().default(1),
    notes: text("notes"),
    createdAt: createdAt(),
    // The language the visitor used (app/i18n/languages.ts): their e-mails are written in it.
    language: text("language").notNull().default("en"),
  },
  (t) => [index("rsvps_created_idx").on(t.createdAt), check("rsvps_guest_count_check", sql`${t.guestCount} between 1 and 10`)],
);

/**
 * The family's settings (site_settings): one row per setting the family has
 * changed, its value as JSON; a setting without a row has its default from
 * app/content.ts. Besides the fields of the settings API it holds the
 * passcode's hash and the stored hero photo and song.
 */
export const siteSettings = sqliteTable("site_settings", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).notNull(),
  updatedAt: integer("updatedAt", { mode: "timestamp_ms" }).notNull().default(nowMs),
  updatedBy: text("updatedBy"),
});

/**
 * One-time links that let a new admin (family or helper) choose their own password.
 * Only a hash of the token is stored; the link itself is shown once.
 */
export const adminInvitations = sqliteTable(
  "admin_invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("tokenHash").notNull().unique(),
    createdBy: text("createdBy"),
    createdAt: createdAt(),
    expiresAt: integer("expiresAt", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("usedAt", { mode: "timestamp_ms" }),
    usedBy: text("usedBy"),
    // What the person becomes on accepting it.
    role: role(),
  },
  (t) => [index("admin_invitations_expires_idx").on(t.expiresAt), check("admin_invitations_role_check", roleCheck("admin_invitations"))],
);

/**
 * E-mail waiting to be sent, committed with the event it tells of (a new
 * memory, the family publishing one…) and sent after by one sender loop.
 * A sender claims a message until `claimedUntil`, so no two send it; once
 * sent its body is dropped (it held an unsubscribe link) and `sentAt` kept.
 * A message that keeps failing waits longer each time (`nextAttemptAt`), and
 * one given up on has `failedAt`; the admin panel shows those.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    text: text("text"),
    html: text("html"),
    // Pictures shown in the HTML part, read from media storage when sent: [{cid, key, filename}].
    attachments: text("attachments", { mode: "json" }).$type<{ cid: string; key: string; filename: string }[]>(),
    // The same Message-ID on every attempt, so a message sent twice reads as one.
    messageId: text("messageId").notNull(),
    // Its unsubscribe link, for the List-Unsubscribe header (dropped with the body once sent).
    unsubscribeUrl: text("unsubscribeUrl"),
    // One message per event and recipient (a day's summary, a visitor's notice) even if asked twice.
    dedupeKey: text("dedupeKey").unique(),
    createdAt: createdAt(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("nextAttemptAt", { mode: "timestamp_ms" }).notNull().default(nowMs),
    claimedUntil: integer("claimedUntil", { mode: "timestamp_ms" }),
    sentAt: integer("sentAt", { mode: "timestamp_ms" }),
    failedAt: integer("failedAt", { mode: "timestamp_ms" }),
    lastError: text("lastError"),
  },
  (t) => [index("mail_outbox_due_idx").on(t.sentAt, t.failedAt, t.nextAttemptAt)],
);

/** Unsubscribe links: only a hash of each token, and the address it stops. */
export const mailUnsubscribeTokens = sqliteTable(
  "mail_unsubscribe_tokens",
  {
    tokenHash: text("tokenHash").primaryKey(),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("mail_unsubscribe_tokens_created_idx").on(t.createdAt)],
);

/** Addresses that unsubscribed (lower case): nothing is sent to them again. */
export const mailSuppressions = sqliteTable("mail_suppressions", {
  email: text("email").primaryKey(),
  createdAt: createdAt(),
});

/**
 * The life story (one row, id 1): the family's text, the answers they gave
 * the guided questions, the page's photo (a published gallery photo) and
 * whether visitors see it. Until `published`, no visitor sees any of it.
 */
export const lifeStory = sqliteTable(
  "life_story",
  {
    id: integer("id").primaryKey(),
    story: text("story").notNull().default(""),
    // The guided questions' answers ({question: answer}), kept so the family can come back to them.
    answers: text("answers", { mode: "json" })
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'`),
    photoId: integer("photoId").references(() => uploads.id, { onDelete: "set null" }),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    publishedAt: integer("publishedAt", { mode: "timestamp_ms" }),
    updatedAt: integer("updatedAt", { mode: "timestamp_ms" }).notNull().default(nowMs),
    updatedBy: text("updatedBy"),
  },
  (t) => [check("life_story_one_row", sql`${t.id} = 1`)],
);

/**
 * The life story's timeline: dated moments (a year, a month or a day, as
 * `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, which sort as text), each with an
 * optional published gallery photo.
 */
export const lifeMoments = sqliteTable(
  "life_moments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    date: text("date").notNull(),
    title: text("title").notNull(),
    text: text("text").notNull().default(""),
    photoId: integer("photoId").references(() => uploads.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("life_moments_date_idx").on(t.date, t.id)],
);

/** What a follower may ask to hear about (app/remembrance/follow.schema.ts). */
export const FOLLOW_TOPICS = ["service", "new", "reminders"] as const;
export type FollowTopic = (typeof FOLLOW_TOPICS)[number];

/**
 * People who asked to be kept posted ("Remember with us"), without an
 * account. A row is made by the form and written to once (the confirmation)
 * until its link is opened (`confirmedAt`); a change asked of a confirmed
 * follower waits in `requested` for its own confirmation. Only a hash of the
 * link's token is kept. Deleted when they stop; never shown to visitors.
 */
export const followers = sqliteTable(
  "followers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // Trimmed and lower-cased: one row per address.
    email: text("email").notNull(),
    name: text("name").notNull(),
    topics: text("topics", { mode: "json" }).$type<FollowTopic[]>().notNull(),
    // What the latest request asked for, applied when its link is opened.
    requested: text("requested", { mode: "json" }).$type<{ name: string; topics: FollowTopic[] }>(),
    tokenHash: text("tokenHash"),
    // When the last confirmation e-mail was queued: at most one a day per address.
    confirmationSentAt: integer("confirmationSentAt", { mode: "timestamp_ms" }),
    confirmedAt: integer("confirmedAt", { mode: "timestamp_ms" }),
    // The weekly digest tells of what was published after this, and was last queued then.
    newsSince: integer("newsSince", { mode: "timestamp_ms" }),
    lastDigestAt: integer("lastDigestAt", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    // The language the visitor used (app/i18n/languages.ts): their e-mails are written in it.
    language: text("language").notNull().default("en"),
  },
  (t) => [uniqueIndex("followers_email_idx").on(t.email), index("followers_token_idx").on(t.tokenHash)],
);

/**
 * Candles lit by visitors. One without words is APPROVED at once; one with a
 * name or a line is PENDING until the family publishes it, like a memory.
 * `counted`: the first candle of its visitor that day, the only one the
 * count includes. `visitor` is a hash, never an address.
 */
export const candles = sqliteTable(
  "candles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name"),
    message: text("message"),
    status: status(),
    counted: integer("counted", { mode: "boolean" }).notNull().default(true),
    visitor: text("visitor").notNull(),
    // The site's day it was lit ("YYYY-MM-DD" in its time zone).
    day: text("day").notNull(),
    createdAt: createdAt(),
    ...moderation(),
  },
  (t) => [
    index("candles_status_created_idx").on(t.status, t.createdAt),
    index("candles_visitor_day_idx").on(t.visitor, t.day),
    check("candles_status_check", statusCheck("candles")),
  ],
);

export type Memory = typeof memories.$inferSelect;
export type Upload = typeof uploads.$inferSelect;
export type SignedUpload = typeof signedUploads.$inferSelect;
export type Poem = typeof poems.$inferSelect;
export type Rsvp = typeof rsvps.$inferSelect;
export type AdminUser = typeof adminUsers.$inferSelect;
export type AdminInvitation = typeof adminInvitations.$inferSelect;
export type OutboxMessage = typeof mailOutbox.$inferSelect;
export type LifeMoment = typeof lifeMoments.$inferSelect;
export type Follower = typeof followers.$inferSelect;
export type Candle = typeof candles.$inferSelect;
