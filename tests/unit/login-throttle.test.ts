// The login throttle under the attacks a security review tried: a burst of
// parallel guesses from one address, guesses spread over many addresses, and
// failing on purpose to lock the family's administrator out. Hash counts come
// from password.server.ts's own counters of scrypt calls, not from timing.
import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { adminUsers } from "../../db/schema";
import { MAX_FAILED_LOGINS, resetLoginThrottle, TOO_MANY_LOGINS, type LoginResult } from "~/admins/authenticator.server";
import {
  decoyHash,
  hashActivity,
  hashPassword,
  MAX_CONCURRENT_HASHES,
  MAX_WAITING_HASHES,
  PASSWORD_CHECKS_BUSY,
  resetHashActivity,
  scryptParamsFor,
} from "~/admins/password.server";
import { db } from "~/platform/db.server";
import { loginThroughApi as loginAdmin } from "../support/admin-login";
import { ensureConfiguredAdmin, upsertAdmin } from "~/admins/admin.server";

/**
 * scrypt as node:crypto runs it, except that while a test holds `held`
 * a hash begins only once it is let go: the slots and the queue stay full for
 * as long as the test needs, whatever the hashes cost and the clock says.
 */
const scryptGate = vi.hoisted(() => ({ held: undefined as Promise<void> | undefined }));
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof import("node:crypto")>();
  const run = crypto.scrypt as (...args: unknown[]) => void;
  const scrypt = (...args: unknown[]) => {
    if (scryptGate.held) void scryptGate.held.then(() => run(...args));
    else run(...args);
  };
  return { ...crypto, default: { ...crypto, scrypt }, scrypt };
});

/** Holds every hash that begins from now on; the function lets them all go. */
function holdHashes(): () => void {
  let letGo!: () => void;
  scryptGate.held = new Promise<void>((resolve) => (letGo = resolve));
  return () => {
    scryptGate.held = undefined;
    letGo();
  };
}

const RIGHT = "the-right-password";

beforeEach(async () => {
  resetLoginThrottle();
  await upsertAdmin("admin", RIGHT);
  // Made once per process: made here, it is not counted in a test's figures.
  await decoyHash();
  resetHashActivity();
});

const statusOf = (result: LoginResult) => (result.ok ? 200 : result.status);
const count = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe("a burst of parallel logins from one address", () => {
  it("checks only five passwords, refuses the rest at once, and the right password inside the burst does not get in", async () => {
    const attempts = Array.from({ length: 301 }, (_, i) => (i === 150 ? RIGHT : `guess-${i}`));
    const results = await Promise.all(attempts.map((password) => loginAdmin({ username: "admin", password }, "203.0.113.66")));
    const statuses = results.map(statusOf);

    expect(hashActivity.verifications).toBe(MAX_FAILED_LOGINS);
    expect(count(statuses)).toEqual({ 401: MAX_FAILED_LOGINS, 429: 301 - MAX_FAILED_LOGINS });
    expect(statuses[150]).toBe(429);
    expect(results[150]).toMatchObject({ errors: { form: [TOO_MANY_LOGINS] } });
    expect(hashActivity.peak).toBeLessThanOrEqual(MAX_CONCURRENT_HASHES);
    console.info(
      `login burst from one address: ${statuses.length} requests, ${hashActivity.verifications} passwords hashed, ${count(statuses)[429]} answered 429, at most ${hashActivity.peak} hashes at once`,
    );

    // An IPv6 visitor is one network however many addresses of its /64 it uses.
    resetLoginThrottle();
    const fromOneNetwork = await Promise.all(
      Array.from({ length: 50 }, (_, i) => loginAdmin({ username: "admin", password: `v6-${i}` }, `2001:db8:5:6::${(i + 1).toString(16)}`)),
    );
    expect(count(fromOneNetwork.map(statusOf))).toEqual({ 401: MAX_FAILED_LOGINS, 429: 50 - MAX_FAILED_LOGINS });
  });

  it("counts an unknown username's decoy check the same", async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => loginAdmin({ username: `nobody-${i % 3}`, password: "x" }, "203.0.113.67")),
    );
    expect(hashActivity.verifications).toBe(MAX_FAILED_LOGINS);
    expect(count(results.map(statusOf))).toEqual({ 401: MAX_FAILED_LOGINS, 429: 100 - MAX_FAILED_LOGINS });
  });
});

describe("a burst of logins from many addresses", () => {
  it("runs at most two hashes at once, answers 'busy' beyond a short queue, and leaves Node's threads to other work", async () => {
    // What Node's threads are shared with is a production hash: the administrator's is made at that cost here.
    const production = await hashPassword(RIGHT, scryptParamsFor("production"));
    db.update(adminUsers).set({ password: production }).where(eq(adminUsers.username, "admin")).run();
    resetHashActivity();
    const burst = Array.from({ length: 300 }, (_, i) =>
      loginAdmin({ username: "admin", password: `guess-${i}` }, `198.51.${i >> 8}.${i & 255}`),
    );
    // A file read started during the burst (as serving a photo would be) is
    // not stuck behind the hashes: it ends while most of them have not run.
    const readDoneAfter = readFile(import.meta.filename).then(() => hashActivity.verifications);
    const statuses = (await Promise.all(burst)).map(statusOf);

    const checked = MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES;
    expect(hashActivity.verifications).toBe(checked);
    expect(count(statuses)).toEqual({ 401: checked, 503: 300 - checked });
    expect(hashActivity.peak).toBeLessThanOrEqual(MAX_CONCURRENT_HASHES);
    expect(await readDoneAfter).toBeLessThan(checked);
    console.info(
      `login burst from 300 addresses: ${hashActivity.verifications} passwords hashed, ${count(statuses)[503]} answered 503, at most ${hashActivity.peak} hashes at once; a file read finished after ${await readDoneAfter} hashes`,
    );

    // Busy answers used up nobody's attempts, and once the burst is over the administrator gets in.
    const busy = await loginAdmin({ username: "admin", password: "x" }, "198.51.1.0");
    expect(statusOf(busy)).toBe(401);
    expect((await loginAdmin({ username: "admin", password: RIGHT }, "192.0.2.200")).ok).toBe(true);
  });

  it("says the site is busy, not that the password was wrong", async () => {
    const letGo = holdHashes();
    const burst = Array.from({ length: 20 }, (_, i) => loginAdmin({ username: "admin", password: "x" }, `198.18.0.${i}`));
    try {
      await expect.poll(() => hashActivity.waiting).toBe(MAX_WAITING_HASHES);
    } finally {
      letGo();
    }
    const results = await Promise.all(burst);
    expect(results.at(-1)).toMatchObject({ ok: false, status: 503, errors: { form: [PASSWORD_CHECKS_BUSY] }, retryAfterSeconds: 5 });
  });

  it("the configured administrator is still checked at start while logins fill the queue", async () => {
    const letGo = holdHashes();
    const burst = Array.from({ length: 30 }, (_, i) => loginAdmin({ username: "admin", password: "x" }, `198.19.0.${i}`));
    try {
      await expect.poll(() => hashActivity.waiting).toBe(MAX_WAITING_HASHES);
      await expect(ensureConfiguredAdmin("admin", RIGHT)).resolves.toBeUndefined();
    } finally {
      letGo();
    }
    expect(count((await Promise.all(burst)).map(statusOf))[503]).toBeGreaterThan(0);
  });
});

describe("locking the family out", () => {
  it("five wrong logins for admin from one address leave the right password from another address working", async () => {
    for (let i = 0; i < MAX_FAILED_LOGINS + 3; i++) await loginAdmin({ username: "admin", password: `wrong-${i}` }, "203.0.113.5");
    expect(statusOf(await loginAdmin({ username: "admin", password: RIGHT }, "203.0.113.5"))).toBe(429);
    const elsewhere = await loginAdmin({ username: "admin", password: RIGHT }, "198.51.100.8");
    expect(elsewhere).toMatchObject({ ok: true, admin: { username: "admin" } });
  });

  it("a username failed from many addresses only refuses the addresses that failed it", async () => {
    // One guess each from seven addresses: the username is now under attack.
    for (let i = 0; i < MAX_FAILED_LOGINS + 2; i++) {
      expect(statusOf(await loginAdmin({ username: "ADMIN", password: `wrong-${i}` }, `203.0.113.${10 + i}`))).toBe(401);
    }
    // An address that already failed gets no second guess at it, even the right one…
    expect(statusOf(await loginAdmin({ username: "admin", password: RIGHT }, "203.0.113.10"))).toBe(429);
    // …one that has not failed does, once, and the right password always gets in.
    expect(statusOf(await loginAdmin({ username: "admin", password: "wrong-again" }, "203.0.113.50"))).toBe(401);
    expect(statusOf(await loginAdmin({ username: "admin", password: "wrong-again" }, "203.0.113.50"))).toBe(429);
    // A network that failed another username has not failed this one.
    expect(statusOf(await loginAdmin({ username: "someone-else", password: "wrong" }, "203.0.113.51"))).toBe(401);
    expect((await loginAdmin({ username: "admin", password: RIGHT }, "203.0.113.51")).ok).toBe(true);
    // Logging in gives the username a clean slate.
    expect(statusOf(await loginAdmin({ username: "admin", password: RIGHT }, "203.0.113.11"))).toBe(200);
  });
});
