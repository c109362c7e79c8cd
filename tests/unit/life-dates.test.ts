// The person's dates as the family writes them, and the line under the name.
import { describe, expect, it } from "vitest";
import { canPrecede, formatPartialDate, lifeDates, parsePartialDate } from "~/site/life-dates";

describe("a date of birth or death", () => {
  it("is a year, a month or a day that exists", () => {
    expect(parsePartialDate("1942")).toEqual({ year: 1942 });
    expect(parsePartialDate("1942-03")).toEqual({ year: 1942, month: 3 });
    expect(parsePartialDate("1944-02-29")).toEqual({ year: 1944, month: 2, day: 29 });
    for (const wrong of ["1942-02-30", "1943-02-29", "1942-13", "1942-00", "1942-3", "42", "0999", "1942-03-14T10:00", "March 1942", ""]) {
      expect(parsePartialDate(wrong), wrong).toBeNull();
    }
  });

  it("is compared at the precision both give", () => {
    const date = (value: string) => parsePartialDate(value)!;
    expect(canPrecede(date("1942"), date("2026-01-09"))).toBe(true);
    expect(canPrecede(date("1942"), date("1942-01-01"))).toBe(true);
    expect(canPrecede(date("1942-03-14"), date("1942-03"))).toBe(true);
    expect(canPrecede(date("1942-03-14"), date("1942-03-14"))).toBe(true);
    expect(canPrecede(date("1942-03"), date("1942-02-28"))).toBe(false);
    expect(canPrecede(date("2026"), date("1942"))).toBe(false);
  });

  it("is written in words", () => {
    expect(formatPartialDate({ year: 1942 })).toBe("1942");
    expect(formatPartialDate({ year: 1942, month: 3 })).toBe("March 1942");
    expect(formatPartialDate({ year: 1942, month: 3, day: 14 })).toBe("March 14, 1942");
    expect(formatPartialDate({ year: 1942, month: 3, day: 14 }, { yearOnly: true })).toBe("1942");
  });
});

describe("the line under the name", () => {
  it("gives the years, or the dates as the family gave them, each with its machine-readable date", () => {
    const dates = { birthDate: "1942-03-14", deathDate: "2026-01" };
    expect(lifeDates({ ...dates, lifeDatesShown: "years" })).toEqual({
      born: { text: "1942", dateTime: "1942" },
      died: { text: "2026", dateTime: "2026" },
    });
    expect(lifeDates({ ...dates, lifeDatesShown: "full" })).toEqual({
      born: { text: "March 14, 1942", dateTime: "1942-03-14" },
      died: { text: "January 2026", dateTime: "2026-01" },
    });
  });

  it("has one end when only one date is known, and is left out when neither is", () => {
    expect(lifeDates({ birthDate: "", deathDate: "2026", lifeDatesShown: "years" })).toEqual({
      born: null,
      died: { text: "2026", dateTime: "2026" },
    });
    expect(lifeDates({ birthDate: "", deathDate: "", lifeDatesShown: "full" })).toBeNull();
  });
});
