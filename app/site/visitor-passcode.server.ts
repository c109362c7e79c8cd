import type { AppLoadContext } from "@remix-run/node";
import { createCookie } from "@remix-run/node";
import { config } from "~/platform/config.server";
import { getPrivacy } from "~/site/privacy.server";
import { normalisePasscode, type StoredPasscode } from "~/site/settings.server";
import { Refusal } from "~/platform/refusal.server";
import { PASSCODE_CHECKS_BUSY, PASSCODE_WRONG, tooManyPasscodeTries } from "./passcode.schema";
import { bookPasswordCheck, decoyHash, verifyPassword } from "~/admins/password.server";
import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";
import { getAdmin } from "~/admins/session.server";

/**
 * A private memorial's visitors give the family's passcode once; a signed
 * cookie remembers it for 180 days. The cookie names the passcode's version,
 * not the passcode, so a new passcode shuts every old cookie out.
 */
const PASSCODE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

const passcodeCookie = createCookie("memorial_passcode", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: config.NODE_ENV === "production",
  secrets: config.sessionSecrets,
  maxAge: PASSCODE_COOKIE_MAX_AGE_SECONDS,
});

/** The Set-Cookie header that lets this browser in while `passcode` stays the passcode. */
export function passcodeCookieHeader(passcode: StoredPasscode): Promise<string> {
  return passcodeCookie.serialize({ version: passcode.version });
}

async function hasPasscodeCookie(cookieHeader: string, passcode: StoredPasscode | null): Promise<boolean> {
  if (!passcode || !cookieHeader.includes("memorial_passcode=")) return false;
  // A cookie signed with none of the secrets, or not ours at all, reads as null.
  const value: unknown = await passcodeCookie.parse(cookieHeader);
  return typeof value === "object" && value !== null && (value as { version?: unknown }).version === passcode.version;
}

/**
 * Whether a visitor with these cookies may see a private memorial: they gave
 * the current passcode, or they are a logged-in administrator.
 */
export async function mayEnterPrivateSite(cookieHeader: string | null | undefined, passcode: StoredPasscode | null): Promise<boolean> {
  if (!cookieHeader) return false;
  if (await hasPasscodeCookie(cookieHeader, passcode)) return true;
  if (!cookieHeader.includes("__session=")) return false;
  return (await getAdmin(new Request("http://localhost/", { headers: { Cookie: cookieHeader } }))) !== null;
}

/**
 * Whether this request must give the passcode first. The visitor gate
 * (app/server/visitor-gate.server.ts) has worked it out for every request the
 * server passes on; anywhere it has not run, it is worked out here.
 */
export async function isVisitorLocked(request: Request, context: AppLoadContext): Promise<boolean> {
  if (typeof context.visitorLocked === "boolean") return context.visitorLocked;
  const { visibility, passcode } = getPrivacy();
  return visibility === "private" && !(await mayEnterPrivateSite(request.headers.get("Cookie"), passcode));
}

/**
 * Passcode guesses, throttled like logins: each network (an IPv4 address, an
 * IPv6 /64) has 10 tries in 15 minutes, counted before the passcode is hashed
 * (so many sent at once count as many) and kept in the database across
 * restarts. The right passcode gives the network its tries back.
 */
export const MAX_PASSCODE_TRIES = 10;
export const PASSCODE_WINDOW_MS = 15 * 60 * 1000;
const triesByNetwork = createRateLimiter({ limit: MAX_PASSCODE_TRIES, windowMs: PASSCODE_WINDOW_MS, bucket: "passcode-network" });

export function resetPasscodeThrottle() {
  triesByNetwork.reset();
}

export type PasscodeCheck =
  { ok: true; passcode: StoredPasscode } | { ok: false; status: 401 | 429 | 503; message: string; retryAfterSeconds?: number };

/**
 * Checks a visitor's passcode (capitals and surrounding spaces do not
 * matter). It waits for one of the few password-check slots the logins use
 * (app/admins/password.server.ts), so guesses cannot take Node's threads from
 * serving photos; when they are all taken it answers busy at once, without
 * using up a try.
 */
export async function checkVisitorPasscode(typed: string, clientIp: string | undefined, now = Date.now()): Promise<PasscodeCheck> {
  const release = bookPasswordCheck();
  if (!release) return { ok: false, status: 503, message: PASSCODE_CHECKS_BUSY, retryAfterSeconds: 5 };
  try {
    const network = networkKey(clientIp);
    const tries = triesByNetwork.consume(network, now);
    if (!tries.allowed) {
      return { ok: false, status: 429, message: tooManyPasscodeTries(tries.retryAfterSeconds), retryAfterSeconds: tries.retryAfterSeconds };
    }
    const { passcode } = getPrivacy();
    // Without a passcode nothing opens, but the answer takes as long.
    const right = await verifyPassword(normalisePasscode(typed), passcode?.hash ?? (await decoyHash()));
    if (!passcode || !right) return { ok: false, status: 401, message: PASSCODE_WRONG };
    triesByNetwork.reset(network);
    return { ok: true, passcode };
  } catch (error) {
    if (error instanceof Refusal && error.status === 503) {
      return { ok: false, status: 503, message: PASSCODE_CHECKS_BUSY, retryAfterSeconds: error.retryAfterSeconds };
    }
    throw error;
  } finally {
    release();
  }
}
