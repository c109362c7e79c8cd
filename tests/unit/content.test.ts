import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundledMedia, content } from "~/content";
import { SettingsFields } from "~/site/settings.schema";
import { describeService } from "~/site/service-time.server";

describe("the defaults of a new site", () => {
  it("pass the settings' own rules, so a fresh install shows exactly them", () => {
    const parsed = SettingsFields.safeParse(content);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data).toEqual(content);
  });

  it("hold the service on Sunday, August 31st 2025, from 4 to 8 pm", () => {
    expect(describeService(content, 0).dateText).toBe("Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm");
  });

  it("place the service at a venue in Berkeley, CA", () => {
    expect(content.venueAddress).toContain("Berkeley, CA");
    expect(content.venueName.toLowerCase()).toContain("club");
  });

  it("use the exact privacy note of the spec", () => {
    expect(content.privacyNote).toBe("Your contact info will be used only for acknowledgments.");
  });

  it("word the donation card as the spec does, but send nobody to give anywhere until the family gives the link", () => {
    expect(content.donationTitle).toBe("Make a Donation");
    expect(content.donationButtonLabel).toBe("Donate to UCSF");
    expect(content.donationText.trim()).not.toBe("");
    // A new memorial must not ask visitors to give to a real hospital the family never chose.
    expect(content.donationUrl).toBe("");
  });

  it("give a welcome message for before and after the service, in paragraphs", () => {
    for (const message of [content.welcomeMessage, content.welcomeMessageAfter]) {
      expect(message.split("\n\n").length).toBeGreaterThan(1);
    }
    expect(content.welcomeMessageAfter).toContain("already taken place");
  });

  it("ship the hero image and the song they name under public/", () => {
    for (const file of [bundledMedia.heroImage, bundledMedia.karenModeMusic.mp3]) {
      expect(file.startsWith("/")).toBe(true);
      const onDisk = path.resolve(import.meta.dirname, "../../public", `.${file}`);
      expect(existsSync(onDisk)).toBe(true);
      expect(statSync(onDisk).size).toBeGreaterThan(0);
    }
  });
});
