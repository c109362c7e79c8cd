import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { count } from "drizzle-orm";
import { adminUsers } from "../../db/schema";
import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";
import { db } from "~/platform/db.server";
import { Refusal } from "~/platform/refusal.server";
import { countAdmins, hashNewPassword, insertAdmin, type Admin } from "./admin.server";
import type { NewAdmin } from "./admin.schema";

// The first run: while the memorial has no admin, /admin offers "Set up the
// memorial", which creates the first one. Whoever finds a fresh deploy first
// must not be able to claim it, so the form asks for a setup code that only
// the person who started the server can read: it is printed in the server's
// log. The code lives in this process's memory only, is void as soon as any
// admin exists, and a new one is printed whenever it is needed again (the
// next start, or all admins gone).

export const ALREADY_SET_UP = "The memorial has already been set up. Please log in.";
export const WRONG_SETUP_CODE =
  "That setup code is not right. Copy it from the server's log: the line that starts with “Setup code:”. A new code is printed each time the server starts.";
export const TOO_MANY_SETUP_CODES = "Too many wrong setup codes. Please wait 15 minutes and try again.";

/** Letters and digits that cannot be mistaken for one another (no I, L, O, 0 or 1): 31 of them. */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** 12 characters of 31: about 59 bits, with 5 guesses per network every 15 minutes. */
const CODE_LENGTH = 12;

/** Guesses per network, as for logins: 5 in 15 minutes, given back when one is right. */
export const MAX_SETUP_GUESSES = 5;
const guesses = createRateLimiter({ limit: MAX_SETUP_GUESSES, windowMs: 15 * 60 * 1000, bucket: "setup-network" });

let setupCode: string | null = null;
/** While the admin of ADMIN_USERNAME is being created at start, the memorial is not "without an admin". */
let configuredAdminPending = false;
let announce: (code: string) => void = (code) =>
  console.log(`Setup code: ${code} (no admin yet: open /admin on this site and enter this code to set up the memorial)`);

/** For tests: where a new code is told instead of the log. */
export function onSetupCode(tell: (code: string) => void) {
  announce = tell;
}

const normalise = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, "");
const digest = (code: string) => createHash("sha256").update(normalise(code)).digest();

function newCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code.match(/.{4}/g)!.join("-");
}

/**
 * Whether the memorial still needs its first admin. While it does, a setup
 * code exists (made and printed the first time it is needed); once any admin
 * exists the code is void.
 */
export function isSetupOpen(): boolean {
  if (configuredAdminPending) return false;
  if (countAdmins() > 0) {
    setupCode = null;
    return false;
  }
  if (!setupCode) {
    setupCode = newCode();
    announce(setupCode);
  }
  return true;
}

/** At start: no setup is offered while `creatingConfiguredAdmin` runs; afterwards, a code is printed if there is still no admin. */
export async function openSetupAfter(creatingConfiguredAdmin: Promise<unknown>) {
  configuredAdminPending = true;
  try {
    await creatingConfiguredAdmin;
  } finally {
    configuredAdminPending = false;
    isSetupOpen();
  }
}

/**
 * Creates the first admin, if `setupCode` is the code printed in the log. The
 * code is taken and the admin added in one synchronous step, after the
 * password is hashed, so two setups sent at once make one admin.
 */
export async function setUpFirstAdmin(
  input: NewAdmin & { setupCode: string },
  clientIp: string | undefined,
  now = Date.now(),
): Promise<Admin> {
  if (!isSetupOpen()) throw new Refusal(409, "form", ALREADY_SET_UP);
  const network = networkKey(clientIp);
  const limit = guesses.consume(network, now);
  if (!limit.allowed) throw new Refusal(429, "setupCode", TOO_MANY_SETUP_CODES, limit.retryAfterSeconds);
  const code = setupCode!;
  if (!timingSafeEqual(digest(input.setupCode), digest(code))) throw new Refusal(403, "setupCode", WRONG_SETUP_CODE);
  guesses.reset(network);
  const hash = await hashNewPassword(input.password);
  // Nothing is awaited from here on: one setup takes the code, any other finds it gone.
  if (setupCode !== code) throw new Refusal(409, "form", ALREADY_SET_UP);
  const admin = db.transaction(
    (tx) => {
      if ((tx.select({ n: count() }).from(adminUsers).get()?.n ?? 0) > 0) throw new Refusal(409, "form", ALREADY_SET_UP);
      return insertAdmin(tx, input.username, hash);
    },
    { behavior: "immediate" },
  );
  setupCode = null;
  return { id: admin.id, username: admin.username, role: admin.role };
}

export function resetSetupLimits() {
  guesses.reset();
}
