// relativeTime writes date-fns's formatDistance words itself (to keep the
// library out of the pages' JavaScript): the same words on every kind of age.
import { formatDistance } from "date-fns";
import { describe, expect, it } from "vitest";
import { relativeTime } from "~/utils/relative-time";

/** A small seeded generator, so every run checks the same dates. */
function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe("relativeTime", () => {
  it("gives date-fns's words for ages from seconds to decades", () => {
    const random = seeded(17);
    const mismatches: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const now = Date.UTC(2020, 0, 1) + Math.floor(random() * 10 * 365 * 86_400_000);
      // Ages spread evenly on a log scale from a second to forty years.
      const age = Math.floor(Math.exp(random() * Math.log(40 * 365 * 86_400_000)));
      const expected = formatDistance(now - age, now, { addSuffix: true });
      const ours = relativeTime(now - age, now);
      if (ours !== expected)
        mismatches.push(`${new Date(now - age).toISOString()} → ${new Date(now).toISOString()}: ${ours} ≠ ${expected}`);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it("gives date-fns's words around month ends, leap days and the limits between words", () => {
    const mismatches: string[] = [];
    const nows = [
      Date.UTC(2024, 1, 29, 12),
      Date.UTC(2025, 2, 31, 23, 30),
      Date.UTC(2025, 0, 31),
      Date.UTC(2026, 9, 25, 1, 30),
      Date.UTC(2026, 2, 29, 2),
    ];
    const minutes = [0, 1, 2, 44, 45, 89, 90, 1439, 1440, 2519, 2520, 43_199, 43_200, 86_399, 86_400, 525_600, 1_000_000, 5_000_000];
    for (const now of nows)
      for (const m of minutes)
        for (const extra of [-30_001, 0, 29_999, 30_000]) {
          const then = now - m * 60_000 - extra;
          if (then > now) continue;
          const expected = formatDistance(then, now, { addSuffix: true });
          if (relativeTime(then, now) !== expected)
            mismatches.push(`${m} min ${extra} ms before ${new Date(now).toISOString()}: ${relativeTime(then, now)} ≠ ${expected}`);
        }
    for (let day = 0; day < 800; day++) {
      const now = Date.UTC(2024, 0, 1) + day * 86_400_000;
      for (const months of [2, 3, 11, 12, 13, 15, 21, 24]) {
        const then = new Date(now);
        then.setMonth(then.getMonth() - months);
        const expected = formatDistance(then, now, { addSuffix: true });
        if (relativeTime(then, now) !== expected)
          mismatches.push(`${months} months before ${new Date(now).toISOString()}: ${relativeTime(then, now)} ≠ ${expected}`);
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});

describe("relativeTime in the visitor's language", () => {
  const NOW = Date.UTC(2026, 2, 14, 12, 0, 0);
  const HOUR = 60 * 60 * 1000;
  const DAY = 24 * HOUR;

  it("writes English as date-fns does, whatever the tag's default", () => {
    expect(relativeTime(NOW - 3 * DAY, NOW, "en")).toBe("3 days ago");
    expect(relativeTime(NOW - 3 * DAY, NOW)).toBe("3 days ago");
    expect(relativeTime(null, NOW, "en")).toBe("Recently");
  });

  it("writes Spanish and Arabic with the same rounding", () => {
    expect(relativeTime(NOW - 3 * DAY, NOW, "es")).toBe("hace 3 días");
    expect(relativeTime(NOW - 2 * HOUR, NOW, "es")).toBe("hace 2 horas");
    expect(relativeTime(NOW - 20 * 1000, NOW, "es")).toBe("ahora");
    expect(relativeTime(NOW - 400 * DAY, NOW, "es")).toBe("hace 1 año");
    expect(relativeTime(NOW - 3 * DAY, NOW, "ar")).toBe(new Intl.RelativeTimeFormat("ar").format(-3, "day"));
    expect(relativeTime(NOW - 3 * DAY, NOW, "ar")).toMatch(/^قبل .+ أيام$/);
    expect(relativeTime(NOW - 20 * 1000, NOW, "ar")).toBe("الآن");
  });

  it("says the caller's word for an unknown time", () => {
    expect(relativeTime(null, NOW, "es", "Recientemente")).toBe("Recientemente");
  });

  it("gives the date in the language where the browser has no Intl.RelativeTimeFormat (Safari 12)", () => {
    const own = Intl.RelativeTimeFormat;
    try {
      (Intl as { RelativeTimeFormat?: unknown }).RelativeTimeFormat = undefined;
      expect(relativeTime(NOW - 3 * DAY, NOW, "es")).toBe(
        new Date(NOW - 3 * DAY).toLocaleDateString("es", { year: "numeric", month: "long", day: "numeric" }),
      );
      expect(relativeTime(NOW - 3 * DAY, NOW, "en")).toBe("3 days ago");
    } finally {
      (Intl as { RelativeTimeFormat?: unknown }).RelativeTimeFormat = own;
    }
  });
});
