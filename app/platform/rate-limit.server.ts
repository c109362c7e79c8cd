import { isIPv4, isIPv6 } from "node:net";
import { and, eq, gt, lt } from "drizzle-orm";
import { rateLimitHits } from "../../db/schema";
import { db } from "~/platform/db.server";

/**
 * Counts events per key in a sliding window. The counts live in this
 * process's memory (the site runs as one machine) and, for a limiter with a
 * `bucket` name, also in the database, so a restart does not hand a script a
 * fresh allowance. An event has a weight: 1 for a submission or a failed
 * login, a number of bytes for an upload budget.
 */
export interface RateLimiter {
  /** Whether `weight` more is allowed now (does not count it). */
  check(key: string, now?: number, weight?: number): { allowed: boolean; retryAfterSeconds: number };
  /** Counts an event for this key. */
  hit(key: string, now?: number, weight?: number): void;
  /** check, and count it only when allowed, in one step (no await between the two). */
  consume(key: string, now?: number, weight?: number): { allowed: boolean; retryAfterSeconds: number };
  /** Total weight counted for this key in the window. */
  used(key: string, now?: number): number;
  reset(key?: string): void;
}

interface Hit {
  at: number;
  weight: number;
}

export function createRateLimiter({
  limit,
  windowMs,
  bucket,
}: {
  limit: number;
  windowMs: number;
  /** Name under which the events are kept in the database; memory only without one. */
  bucket?: string;
}): RateLimiter {
  const events = new Map<string, Hit[]>();

  if (bucket) {
    const since = new Date(Date.now() - windowMs);
    const rows = db
      .select({ key: rateLimitHits.key, at: rateLimitHits.at, weight: rateLimitHits.weight })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.bucket, bucket), gt(rateLimitHits.at, since)))
      .orderBy(rateLimitHits.at)
      .all();
    for (const row of rows) {
      const list = events.get(row.key) ?? [];
      list.push({ at: row.at.getTime(), weight: row.weight });
      events.set(row.key, list);
    }
  }

  function recent(key: string, now: number): Hit[] {
    const list = (events.get(key) ?? []).filter((hit) => hit.at > now - windowMs);
    if (list.length) events.set(key, list);
    else events.delete(key);
    return list;
  }

  function check(key: string, now = Date.now(), weight = 1) {
    const list = recent(key, now);
    let total = list.reduce((sum, hit) => sum + hit.weight, 0);
    if (total + weight <= limit) return { allowed: true, retryAfterSeconds: 0 };
    // Wait until enough of the oldest events have left the window.
    let freeAt = now;
    for (const hit of list) {
      total -= hit.weight;
      freeAt = hit.at + windowMs;
      if (total + weight <= limit) break;
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
  }

  function hit(key: string, now = Date.now(), weight = 1) {
    const list = recent(key, now);
    list.push({ at: now, weight });
    events.set(key, list);
    if (!bucket) return;
    try {
      db.insert(rateLimitHits)
        .values({ bucket, key, at: new Date(now), weight })
        .run();
    } catch (error) {
      // A full disk must not stop the count: it carries on in memory.
      console.error(JSON.stringify({ level: "warn", msg: "could not record a rate-limit event", bucket, error: String(error) }));
    }
  }

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const key of events.keys()) recent(key, now);
      if (!bucket) return;
      try {
        db.delete(rateLimitHits)
          .where(and(eq(rateLimitHits.bucket, bucket), lt(rateLimitHits.at, new Date(now - windowMs))))
          .run();
      } catch {
        // Swept again next time.
      }
    },
    Math.min(windowMs, 60 * 60 * 1000),
  );
  sweep.unref?.();

  return {
    check,
    hit,
    consume(key, now = Date.now(), weight = 1) {
      const result = check(key, now, weight);
      if (result.allowed) hit(key, now, weight);
      return result;
    },
    used(key, now = Date.now()) {
      return recent(key, now).reduce((sum, hit) => sum + hit.weight, 0);
    },
    reset(key) {
      if (key === undefined) events.clear();
      else events.delete(key);
      if (!bucket) return;
      db.delete(rateLimitHits)
        .where(key === undefined ? eq(rateLimitHits.bucket, bucket) : and(eq(rateLimitHits.bucket, bucket), eq(rateLimitHits.key, key)))
        .run();
    },
  };
}

/**
 * The network a request comes from, as rate limits count it: an IPv4 address
 * as it is (also when written as IPv4 mapped into IPv6, as a dual-stack
 * socket reports it), and an IPv6 address by its /64, because one home or
 * phone is handed a whole /64 and can pick any address inside it. Anything
 * else, including nothing, is "unknown".
 */
export function networkKey(address: string | undefined | null): string {
  const raw = (address ?? "").trim().replace(/^\[(.*)\]$/, "$1");
  if (isIPv4(raw)) return raw;
  // A zone id ("fe80::1%eth0") names the local interface, not the network.
  const groups = ipv6Groups(raw.replace(/%[^%]+$/, ""));
  if (!groups) return "unknown";
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(text: string): number[] | null {
  if (!isIPv6(text)) return null;
  let address = text.toLowerCase();
  // A dotted IPv4 tail stands for the last two groups.
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    address = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(missing).fill("0"), ...right].map((group) => Number.parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => group >= 0 && group <= 0xffff) ? groups : null;
}
