import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { config, type Config } from "~/platform/config.server";
import { Refusal } from "~/platform/refusal.server";

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * scrypt with N = 2^15, r = 8, p = 1 (about 32 MiB and ~100 ms per check):
 * slow for someone guessing, quick enough for one family's administrator.
 */
const PRODUCTION_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };

/**
 * Under NODE_ENV=test (vitest), new hashes cost 32 times less (1 MiB each), so
 * the tests' many logins do not each wait for a production hash. A hash keeps
 * the parameters it was made with and is checked with them, so this changes
 * no production hash, nor what checking one costs.
 */
const TEST_SCRYPT: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };

/** The parameters new hashes are made with when NODE_ENV is `nodeEnv`. */
export function scryptParamsFor(nodeEnv: Config["NODE_ENV"]): ScryptParams {
  return nodeEnv === "test" ? TEST_SCRYPT : PRODUCTION_SCRYPT;
}

const KEY_LENGTH = 64;

/**
 * At most two hashes run at once. Each takes 32 MiB and one of the four
 * threads Node shares with file reads (serving media, writing uploads), so a
 * burst of logins must not take them all. A few more wait their turn; beyond
 * that a login is answered "busy" at once rather than queued behind hundreds.
 */
export const MAX_CONCURRENT_HASHES = 2;
export const MAX_WAITING_HASHES = 8;
export const PASSWORD_CHECKS_BUSY = "Many logins are being checked right now. Please wait a moment and try again.";

/**
 * What the hashing has done since the process started (or the last
 * `resetHashActivity`): scrypt calls started (of which password checks), how
 * many run and wait now, and the most that ever ran at once. For tests and logs.
 */
export const hashActivity = { started: 0, verifications: 0, running: 0, waiting: 0, peak: 0 };
export function resetHashActivity() {
  Object.assign(hashActivity, { started: 0, verifications: 0, peak: hashActivity.running });
}

let slotsTaken = 0;
const waiting: Array<() => void> = [];
let checksBooked = 0;

/**
 * Books a place for one login's password check, synchronously (so a burst of
 * requests arriving together cannot all see room): the release function to
 * call when the login is over, or null when as many checks as can run and
 * wait are already booked, and the login should be answered "busy" at once.
 */
export function bookPasswordCheck(): (() => void) | null {
  if (checksBooked >= MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES) return null;
  checksBooked++;
  let released = false;
  return () => {
    if (!released) checksBooked--;
    released = true;
  };
}

async function takeHashSlot(mayWaitLong: boolean) {
  if (slotsTaken < MAX_CONCURRENT_HASHES) {
    slotsTaken++;
    return;
  }
  if (!mayWaitLong && waiting.length >= MAX_WAITING_HASHES) throw new Refusal(503, "form", PASSWORD_CHECKS_BUSY, 5);
  // The hash that ends hands its slot over: `slotsTaken` stays as it is.
  await new Promise<void>((resolve) => (hashActivity.waiting = waiting.push(resolve)));
}

function releaseHashSlot() {
  const next = waiting.shift();
  hashActivity.waiting = waiting.length;
  if (next) next();
  else slotsTaken--;
}

/**
 * scrypt through the slots. Checking a login may only wait in the short
 * queue; setting a password (the admin command, the configured admin at
 * start) waits as long as it takes.
 */
async function derive(password: string, salt: Buffer, params: ScryptParams, use: "check" | "set", mayWaitLong = use === "set") {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  await takeHashSlot(mayWaitLong);
  hashActivity.started++;
  if (use === "check") hashActivity.verifications++;
  hashActivity.peak = Math.max(hashActivity.peak, ++hashActivity.running);
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
    );
  } finally {
    hashActivity.running--;
    releaseHashSlot();
  }
}

/**
 * "scrypt$N$r$p$salt$hash": everything needed to check the password later,
 * and nothing to recover it. `params`: the production cost, or the tests'
 * (scryptParamsFor).
 */
export async function hashPassword(password: string, params = scryptParamsFor(config.NODE_ENV)): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params, "set");
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/**
 * Whether `password` opens `stored`. For a login, throws a 503 Refusal when
 * too many checks are already running or waiting; `waitForTurn` (the check of
 * the configured admin at start) waits instead.
 */
export async function verifyPassword(password: string, stored: string, { waitForTurn = false } = {}): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((v) => Number.isSafeInteger(v) && v > 0)) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), params, "check", waitForTurn);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to check against when the username is unknown, so both cases take as long. */
let decoy: Promise<string> | undefined;
export function decoyHash() {
  decoy ??= hashPassword(randomBytes(16).toString("hex"));
  return decoy;
}
