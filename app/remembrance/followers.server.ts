import { and, asc, count, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { followers, type Follower, type FollowTopic } from "../../db/schema";
import type { Language } from "~/i18n/languages";
import type { Actor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { countSubmission, requireSubmissionAllowed, type SubmissionSource } from "~/platform/submission-limit.server";
import { queueMail, siteAddress } from "~/mail/outbox.server";
import { followConfirmFrame } from "~/mail/notifications.server";
import { allowMailTo, hashToken, isLinkToken, newLinkToken, normaliseEmail } from "~/mail/unsubscribe.server";
import { serverForm } from "~/platform/form-schema.server";
import { FollowSchema, type FollowInput } from "./follow.schema";
import { confirmationMail } from "./follower-mail.server";

// People who follow the memorial by e-mail, without an account: a request
// (the form, POST /api/follow) is written to once, with a link; only once
// that link is opened is anything else sent. A stranger cannot use the form
// to write to someone else: one confirmation per address a day, the same
// per-network allowance as the guest book, and the same answer whether or
// not the address already follows. Addresses are never shown to visitors;
// an unsubscribe link deletes the row (app/mail/unsubscribe.server.ts).

/** The form's parser, and its HTML attributes. */
export const followForm = serverForm(FollowSchema);

const DAY_MS = 24 * 60 * 60_000;
/** A confirmation link works this long; a request never confirmed is deleted after it. */
export const CONFIRM_FOR_MS = 7 * DAY_MS;

/** A follower as the family sees them (the admin tab, the API and the CSV). */
export interface FollowerView {
  id: number;
  name: string;
  email: string;
  topics: FollowTopic[];
  confirmedAt: string;
  createdAt: string;
}

const toView = (row: Follower): FollowerView => ({
  id: row.id,
  name: row.name,
  email: row.email,
  topics: row.topics,
  confirmedAt: row.confirmedAt!.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

/**
 * A request to follow: kept (a confirmed follower's change waits in
 * `requested` for its own link), and the confirmation queued unless one went
 * to this address in the last day. Counted against the network's allowance
 * (throws its 429 Refusal when spent). Returns nothing anyone could learn
 * from: whether the address follows is never told. The visitor's `language`
 * (the page's, or the API's Accept-Language) is kept with them: what they are
 * sent is written in it.
 */
export function requestFollow(input: FollowInput & { language?: Language }, source: SubmissionSource, now = Date.now()): void {
  requireSubmissionAllowed(source);
  const email = normaliseEmail(input.email);
  const asked = { name: input.name, topics: input.topics };
  const language = input.language ?? "en";
  db.transaction(
    (tx) => {
      let row = tx.select().from(followers).where(eq(followers.email, email)).get();
      if (!row) {
        row = tx
          .insert(followers)
          .values({ email, ...asked, language, createdAt: new Date(now) })
          .returning()
          .all()[0]!;
      } else if (row.confirmedAt) {
        tx.update(followers).set({ requested: asked, language }).where(eq(followers.id, row.id)).run();
      } else {
        tx.update(followers)
          .set({ ...asked, language })
          .where(eq(followers.id, row.id))
          .run();
      }
      if (row.confirmationSentAt && now - row.confirmationSentAt.getTime() < DAY_MS) return;
      const token = newLinkToken();
      tx.update(followers)
        .set({ tokenHash: hashToken(token), confirmationSentAt: new Date(now) })
        .where(eq(followers.id, row.id))
        .run();
      queueMail(
        tx,
        {
          kind: "follow-confirm",
          recipient: email,
          evenIfUnsubscribed: true,
          compose: (unsubscribeUrl) =>
            confirmationMail(followConfirmFrame(tx, row.id, unsubscribeUrl), {
              ...asked,
              confirmUrl: siteAddress(`/follow/${token}`),
            }),
        },
        now,
      );
    },
    { behavior: "immediate" },
  );
  countSubmission(source);
}

/**
 * Opens a confirmation link: the follower is confirmed (or their change
 * applied), and their address may be written to again if it had
 * unsubscribed. Returns what they now follow, or undefined for an unknown or
 * expired link. Opening it twice is harmless.
 */
export function confirmFollow(token: string, now = Date.now()): { name: string; topics: FollowTopic[] } | undefined {
  if (!isLinkToken(token)) return undefined;
  return db.transaction(
    (tx) => {
      const row = tx
        .select()
        .from(followers)
        .where(eq(followers.tokenHash, hashToken(token)))
        .get();
      if (!row?.confirmationSentAt || now - row.confirmationSentAt.getTime() > CONFIRM_FOR_MS) return undefined;
      const chosen = row.requested ?? { name: row.name, topics: row.topics };
      tx.update(followers)
        .set({
          ...chosen,
          requested: null,
          confirmedAt: row.confirmedAt ?? new Date(now),
          newsSince: row.newsSince ?? new Date(now),
        })
        .where(eq(followers.id, row.id))
        .run();
      allowMailTo(tx, row.email);
      return chosen;
    },
    { behavior: "immediate" },
  );
}

/** Confirmed followers, oldest first; those of `topic` alone when given. */
export function listFollowers(topic?: FollowTopic): FollowerView[] {
  return db
    .select()
    .from(followers)
    .where(isNotNull(followers.confirmedAt))
    .orderBy(asc(followers.confirmedAt), asc(followers.id))
    .all()
    .filter((row) => !topic || row.topics.includes(topic))
    .map(toView);
}

/** A confirmed follower, or undefined. */
export function getFollower(id: number): FollowerView | undefined {
  const row = db
    .select()
    .from(followers)
    .where(and(eq(followers.id, id), isNotNull(followers.confirmedAt)))
    .get();
  return row && toView(row);
}

/** How many follow, and how many asked and have not opened their link yet. */
export function followerCounts(): { following: number; waiting: number } {
  const n = (confirmed: boolean) =>
    db
      .select({ n: count() })
      .from(followers)
      .where(confirmed ? isNotNull(followers.confirmedAt) : isNull(followers.confirmedAt))
      .get()?.n ?? 0;
  return { following: n(true), waiting: n(false) };
}

/** The family removes a follower (or a request): the row goes, and nothing more is sent to them. False for an unknown id. */
export function removeFollower(id: number, by: Actor): boolean {
  return by.commit((tx) => tx.delete(followers).where(eq(followers.id, id)).run().changes > 0);
}

/** Requests never confirmed within CONFIRM_FOR_MS go (the hourly tidy). */
export function pruneFollowRequests(now = Date.now()) {
  db.delete(followers)
    .where(
      and(
        isNull(followers.confirmedAt),
        or(isNull(followers.confirmationSentAt), lt(followers.confirmationSentAt, new Date(now - CONFIRM_FOR_MS))),
      ),
    )
    .run();
}
