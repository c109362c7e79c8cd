import { describe, expect, it } from "vitest";
import { createRateLimiter } from "~/auth/rate-limit.server";

const WINDOW = 10 * 60 * 1000;
const T0 = 1_700_000_000_000;

/** Records `count` hits for a key, each checked first, one second apart from `start`. */
function hitTimes(limiter: ReturnType<typeof createRateLimiter>, key: string, count: number, start = T0) {
  for (let i = 0; i < count; i++) {
    const now = start + i * 1000;
    expect(limiter.check(key, now)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    limiter.hit(key, now);
  }
}

describe("createRateLimiter", () => {
  it("allows `limit` events and refuses the next with a positive retryAfterSeconds", () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: WINDOW });
    hitTimes(limiter, "a", 3);
    const refused = limiter.check("a", T0 + 3000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    // The oldest hit (at T0) leaves the window at T0 + WINDOW.
    expect(refused.retryAfterSeconds).toBe(Math.ceil((T0 + WINDOW - (T0 + 3000)) / 1000));
  });

  it("check does not count an event by itself", () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: WINDOW });
    for (let i = 0; i < 10; i++) expect(limiter.check("a", T0 + i).allowed).toBe(true);
    limiter.hit("a", T0);
    expect(limiter.check("a", T0 + 1).allowed).toBe(true);
    limiter.hit("a", T0 + 1);
    expect(limiter.check("a", T0 + 2).allowed).toBe(false);
  });

  it("allows again once the oldest event has left the window", () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: WINDOW });
    limiter.hit("a", T0);
    limiter.hit("a", T0 + 60_000);
    expect(limiter.check("a", T0 + WINDOW - 1).allowed).toBe(false);
    // Exactly one window after the first hit, that hit no longer counts.
    expect(limiter.check("a", T0 + WINDOW).allowed).toBe(true);
    limiter.hit("a", T0 + WINDOW);
    // The second hit (T0 + 60s) is still inside the window.
    const refused = limiter.check("a", T0 + WINDOW + 1);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(Math.ceil((T0 + 60_000 + WINDOW - (T0 + WINDOW + 1)) / 1000));
    expect(limiter.check("a", T0 + 60_000 + WINDOW).allowed).toBe(true);
  });

  it("tells the caller to wait at least one second even at the edge of the window", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: WINDOW });
    limiter.hit("a", T0);
    const refused = limiter.check("a", T0 + WINDOW - 1);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("keeps keys independent", () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: WINDOW });
    hitTimes(limiter, "10.0.0.1", 2);
    expect(limiter.check("10.0.0.1", T0 + 5000).allowed).toBe(false);
    expect(limiter.check("10.0.0.2", T0 + 5000)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    hitTimes(limiter, "10.0.0.2", 2, T0 + 5000);
    expect(limiter.check("10.0.0.2", T0 + 9000).allowed).toBe(false);
  });

  it("reset(key) clears one key and reset() clears all", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: WINDOW });
    limiter.hit("a", T0);
    limiter.hit("b", T0);
    limiter.hit("c", T0);
    limiter.reset("a");
    expect(limiter.check("a", T0 + 1).allowed).toBe(true);
    expect(limiter.check("b", T0 + 1).allowed).toBe(false);
    limiter.reset();
    expect(limiter.check("b", T0 + 1).allowed).toBe(true);
    expect(limiter.check("c", T0 + 1).allowed).toBe(true);
  });

  it("keeps separate limiters separate", () => {
    const one = createRateLimiter({ limit: 1, windowMs: WINDOW });
    const two = createRateLimiter({ limit: 1, windowMs: WINDOW });
    one.hit("a", T0);
    expect(one.check("a", T0 + 1).allowed).toBe(false);
    expect(two.check("a", T0 + 1).allowed).toBe(true);
  });
});
