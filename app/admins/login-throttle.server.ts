import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";

/**
 * Who may have a password checked, and when.
 *
 * - Each network (an IPv4 address, an IPv6 /64) has 5 attempts in 15 minutes.
 *   An attempt is counted before its password is hashed, in the same step as
 *   the check, so 300 requests sent at once get 5 hashes and 295 refusals,
 *   not 300 hashes. A successful login gives the network its attempts back.
 * - A username with 5 failed attempts in 15 minutes (from anywhere) is under
 *   attack: from then on a network that has already failed that username
 *   lately may not try it again. That takes a guesser spreading over many
 *   addresses down to one guess per address, and never refuses the
 *   administrator's right password from a network that has not got it wrong:
 *   nobody can lock the family out by failing on purpose from somewhere else.
 *
 * Both counts are kept in the database, so a restart hands out no fresh
 * allowance.
 */
export const MAX_FAILED_LOGINS = 5;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;

const byNetwork = createRateLimiter({ limit: MAX_FAILED_LOGINS, windowMs: LOGIN_WINDOW_MS, bucket: "login-network" });
const byUsername = createRateLimiter({ limit: MAX_FAILED_LOGINS, windowMs: LOGIN_WINDOW_MS, bucket: "login-username" });
const byUsernameFromNetwork = createRateLimiter({ limit: MAX_FAILED_LOGINS, windowMs: LOGIN_WINDOW_MS, bucket: "login-username-network" });

export type LoginAttempt =
  { allowed: true; network: string; username: string; pair: string } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one login attempt, or refuses it. Synchronous on purpose: between
 * the check and the count no other request can slip in.
 */
export function startLoginAttempt(username: string, clientIp: string | undefined, now = Date.now()): LoginAttempt {
  const network = networkKey(clientIp);
  const user = username.trim().toLowerCase();
  const pair = JSON.stringify([user, network]);
  const networkLimit = byNetwork.check(network, now);
  if (!networkLimit.allowed) return { allowed: false, retryAfterSeconds: networkLimit.retryAfterSeconds };
  const userLimit = byUsername.check(user, now);
  if (!userLimit.allowed && byUsernameFromNetwork.used(pair, now) > 0) {
    return { allowed: false, retryAfterSeconds: userLimit.retryAfterSeconds };
  }
  byNetwork.hit(network, now);
  byUsername.hit(user, now);
  byUsernameFromNetwork.hit(pair, now);
  return { allowed: true, network, username: user, pair };
}

/** The attempt was the right password: its network and username start afresh. */
export function loginSucceeded(attempt: { network: string; username: string; pair: string }) {
  byNetwork.reset(attempt.network);
  byUsername.reset(attempt.username);
  byUsernameFromNetwork.reset(attempt.pair);
}

export function resetLoginThrottle() {
  byNetwork.reset();
  byUsername.reset();
  byUsernameFromNetwork.reset();
}
