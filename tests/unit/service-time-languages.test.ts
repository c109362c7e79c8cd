// The service's day and hours as the home page writes them, in the visitor's
// language: each language's own words and clock, English as it always was.
import { describe, expect, it } from "vitest";
import { content } from "~/content";
import { describeService } from "~/site/service-time.server";

// content's service: Sunday 31 August 2025, 4 pm to 8 pm in Los Angeles.
const service = (language: Parameters<typeof describeService>[2]) => describeService(content, 0, language);

describe("the service's date in the visitor's language", () => {
  it("keeps the English words exactly as they were", () => {
    const english = service("en");
    expect(english.dateText).toBe("Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm");
    expect(english.whenText).toBe("Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm PDT");
    expect(english.dayText).toBe("Sunday, August 31st, 2025");
    expect(describeService(content, 0)).toEqual(english);
  });

  it("writes the day and hours in Spanish", () => {
    const spanish = service("es");
    expect(spanish.dayText).toBe("domingo, 31 de agosto de 2025");
    expect(spanish.dateText).toMatch(/^domingo, 31 de agosto de 2025 · 16:00\s?[–-]\s?20:00$/);
    expect(spanish.whenText.startsWith(spanish.dateText)).toBe(true);
  });

  it("writes the day and hours in German", () => {
    const german = service("de");
    expect(german.dayText).toBe("Sonntag, 31. August 2025");
    expect(german.dateText).toMatch(/^Sonntag, 31\. August 2025 · 16:00\s?[–-]\s?20:00/);
  });

  it("writes the day and hours in Chinese", () => {
    const chinese = service("zh");
    expect(chinese.dayText).toBe("2025年8月31日星期日");
    expect(chinese.dateText).toContain("2025年8月31日星期日 · ");
    expect(chinese.dateText).not.toMatch(/Sunday|August|pm/);
  });

  it("writes the day and hours in Arabic", () => {
    const arabic = service("ar");
    expect(arabic.dayText).toContain("الأحد");
    expect(arabic.dayText).toContain("أغسطس");
    expect(arabic.dateText).not.toMatch(/Sunday|August|pm/);
  });

  it("names both days when the service ends on another one", () => {
    const overnight = describeService({ ...content, serviceStartsAt: "2025-08-31T20:00", serviceEndsAt: "2025-09-01T01:00" }, 0, "es");
    expect(overnight.dateText).toMatch(/^domingo, 31 de agosto de 2025 · 20:00 – lunes, 1 de septiembre de 2025 · 1:00$/);
  });

  it("tells the same instants and whether it is over in every language", () => {
    const { startsAt, endsAt, over, mapsLink } = service("en");
    for (const language of ["es", "ar", "zh", "de"] as const) expect(service(language)).toMatchObject({ startsAt, endsAt, over, mapsLink });
  });
});
