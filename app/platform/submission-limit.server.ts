import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";
import { config } from "~/platform/config.server";
import { Refusal } from "~/platform/refusal.server";

/**
 * Guest-book memories, attendance notes and voice memories from one network, counted
 * together. High enough for a reception on one Wi-Fi or relatives behind a
 * mobile carrier's shared address; the honeypot and the family's moderation
 * are the spam defences, this only stops a flood.
 */
const submissions = createRateLimiter({
  limit: config.SUBMISSIONS_PER_10_MINUTES,
  windowMs: 10 * 60 * 1000,
  bucket: "submissions",
});

/** How long the same memory or note from the same person counts as sent twice rather than written again. */
export const RESUBMISSION_WINDOW_MS = 10 * 60 * 1000;

export const TOO_MANY_SUBMISSIONS =
  "Many messages have been sent from your network in the last few minutes. Please wait a little while and try again.";

/** Who is submitting: the visitor's address, counted by network. */
export interface SubmissionSource {
  clientIp: string | undefined;
}

/** Throws a 429 refusal when this network has sent its allowance. */
export function requireSubmissionAllowed(source: SubmissionSource) {
  const limit = submissions.check(networkKey(source.clientIp));
  if (!limit.allowed) throw new Refusal(429, "body", TOO_MANY_SUBMISSIONS, limit.retryAfterSeconds);
}

/** Counts one stored submission from this network. */
export function countSubmission(source: SubmissionSource) {
  submissions.hit(networkKey(source.clientIp));
}

export function resetSubmissionLimits() {
  submissions.reset();
}
