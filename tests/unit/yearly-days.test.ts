// The days that come back each year, from the dates the family gave: the
// birthday and the anniversary on their Gregorian day (29 February on the
// 28th in a common year), the yahrzeit on its Hebrew date, moved to the next
// Hebrew day for a death after sunset, and only what the dates allow.
import { describe, expect, it } from "vitest";
import { remembranceFrom, REMEMBRANCE_DEFAULTS, remindersOn } from "~/remembrance/remembrance.schema";
import { addDays, yearlyDaysBetween, yearlyDaysKnown } from "~/remembrance/yearly-days.server";

const all = { birthday: true, anniversary: true, yahrzeit: true, afterSunset: false };

describe("the yearly days", () => {
  it("finds each day the family turned on in a range, in date order, only after the death", () => {
    const days = yearlyDaysBetween({ birthDate: "1942-03-14", deathDate: "2026-01-09" }, all, "2026-01-01", "2027-12-31");
    expect(days.map((day) => [day.kind, day.date, day.years])).toEqual([
      ["birthday", "2026-03-14", 84],
      ["yahrzeit", "2026-12-30", 1],
      ["anniversary", "2027-01-09", 1],
      ["birthday", "2027-03-14", 85],
      // 20 Tevet 5788 is 19 January 2028, past the range.
    ]);
    expect(days.find((day) => day.kind === "yahrzeit")?.hebrewDate).toBe("20th of Tevet, 5787");
  });

  it("moves the yahrzeit of a death after sunset to the next Hebrew day", () => {
    const [yahrzeit] = yearlyDaysBetween(
      { birthDate: "", deathDate: "2026-01-09" },
      { ...all, afterSunset: true },
      "2026-12-01",
      "2027-01-31",
    ).filter((day) => day.kind === "yahrzeit");
    expect(yahrzeit).toEqual({ kind: "yahrzeit", date: "2026-12-31", years: 1, hebrewDate: "21st of Tevet, 5787" });
  });

  it("keeps a 29 February birthday on the 28th in a common year", () => {
    const days = yearlyDaysBetween(
      { birthDate: "1940-02-29", deathDate: "2020-05-01" },
      { ...all, anniversary: false, yahrzeit: false },
      "2027-01-01",
      "2028-12-31",
    );
    expect(days.map((day) => day.date)).toEqual(["2027-02-28", "2028-02-29"]);
  });

  it("offers only what the dates allow: a year or a month is not a day", () => {
    expect(yearlyDaysKnown({ birthDate: "1942", deathDate: "2026-01" })).toEqual({ birthday: false, anniversary: false, yahrzeit: false });
    expect(yearlyDaysKnown({ birthDate: "1942-03-14", deathDate: "" })).toEqual({ birthday: true, anniversary: false, yahrzeit: false });
    expect(yearlyDaysBetween({ birthDate: "1942", deathDate: "2026-01" }, all, "2026-01-01", "2030-12-31")).toEqual([]);
  });

  it("counts days across the end of a month and a year", () => {
    expect(addDays("2026-12-28", 7)).toBe("2027-01-04");
    expect(addDays("2028-02-27", 2)).toBe("2028-02-29");
  });
});

describe("the family's reminder choices", () => {
  it("read a stored value field by field over the defaults, and are on only with a day and a time to send", () => {
    expect(remembranceFrom(null)).toEqual(REMEMBRANCE_DEFAULTS);
    expect(remembranceFrom({ anniversary: true, daysBefore: 99, sendAt: "7" })).toEqual({ ...REMEMBRANCE_DEFAULTS, anniversary: true });
    expect(remindersOn(REMEMBRANCE_DEFAULTS)).toBe(false);
    expect(remindersOn({ ...REMEMBRANCE_DEFAULTS, yahrzeit: true })).toBe(true);
    expect(remindersOn({ ...REMEMBRANCE_DEFAULTS, yahrzeit: true, onTheDay: false, daysBefore: 0 })).toBe(false);
  });
});
