import { describe, expect, it } from "vitest";
import { SettingsPatch, withWebScheme } from "~/site/settings.schema";

describe("web addresses in the settings", () => {
  it("a bare donation address such as giving.example.org is taken, with https:// in front", () => {
    expect(SettingsPatch.parse({ donationUrl: "giving.example.org" }).donationUrl).toBe("https://giving.example.org");
    expect(SettingsPatch.parse({ donationUrl: "www.example.org/give?x=1" }).donationUrl).toBe("https://www.example.org/give?x=1");
    expect(SettingsPatch.parse({ livestreamUrl: "  youtube.com/live/abc  " }).livestreamUrl).toBe("https://youtube.com/live/abc");
  });

  it("an empty link stays empty, a full one stays as it is, and other schemes are still refused", () => {
    expect(SettingsPatch.parse({ donationUrl: "" }).donationUrl).toBe("");
    expect(SettingsPatch.parse({ mapsLink: "http://maps.example/x" }).mapsLink).toBe("http://maps.example/x");
    expect(SettingsPatch.safeParse({ donationUrl: "http://giving.example/" }).success).toBe(false);
    expect(SettingsPatch.safeParse({ donationUrl: "javascript:alert(1)" }).success).toBe(false);
    expect(SettingsPatch.safeParse({ donationUrl: "not an address" }).success).toBe(false);
  });

  it("adds the scheme only to something that looks like a web address", () => {
    expect(withWebScheme("example.org")).toBe("https://example.org");
    expect(withWebScheme("mailto:a@b.example")).toBe("mailto:a@b.example");
    expect(withWebScheme("just words")).toBe("just words");
    expect(withWebScheme("")).toBe("");
  });
});
