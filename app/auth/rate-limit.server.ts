/**
 * Counts events per key in a sliding window, in this process's memory (the
 * site runs as one machine). Old entries are dropped as keys are touched and
 * by a periodic sweep, so memory stays bounded by recent activity.
 */
export interface RateLimiter {
  /** Whether one more event for this key is allowed now (does not count it). */
  check(key: string, now?: number): { allowed: boolean; retryAfterSeconds: number };
  /** Counts one event for this key. */
  hit(key: string, now?: number): void;
  reset(key?: string): void;
}

export function createRateLimiter({ limit, windowMs }: { limit: number; windowMs: number }): RateLimiter {
  const events = new Map<string, number[]>();

  function recent(key: string, now: number): number[] {
    const list = (events.get(key) ?? []).filter((t) => t > now - windowMs);
    if (list.length) events.set(key, list);
    else events.delete(key);
    return list;
  }

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const key of events.keys()) recent(key, now);
  }, windowMs);
  sweep.unref?.();

  return {
    check(key, now = Date.now()) {
      const list = recent(key, now);
      if (list.length < limit) return { allowed: true, retryAfterSeconds: 0 };
      const oldest = list[list.length - limit]!;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    },
    hit(key, now = Date.now()) {
      const list = recent(key, now);
      list.push(now);
      events.set(key, list);
    },
    reset(key) {
      if (key === undefined) events.clear();
      else events.delete(key);
    },
  };
}
