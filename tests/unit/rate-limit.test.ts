import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimitHits } from "../../db/schema";
import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";
import { db } from "~/platform/db.server";

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

describe("weights and consume", () => {
  it("counts each event by its weight and refuses what would go over the limit", () => {
    const bytes = createRateLimiter({ limit: 100, windowMs: WINDOW });
    bytes.hit("a", T0, 60);
    expect(bytes.used("a", T0 + 1)).toBe(60);
    expect(bytes.check("a", T0 + 1, 40)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    const refused = bytes.check("a", T0 + 1, 41);
    expect(refused.allowed).toBe(false);
    // Only once the 60 have left the window is there room for 41.
    expect(refused.retryAfterSeconds).toBe(Math.ceil((WINDOW - 1) / 1000));
    bytes.hit("a", T0 + 1000, 30);
    bytes.hit("a", T0 + 2000, 10);
    // 100 used: 1 more must wait for the first event (60) to leave.
    expect(bytes.check("a", T0 + 3000, 1).retryAfterSeconds).toBe(Math.ceil((WINDOW - 3000) / 1000));
    expect(bytes.used("a", T0 + WINDOW)).toBe(40);
  });

  it("consume counts only what it allows, in one step", () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: WINDOW });
    expect(limiter.consume("a", T0, 2)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(limiter.consume("a", T0 + 1, 2).allowed).toBe(false);
    expect(limiter.used("a", T0 + 2)).toBe(2);
    expect(limiter.consume("a", T0 + 2).allowed).toBe(true);
    expect(limiter.consume("a", T0 + 3).allowed).toBe(false);
    expect(limiter.used("a", T0 + 4)).toBe(3);
  });
});

describe("networkKey", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(networkKey("203.0.113.7")).toBe("203.0.113.7");
    expect(networkKey(" 198.51.100.1 ")).toBe("198.51.100.1");
  });

  it("counts an IPv6 address by its /64, written out or compressed", () => {
    const key = "2001:db8:85a3:1::/64";
    expect(networkKey("2001:0db8:85a3:0001:0000:8a2e:0370:7334")).toBe(key);
    expect(networkKey("2001:db8:85a3:1::1")).toBe(key);
    expect(networkKey("2001:DB8:85A3:1:ffff:ffff:ffff:ffff")).toBe(key);
    expect(networkKey("[2001:db8:85a3:1::2]")).toBe(key);
    expect(networkKey("2001:db8:85a3:2::1")).not.toBe(key);
    expect(networkKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(networkKey("::1")).toBe("0:0:0:0::/64");
    expect(networkKey("::")).toBe("0:0:0:0::/64");
    // "::" standing for one group only, and a group count that puts the gap inside the first four.
    expect(networkKey("1::3:4:5:6:7:8")).toBe("1:0:3:4::/64");
    expect(networkKey("1:2::5:6:7:8")).toBe("1:2:0:0::/64");
  });

  it("reads an IPv6 address ending in IPv4 notation with the right number of groups", () => {
    // The dotted tail is two groups: "1::2:3:4:5:a.b.c.d" leaves room for one zero group.
    expect(networkKey("1::2:3:4:5:192.0.2.1")).toBe("1:0:2:3::/64");
    expect(networkKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(networkKey("1:2:3:4:5:6:192.0.2.1")).toBe("1:2:3:4::/64");
  });

  it("counts an IPv4 address mapped into IPv6 as the IPv4 address, however it is written", () => {
    expect(networkKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(networkKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
    expect(networkKey("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(networkKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(networkKey("0000:0000:0000:0000:0000:ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("ignores a zone id", () => {
    expect(networkKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(networkKey("fe80::abcd%2")).toBe("fe80:0:0:0::/64");
    expect(networkKey("[fe80::1%25en0]")).toBe("fe80:0:0:0::/64");
  });

  it("puts anything that is not an address under one key", () => {
    for (const garbage of [
      undefined,
      null,
      "",
      "   ",
      "unknown",
      "localhost",
      "300.1.1.1",
      "1.2.3",
      "1:2:3:4:5:6:7:8:9",
      "2001:db8:::1",
      "::ffff:1.2.3.400",
      "g::1",
      "%eth0",
      "1.2.3.4%eth0x",
    ]) {
      expect(networkKey(garbage), String(garbage)).toBe("unknown");
    }
  });
});

describe("limits kept in the database", () => {
  const rows = (bucket: string) => db.select().from(rateLimitHits).where(eq(rateLimitHits.bucket, bucket)).all();

  it("a limiter created later on the same database (a restart) sees the events of the one before", () => {
    const now = Date.now();
    const before = createRateLimiter({ limit: 3, windowMs: WINDOW, bucket: "restart" });
    before.hit("203.0.113.1", now - 2000);
    before.hit("203.0.113.1", now - 1000, 2);
    before.hit("198.51.100.1", now - 1000);
    expect(rows("restart")).toHaveLength(3);

    const after = createRateLimiter({ limit: 3, windowMs: WINDOW, bucket: "restart" });
    expect(after.used("203.0.113.1", now)).toBe(3);
    expect(after.check("203.0.113.1", now)).toEqual({ allowed: false, retryAfterSeconds: Math.ceil((WINDOW - 2000) / 1000) });
    expect(after.used("198.51.100.1", now)).toBe(1);
    // Another bucket, or a limiter kept in memory only, starts empty.
    expect(createRateLimiter({ limit: 3, windowMs: WINDOW, bucket: "other" }).used("203.0.113.1", now)).toBe(0);
    expect(createRateLimiter({ limit: 3, windowMs: WINDOW }).used("203.0.113.1", now)).toBe(0);
  });

  it("does not bring back events that have left the window", () => {
    const now = Date.now();
    const before = createRateLimiter({ limit: 2, windowMs: WINDOW, bucket: "old-events" });
    before.hit("a", now - WINDOW - 1000);
    before.hit("a", now - 5000);
    const after = createRateLimiter({ limit: 2, windowMs: WINDOW, bucket: "old-events" });
    expect(after.used("a", now)).toBe(1);
  });

  it("keeps a memory-only limiter out of the database", () => {
    const count = db.select().from(rateLimitHits).all().length;
    createRateLimiter({ limit: 2, windowMs: WINDOW }).hit("a");
    expect(db.select().from(rateLimitHits).all()).toHaveLength(count);
  });

  it("reset clears the rows too, so a restart does not bring them back", () => {
    const now = Date.now();
    const limiter = createRateLimiter({ limit: 1, windowMs: WINDOW, bucket: "reset" });
    limiter.hit("a", now);
    limiter.hit("b", now);
    limiter.hit("c", now);
    createRateLimiter({ limit: 1, windowMs: WINDOW, bucket: "reset-neighbour" }).hit("a", now);

    limiter.reset("a");
    expect(
      rows("reset")
        .map((row) => row.key)
        .sort(),
    ).toEqual(["b", "c"]);
    expect(createRateLimiter({ limit: 1, windowMs: WINDOW, bucket: "reset" }).check("a", now).allowed).toBe(true);

    limiter.reset();
    expect(rows("reset")).toEqual([]);
    expect(limiter.check("b", now).allowed).toBe(true);
    expect(createRateLimiter({ limit: 1, windowMs: WINDOW, bucket: "reset" }).check("b", now).allowed).toBe(true);
    // Other buckets keep theirs.
    expect(rows("reset-neighbour")).toHaveLength(1);
  });
});
