// The passcode's rules in process: how guesses are counted and hashed (the
// counts come from password.server.ts's own counters, time from a fake
// clock), and what a visitor without it is told of the site.
import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { siteSettings } from "../../db/schema";
import {
  checkVisitorPasscode,
  MAX_PASSCODE_TRIES,
  mayEnterPrivateSite,
  passcodeCookieHeader,
  PASSCODE_WINDOW_MS,
  resetPasscodeThrottle,
} from "~/site/visitor-passcode.server";
import { operator } from "~/platform/actor.server";
import { PASSCODE_CHECKS_BUSY, PASSCODE_WRONG } from "~/site/passcode.schema";
import { bookPasswordCheck, decoyHash, hashActivity, resetHashActivity } from "~/admins/password.server";
import { db } from "~/platform/db.server";
import { getPrivacy, siteViewWhileLocked } from "~/site/privacy.server";
import { getSiteView, getVisitorPasscode, updateSiteSettings } from "~/site/settings.server";

const PASSCODE = "Blue Heron";
const T0 = Date.UTC(2026, 0, 1, 12);

beforeEach(async () => {
  db.delete(siteSettings).run();
  resetPasscodeThrottle();
  const result = await updateSiteSettings({ visibility: "private", visitorPasscode: PASSCODE }, operator("test"));
  expect(result.ok).toBe(true);
  await decoyHash();
  resetHashActivity();
});

const statuses = (results: { ok: boolean; status?: number }[]) =>
  results.reduce<Record<string, number>>((counts, result) => {
    const key = result.ok ? "ok" : String(result.status);
    return { ...counts, [key]: (counts[key] ?? 0) + 1 };
  }, {});

describe("passcode guesses", () => {
  it("a burst from one network hashes at most ten; the rest are answered at once, and then the network must wait", async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => checkVisitorPasscode(`guess ${i}`, "203.0.113.5", T0)));
    expect(hashActivity.verifications).toBe(MAX_PASSCODE_TRIES);
    // Ten were counted and checked; the thirty beyond the login's ten check places were "busy" and counted nothing.
    expect(statuses(results)).toEqual({ 401: 10, 503: 30 });
    expect(results.find((r) => !r.ok && r.status === 503)).toMatchObject({ message: PASSCODE_CHECKS_BUSY, retryAfterSeconds: 5 });
    expect(results.find((r) => !r.ok && r.status === 401)).toMatchObject({ message: PASSCODE_WRONG });

    const refused = await checkVisitorPasscode(PASSCODE, "203.0.113.5", T0 + 60_000);
    expect(refused).toMatchObject({ ok: false, status: 429, retryAfterSeconds: PASSCODE_WINDOW_MS / 1000 - 60 });
    expect(hashActivity.verifications).toBe(MAX_PASSCODE_TRIES);
    // Fifteen minutes after the first guesses, the network may try again.
    expect(await checkVisitorPasscode(PASSCODE, "203.0.113.5", T0 + PASSCODE_WINDOW_MS + 1)).toMatchObject({ ok: true });
  });

  it("counts an IPv6 /64 as one network, and the right passcode gives the network its tries back", async () => {
    for (let i = 0; i < MAX_PASSCODE_TRIES - 1; i++) {
      expect(await checkVisitorPasscode(`guess ${i}`, `2001:db8:5:5::${i + 1}`, T0)).toMatchObject({ status: 401 });
    }
    expect(await checkVisitorPasscode(` blue heron `, "2001:db8:5:5::abcd", T0)).toMatchObject({ ok: true });
    for (let i = 0; i < MAX_PASSCODE_TRIES; i++) {
      expect(await checkVisitorPasscode(`guess ${i}`, "2001:db8:5:5::1", T0)).toMatchObject({ status: 401 });
    }
    expect(await checkVisitorPasscode(PASSCODE, "2001:db8:5:5::2", T0)).toMatchObject({ status: 429 });
    expect(await checkVisitorPasscode(PASSCODE, "2001:db8:5:6::2", T0)).toMatchObject({ ok: true });
  });

  it("while logins hold every check place, a passcode is answered busy at once, hashing nothing and using up no try", async () => {
    const held = Array.from({ length: 10 }, () => bookPasswordCheck());
    try {
      expect(held.every(Boolean)).toBe(true);
      expect(await checkVisitorPasscode(PASSCODE, "203.0.113.6", T0)).toMatchObject({ ok: false, status: 503 });
      expect(hashActivity.verifications).toBe(0);
    } finally {
      for (const release of held) release?.();
    }
    for (let i = 0; i < MAX_PASSCODE_TRIES; i++) {
      expect(await checkVisitorPasscode(`guess ${i}`, "203.0.113.6", T0)).toMatchObject({ status: 401 });
    }
  });

  it("with no passcode stored nothing opens, and the answer still costs a hash", async () => {
    db.delete(siteSettings).run();
    expect(getPrivacy()).toEqual({ visibility: "public", passcode: null });
    expect(await checkVisitorPasscode(PASSCODE, "203.0.113.7", T0)).toMatchObject({ ok: false, status: 401 });
    expect(hashActivity.verifications).toBe(1);
  });
});

describe("the privacy setting", () => {
  it("is read again after every change: through the site, or committed by another process", async () => {
    expect(getPrivacy().visibility).toBe("private");
    expect(getPrivacy()).toBe(getPrivacy()); // one read while nothing changes
    expect((await updateSiteSettings({ visibility: "public" }, operator("test"))).ok).toBe(true);
    expect(getPrivacy().visibility).toBe("public");
    // As `npm run admin` or a second machine would: another connection to the file.
    const other = new Database(process.env.DATABASE_PATH!);
    try {
      other.prepare("update site_settings set value = ? where key = 'visibility'").run(JSON.stringify("private"));
      expect(getPrivacy().visibility).toBe("private");
      other.prepare("delete from site_settings where key = 'visitorPasscode'").run();
      expect(getPrivacy()).toEqual({ visibility: "private", passcode: null });
    } finally {
      other.close();
    }
  });
});

describe("the passcode cookie", () => {
  it("opens while its passcode is the passcode, and names only the version", async () => {
    const passcode = getVisitorPasscode()!;
    const header = await passcodeCookieHeader(passcode);
    const cookie = header.split(";")[0]!;
    expect(header).not.toContain(passcode.hash.split("$").at(-1));
    expect(await mayEnterPrivateSite(cookie, passcode)).toBe(true);
    expect(await mayEnterPrivateSite(cookie, { ...passcode, version: "another" })).toBe(false);
    expect(await mayEnterPrivateSite(cookie, null)).toBe(false);
    expect(await mayEnterPrivateSite(null, passcode)).toBe(false);
    expect(await mayEnterPrivateSite(`other=1; ${cookie}; more=2`, passcode)).toBe(true);
  });
});

describe("what a visitor without the passcode is sent of the settings", () => {
  it("the memorial's name and description, and nothing of the service, the family's words, the photo or the song", async () => {
    await updateSiteSettings(
      {
        personName: "Margaret Hale",
        venueName: "The Hidden Boathouse",
        contactEmail: "hidden@example.com",
        serviceNote: "At the lighthouse",
      },
      operator("test"),
    );
    const site = getSiteView();
    const shown = siteViewWhileLocked(site);
    expect(shown).toMatchObject({
      personName: "Margaret Hale",
      siteTitle: site.siteTitle,
      heroTitle: site.heroTitle,
      siteDescription: site.siteDescription,
      visibility: "private",
      venueName: "",
      venueAddress: "",
      welcomeMessage: "",
      welcomeMessageAfter: "",
      contactEmail: "",
      serviceNote: "",
      donationUrl: "",
      heroImageAlt: "",
    });
    expect(shown.service.dateText).toBe("");
    expect(shown.heroImage.src).toBe("");
    expect(shown.karenMusic.mp3).toBe("");
    const text = JSON.stringify(shown);
    for (const secret of ["The Hidden Boathouse", "hidden@example.com", "At the lighthouse", site.service.dateText, site.welcomeMessage]) {
      expect(text).not.toContain(secret);
    }
  });
});
