import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { content } from "~/content";

describe("site content", () => {
  it("gives the service date as Sunday, August 31st 2025, from 4 to 8 pm", () => {
    const text = content.serviceDateText;
    expect(text).toContain("Sunday");
    expect(text).toContain("August 31");
    expect(text).toContain("2025");
    expect(text).toMatch(/\b4\b/);
    expect(text).toMatch(/\b8\b/);
    expect(text.toLowerCase()).toContain("pm");
    expect(content.serviceYear).toBe("2025");
  });

  it("places the service at a venue in Berkeley, CA", () => {
    expect(content.venueAddress).toContain("Berkeley, CA");
    expect(content.venueName.toLowerCase()).toContain("club");
  });

  it("uses the exact privacy note of the spec", () => {
    expect(content.privacyNote).toBe("Your contact info will be used only for acknowledgments.");
  });

  it("asks for donations to UCSF over https", () => {
    expect(content.donation.title).toBe("Make a Donation");
    expect(content.donation.buttonLabel).toBe("Donate to UCSF");
    expect(new URL(content.donation.url).protocol).toBe("https:");
    expect(content.donation.text.trim()).not.toBe("");
  });

  it.each([
    "siteTitle",
    "serviceTitle",
    "serviceDateText",
    "serviceYear",
    "venueName",
    "venueAddress",
    "mapsLink",
    "contactEmail",
    "heroImageAlt",
    "privacyNote",
  ] as const)("fills in %s", (key) => {
    const value = content[key];
    expect(typeof value).toBe("string");
    expect(value.trim().length).toBeGreaterThan(0);
  });

  it("has a welcome message of non-empty paragraphs", () => {
    expect(content.welcomeMessage.length).toBeGreaterThan(0);
    for (const paragraph of content.welcomeMessage) expect(paragraph.trim().length).toBeGreaterThan(0);
  });

  it("points the map link and contact email at real-looking addresses", () => {
    expect(new URL(content.mapsLink).protocol).toBe("https:");
    expect(content.contactEmail).toMatch(/^[^@\s]+@[^@\s]+\.[^@\s]+$/);
  });

  it("ships the hero image it names under public/", () => {
    expect(content.heroImage.startsWith("/")).toBe(true);
    const file = path.resolve(import.meta.dirname, "../../public", `.${content.heroImage}`);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBeGreaterThan(0);
  });
});
