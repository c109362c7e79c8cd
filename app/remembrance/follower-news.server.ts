import { and, desc, eq, gt, isNull, max } from "drizzle-orm";
import { followers, mailOutbox, memories, uploads, type FollowTopic } from "../../db/schema";
import type { SiteContent } from "~/content";
import { config } from "~/platform/config.server";
import { db, type Transaction } from "~/platform/db.server";
import { mailEnabled, queueMail, rewriteWaitingMail, siteAddress } from "~/mail/outbox.server";
import type { MailContent } from "~/mail/messages";
import { languageOf, visitorFrame } from "~/mail/notifications.server";
import { getSiteSettings } from "~/site/settings.server";
import { describeService, instantOf } from "~/site/service-time.server";
import { isLanguage, type Language } from "~/i18n/languages";
import { formatIsoDate } from "~/utils/time";
import { afterServiceMail, digestMail, memoryOpening, reminderMail, serviceChangedMail, type ServiceChange } from "./follower-mail.server";
import { getRemembrance } from "./remembrance.server";
import { remindersOn } from "./remembrance.schema";
import { addDays, longDay, yearlyDaysBetween } from "./yearly-days.server";

// What followers are sent, and when: news of the service when the family
// changes it (one e-mail for a burst of saves), one e-mail the day after the
// service, a weekly digest of what was published, and the yearly reminders
// at the family's time in the site's time zone. Run by the sender loop every
// minute (queueDueFollowerMail); every message has a key, so a restart or a
// second look never sends one twice.

const DAY_MS = 24 * 60 * 60_000;
const WEEK_MS = 7 * DAY_MS;
/** Saves of the service within this window make one e-mail, written as things stand at its end (SERVICE_NEWS_WAIT_MINUTES). */
export const SERVICE_NEWS_GATHER_MS = config.SERVICE_NEWS_WAIT_MINUTES * 60_000;
/** The message after the service goes from the day after it, and no later than this many days after that. */
const AFTER_SERVICE_DAYS = 3;
const DIGEST_MEMORIES = 10;

type Recipient = { id: number; email: string; name: string; newsSince: Date | null; lastDigestAt: Date | null; language: string };

/**
 * What "Remember with us" offers now: the service until it is over,
 * reminders once the family turned one on; null when the site sends no
 * e-mail (nobody is offered what cannot be sent).
 */
export function followOffer(now = Date.now()): Record<FollowTopic, boolean> | null {
  if (!mailEnabled()) return null;
  const site = getSiteSettings();
  return {
    service: !describeService({ ...site, mapsLink: "" }, now).over,
    new: true,
    reminders: remindersOn(getRemembrance()),
  };
}

/** Confirmed followers, each with the topics they chose. */
const confirmedFollowers = (tx: Pick<Transaction, "select">): (Recipient & { topics: FollowTopic[] })[] =>
  tx
    .select()
    .from(followers)
    .all()
    .filter((row) => row.confirmedAt !== null);

/** Confirmed followers of `topic`. */
const followersOf = (tx: Pick<Transaction, "select">, topic: FollowTopic): Recipient[] =>
  confirmedFollowers(tx).filter((row) => row.topics.includes(topic));

/** Whether a follower's weekly digest is due at `at`: something published after their last, and their week up. */
const digestDue = (follower: Recipient, latestPublished: number, at: number) =>
  latestPublished > (follower.newsSince?.getTime() ?? at) && (!follower.lastDigestAt || at - follower.lastDigestAt.getTime() >= WEEK_MS);

/** The frame of a follower's e-mail about `topic`, in the language they followed in. */
const frame = (unsubscribeUrl: string, topic: FollowTopic, follower: Recipient) =>
  visitorFrame(unsubscribeUrl, topic, languageOf(follower));

type ServiceFields = Pick<
  SiteContent,
  "serviceTitle" | "serviceStartsAt" | "serviceEndsAt" | "timeZone" | "venueName" | "venueAddress" | "livestreamUrl"
>;

/** What changed, in words: "date and time", "place", "livestream link". */
function serviceChanges(before: ServiceFields, after: ServiceFields): ServiceChange[] {
  const differ = (...keys: (keyof ServiceFields)[]) => keys.some((key) => before[key] !== after[key]);
  const changes: [ServiceChange, boolean][] = [
    ["dateTime", differ("serviceStartsAt", "serviceEndsAt", "timeZone")],
    ["place", differ("venueName", "venueAddress")],
    ["livestream", differ("livestreamUrl")],
  ];
  return changes.filter(([, changed]) => changed).map(([change]) => change);
}

/**
 * The family changed the service's date, time, place or livestream link
 * (`before` → `after`, in the settings' commit `tx`): followers of the
 * service are told, unless it is over. Saves within SERVICE_NEWS_GATHER_MS
 * make one e-mail, written as things stand at the last.
 */
function queueServiceNews(tx: Transaction, before: ServiceFields, after: ServiceFields, now = Date.now()) {
  if (!mailEnabled()) return;
  const changed = serviceChanges(before, after);
  if (changed.length === 0 || describeService({ ...after, mapsLink: "" }, now).over) return;
  const details = {
    title: after.serviceTitle,
    venue: after.venueName,
    address: after.venueAddress,
    livestreamUrl: after.livestreamUrl,
    pageUrl: siteAddress("/"),
  };
  for (const follower of followersOf(tx, "service")) {
    // The day and hours written in the language they followed in (English as it always was).
    const when = describeService({ ...after, mapsLink: "" }, now, isLanguage(follower.language) ? follower.language : "en").whenText;
    const compose = (unsubscribeUrl: string): MailContent =>
      serviceChangedMail(frame(unsubscribeUrl, "service", follower), { ...details, when }, changed);
    // A message still held back for this follower is written afresh: one e-mail for the whole burst.
    const waiting = tx
      .select({ key: mailOutbox.dedupeKey })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.kind, "service-news"),
          eq(mailOutbox.recipient, follower.email),
          isNull(mailOutbox.sentAt),
          gt(mailOutbox.nextAttemptAt, new Date(now)),
        ),
      )
      .get();
    if (waiting?.key && rewriteWaitingMail(tx, waiting.key, compose, now)) continue;
    const dedupeKey = `service-news:${follower.id}:${now}`;
    queueMail(tx, { kind: "service-news", recipient: follower.email, dedupeKey, compose, holdMs: SERVICE_NEWS_GATHER_MS }, now);
  }
}

/** Whether `day` is one on which the message after the service goes (the day after it, and a few more in case the server was down). */
function afterServiceDay(day: string): boolean {
  const site = getSiteSettings();
  const endsAt = instantOf(site.serviceEndsAt, site.timeZone).getTime();
  const first = addDays(formatIsoDate(endsAt, site.timeZone), 1);
  return day >= first && day <= addDays(first, AFTER_SERVICE_DAYS - 1);
}

/**
 * A settings write (`write`, in the commit `tx`) with its meaning for
 * followers: a change to the service is told (queueServiceNews).
 */
export function withServiceNews(tx: Transaction, write: () => void, now = Date.now()) {
  const before = getSiteSettings();
  write();
  queueServiceNews(tx, before, getSiteSettings(), now);
}

/** The day after the service, at the family's time, for a few days: followers of the service are thanked. */
function queueAfterService(today: string, now: number) {
  const site = getSiteSettings();
  if (!afterServiceDay(today)) return 0;
  let queued = 0;
  db.transaction((tx) => {
    for (const follower of followersOf(tx, "service")) {
      const sent = queueMail(
        tx,
        {
          kind: "after-service",
          recipient: follower.email,
          dedupeKey: `after-service:${site.serviceStartsAt}:${follower.id}`,
          compose: (unsubscribeUrl) =>
            afterServiceMail(frame(unsubscribeUrl, "service", follower), {
              title: site.serviceTitle,
              memoriesUrl: siteAddress("/guestbook"),
              shareUrl: siteAddress("/share"),
            }),
        },
        now,
      );
      if (sent) queued++;
    }
  });
  return queued;
}

/** When the family last published a memory shown publicly, or a photo or video. */
function lastPublishedAt(): number {
  const memory = db
    .select({ at: max(memories.moderatedAt) })
    .from(memories)
    .where(and(eq(memories.status, "APPROVED"), eq(memories.canDisplay, true)))
    .get()?.at;
  const upload = db
    .select({ at: max(uploads.moderatedAt) })
    .from(uploads)
    .where(eq(uploads.status, "APPROVED"))
    .get()?.at;
  return Math.max(memory ? new Date(memory).getTime() : 0, upload ? new Date(upload).getTime() : 0);
}

/** For each follower of what is new whose week is up: one e-mail of what was published since their last. */
function queueDigests(now: number) {
  const latest = lastPublishedAt();
  let queued = 0;
  for (const follower of followersOf(db, "new")) {
    if (!digestDue(follower, latest, now)) continue;
    const since = follower.newsSince?.getTime() ?? now;
    db.transaction(
      (tx) => {
        const newer = gt(memories.moderatedAt, new Date(since));
        const published = tx
          .select({ name: memories.name, message: memories.message })
          .from(memories)
          .where(and(eq(memories.status, "APPROVED"), eq(memories.canDisplay, true), newer))
          .orderBy(desc(memories.moderatedAt))
          .all();
        const media = tx
          .select({ type: uploads.type })
          .from(uploads)
          .where(and(eq(uploads.status, "APPROVED"), gt(uploads.moderatedAt, new Date(since))))
          .all();
        const shown = published.slice(0, DIGEST_MEMORIES);
        const items = {
          memories: shown.map((memory) => ({ name: memory.name, opening: memoryOpening(memory.message) })),
          moreMemories: published.length - shown.length,
          photos: media.filter((item) => item.type === "IMAGE").length,
          videos: media.filter((item) => item.type === "VIDEO").length,
          memoriesUrl: siteAddress("/guestbook"),
          galleryUrl: siteAddress("/gallery"),
        };
        if (published.length + media.length > 0) {
          const sent = queueMail(
            tx,
            {
              kind: "digest",
              recipient: follower.email,
              dedupeKey: `digest:${follower.id}:${now}`,
              compose: (unsubscribeUrl) => digestMail(frame(unsubscribeUrl, "new", follower), items),
            },
            now,
          );
          if (sent) queued++;
        }
        tx.update(followers)
          .set({ newsSince: new Date(now), lastDigestAt: new Date(now) })
          .where(eq(followers.id, follower.id))
          .run();
      },
      { behavior: "immediate" },
    );
  }
  return queued;
}

/** The reminder offsets the family chose: 0 on the day, and `daysBefore`. */
function reminderOffsets() {
  const remembrance = getRemembrance();
  if (!remindersOn(remembrance)) return { remembrance, offsets: [] };
  return { remembrance, offsets: [...(remembrance.onTheDay ? [0] : []), ...(remembrance.daysBefore > 0 ? [remembrance.daysBefore] : [])] };
}

/** The yearly days due today, at the family's time: on the day, and `daysBefore` days before. */
function queueReminders(today: string, now: number) {
  const site = getSiteSettings();
  const { remembrance, offsets } = reminderOffsets();
  let queued = 0;
  for (const offset of offsets) {
    const target = addDays(today, offset);
    for (const day of yearlyDaysBetween(site, remembrance, target, target)) {
      const dateText = (language: Language) => longDay(day.date, language);
      db.transaction((tx) => {
        for (const follower of followersOf(tx, "reminders")) {
          const sent = queueMail(
            tx,
            {
              kind: `reminder-${day.kind}`,
              recipient: follower.email,
              dedupeKey: `reminder:${day.kind}:${day.date}:${offset}:${follower.id}`,
              compose: (unsubscribeUrl) =>
                reminderMail(frame(unsubscribeUrl, "reminders", follower), {
                  kind: day.kind,
                  dateText: dateText(languageOf(follower)),
                  inDays: offset,
                  years: day.years,
                  hebrewDate: day.hebrewDate,
                  words: remembrance.words,
                  siteUrl: siteAddress("/"),
                }),
            },
            now,
          );
          if (sent) queued++;
        }
      });
    }
  }
  return queued;
}

/** The family's sending time today, as an instant. */
const sendingTime = (day: string) => {
  const { timeZone } = getSiteSettings();
  return instantOf(`${day}T${getRemembrance().sendAt}`, timeZone).getTime();
};

/**
 * Everything due to followers now: from the family's sending time on each
 * day, the reminders, the message after the service and the digests. Run by
 * the sender loop every minute; returns how many were queued.
 */
export function queueDueFollowerMail(now = Date.now()): number {
  if (!mailEnabled()) return 0;
  const today = formatIsoDate(now, getSiteSettings().timeZone);
  if (now < sendingTime(today)) return 0;
  return queueReminders(today, now) + queueAfterService(today, now) + queueDigests(now);
}

/**
 * When followers' e-mail is next due, today or tomorrow: the family's
 * sending time on a day a reminder, the message after the service or a
 * digest is due; null when none is. The server stays up for it (the idle exit).
 */
export function nextFollowerMailAt(now = Date.now()): number | null {
  if (!mailEnabled()) return null;
  const following = confirmedFollowers(db);
  if (following.length === 0) return null;
  const chose = (topic: FollowTopic) => following.some((follower) => follower.topics.includes(topic));
  const site = getSiteSettings();
  const today = formatIsoDate(now, site.timeZone);
  const { remembrance, offsets } = reminderOffsets();
  const latest = lastPublishedAt();
  for (const day of [today, addDays(today, 1)]) {
    const at = sendingTime(day);
    if (at <= now) continue;
    const reminders =
      chose("reminders") &&
      offsets.some((offset) => yearlyDaysBetween(site, remembrance, addDays(day, offset), addDays(day, offset)).length > 0);
    const afterService = chose("service") && afterServiceDay(day);
    const digest = following.some((follower) => follower.topics.includes("new") && digestDue(follower, latest, at));
    if (reminders || afterService || digest) return at;
  }
  return null;
}
