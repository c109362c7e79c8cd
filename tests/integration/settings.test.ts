// The family's settings: stored in SQLite over the defaults, one schema for
// the Site tab's forms and PATCH /api/admin/settings, and the page shows a
// change on its next request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sessions, siteSettings } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { resetLoginThrottle } from "~/admins/authenticator.server";
import { content } from "~/content";
import { db } from "~/platform/db.server";
import { upsertAdmin } from "~/admins/admin.server";
import { SETTING_FIELDS, SettingsPatch } from "~/site/settings.schema";
import { REMEMBRANCE_DEFAULTS } from "~/remembrance/remembrance.schema";
import { SETTINGS_SECTIONS, type SettingsSection } from "~/site/settings-sections";
import { getSiteSettings, getSiteView, getVisitorPasscode, updateSiteSettings } from "~/site/settings.server";
import * as login from "~/routes/admin_.login";
import * as siteTab from "~/routes/admin.site";
import * as api from "~/routes/api.admin.settings";
import { request, requireBuild, scratchDir, startSite, type Site } from "../support/site-process";
import { answer } from "../support/route-calls";

const ORIGIN = "http://localhost";
// The refusals of hidden characters, in the words the family reads beside the field.
const ONE_LINE = (label: string) => `${label} must be one line of plain text, without line breaks or hidden characters`;
const MULTI_LINE = (label: string) => `${label} must be plain text, without hidden characters (line breaks are fine)`;
const ADMIN = { username: "keeper", password: "the-right-password" };
const context = { clientIp: "10.30.0.1" };

beforeEach(async () => {
  resetLoginThrottle();
  db.delete(sessions).run();
  db.delete(siteSettings).run();
  await upsertAdmin(ADMIN.username, ADMIN.password);
});

async function adminCookie() {
  const body = new URLSearchParams(ADMIN);
  const response = await answer(() =>
    login.action({ request: new Request(`${ORIGIN}/admin/login`, { method: "POST", body }), params: {}, context } as never),
  );
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
}

const patch = (body: unknown, cookie?: string, method = "PATCH") =>
  answer(() =>
    api.action({
      request: new Request(`${ORIGIN}/api/admin/settings`, {
        method,
        headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
      params: {},
      context,
    } as never),
  );

describe("the settings model", () => {
  it("gives the defaults of app/content.ts on a new site", () => {
    expect(getSiteSettings()).toEqual(content);
  });

  it("keeps a change and shows it to the next reader, leaving the other settings as they were", async () => {
    const result = await updateSiteSettings(
      { personName: "Margaret Ellen Hughes", serviceNote: "Reception to follow" },
      operator("keeper"),
    );
    expect(result.ok).toBe(true);
    expect(getSiteSettings()).toEqual({ ...content, personName: "Margaret Ellen Hughes", serviceNote: "Reception to follow" });
    const row = db
      .select()
      .from(siteSettings)
      .all()
      .find((r) => r.key === "personName");
    expect(row?.updatedBy).toBe("keeper");
  });

  it("falls back to the default for a stored value the rules no longer accept, rather than breaking every page", () => {
    db.insert(siteSettings).values({ key: "timeZone", value: "Mars/Olympus_Mons" }).run();
    db.insert(siteSettings).values({ key: "personName", value: 42 }).run();
    expect(getSiteSettings().timeZone).toBe(content.timeZone);
    expect(getSiteSettings().personName).toBe(content.personName);
  });

  it("reads stored text holding hidden characters (written before they were refused) as plain text: a space, or a line break where one is allowed", () => {
    db.insert(siteSettings).values({ key: "personName", value: "Ann\rURL:https://evil.example\u0000ORGANIZER:x" }).run();
    db.insert(siteSettings).values({ key: "welcomeMessage", value: "Thank you.\r\nWith love.\rThe family" }).run();
    expect(getSiteSettings().personName).toBe("Ann URL:https://evil.example ORGANIZER:x");
    expect(getSiteSettings().welcomeMessage).toBe("Thank you.\nWith love.\nThe family");
  });

  it("refuses an end before the start, checked against the settings the change would leave", async () => {
    const refused = await updateSiteSettings({ serviceEndsAt: "2025-08-31T15:00" }, operator("keeper"));
    expect(refused).toEqual({ ok: false, errors: { serviceEndsAt: ["End must be after the start"] } });
    expect(getSiteSettings()).toEqual(content);
  });

  it("makes the site private only with a passcode, stores only its hash, and changes the passcode's version with it", async () => {
    const refused = await updateSiteSettings({ visibility: "private" }, operator("keeper"));
    expect(refused.ok).toBe(false);
    expect(refused.ok ? null : refused.errors.visitorPasscode?.[0]).toMatch(/passcode/i);
    expect(getSiteSettings().visibility).toBe("public");

    expect((await updateSiteSettings({ visibility: "private", visitorPasscode: "Bluebells" }, operator("keeper"))).ok).toBe(true);
    const first = getVisitorPasscode()!;
    expect(first.hash).not.toContain("Bluebells");
    expect(first.hash).not.toContain("bluebells");
    expect(JSON.stringify(getSiteSettings())).not.toContain(first.hash);
    // Once a passcode is set, other changes to a private site need none.
    expect((await updateSiteSettings({ personName: "Margaret" }, operator("keeper"))).ok).toBe(true);
    expect(getVisitorPasscode()).toEqual(first);
    expect((await updateSiteSettings({ visitorPasscode: "Primroses" }, operator("keeper"))).ok).toBe(true);
    expect(getVisitorPasscode()!.version).not.toBe(first.version);
  });

  it("writes the welcome messages as paragraphs with one blank line between them", () => {
    const parsed = SettingsPatch.parse({ welcomeMessage: "  First line.\r\n\r\n\r\n\n  Second paragraph.  \n" });
    expect(parsed.welcomeMessage).toBe("First line.\n\nSecond paragraph.");
  });

  it("words the service before and after it, in the family's time zone, from the stored times", async () => {
    await updateSiteSettings(
      {
        serviceStartsAt: "2027-03-14T10:30",
        serviceEndsAt: "2027-03-14T12:00",
        timeZone: "Europe/London",
        venueAddress: "1 High St, Bath",
      },
      operator("keeper"),
    );
    const before = getSiteView(Date.UTC(2027, 2, 14, 11, 59));
    expect(before.service).toMatchObject({
      dateText: "Sunday, March 14th, 2027 · 10:30 am to 12:00 pm",
      over: false,
      startsAt: "2027-03-14T10:30:00.000Z",
      mapsLink: "https://www.openstreetmap.org/search?query=1%20High%20St%2C%20Bath",
    });
    expect(getSiteView(Date.UTC(2027, 2, 14, 12, 0)).service.over).toBe(true);
    await updateSiteSettings({ mapsLink: "https://maps.example/bath" }, operator("keeper"));
    expect(getSiteView().service.mapsLink).toBe("https://maps.example/bath");
  });
});

describe("GET and PATCH /api/admin/settings", () => {
  it("answers 401 in the API's shape without an admin session, and changes nothing", async () => {
    const read = await answer(() => api.loader({ request: new Request(`${ORIGIN}/api/admin/settings`), params: {}, context } as never));
    expect(read.status).toBe(401);
    expect(await read.json()).toEqual({ errors: { session: [expect.any(String)] } });
    const write = await patch({ personName: "Someone Else" });
    expect(write.status).toBe(401);
    expect(getSiteSettings().personName).toBe(content.personName);
  });

  it("GET gives every setting by the API's names, and never the passcode", async () => {
    const cookie = await adminCookie();
    await updateSiteSettings({ visibility: "private", visitorPasscode: "Bluebells" }, operator("keeper"));
    const response = await api.loader({
      request: new Request(`${ORIGIN}/api/admin/settings`, { headers: { Cookie: cookie } }),
      params: {},
      context,
    } as never);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = (await response.json()) as unknown as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [...SETTING_FIELDS, "translations", "missingTranslations", "remembrance", "helpersReadFirst"].sort(),
    );
    expect(body.visibility).toBe("private");
    expect(JSON.stringify(body)).not.toMatch(/passcode|bluebells/i);
  });

  it("PATCH with a subset answers 200 with the whole object, which the next page shows", async () => {
    const cookie = await adminCookie();
    const response = await patch(
      { personName: "Margaret Ellen Hughes", serviceStartsAt: "2031-05-02T14:00", serviceEndsAt: "2031-05-02T16:00" },
      cookie,
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      ...content,
      personName: "Margaret Ellen Hughes",
      serviceStartsAt: "2031-05-02T14:00",
      serviceEndsAt: "2031-05-02T16:00",
      translations: {},
      missingTranslations: {},
      remembrance: { ...REMEMBRANCE_DEFAULTS, translations: {}, missingTranslations: {} },
      helpersReadFirst: false,
    });
    expect(getSiteView(Date.UTC(2031, 0, 1)).service.dateText).toBe("Friday, May 2nd, 2031 · 2:00 pm to 4:00 pm");
  });

  const refusals: [string, Record<string, unknown>, Record<string, string[]>][] = [
    ["an empty name", { personName: "   " }, { personName: ["Name is required"] }],
    ["a number for a name", { personName: 7 }, { personName: ["Name is required"] }],
    ["a name over 200 characters", { personName: "x".repeat(201) }, { personName: ["Name must be at most 200 characters"] }],
    [
      "a date that does not exist",
      { serviceStartsAt: "2025-02-30T16:00" },
      { serviceStartsAt: ["Start must be a date and time, e.g. 2025-08-31T16:00"] },
    ],
    ["a date without a time", { serviceEndsAt: "2025-08-31" }, { serviceEndsAt: ["End must be a date and time, e.g. 2025-08-31T16:00"] }],
    ["an end before the start", { serviceEndsAt: "2025-08-31T09:00" }, { serviceEndsAt: ["End must be after the start"] }],
    [
      "a date of birth that does not exist",
      { birthDate: "1942-02-30" },
      { birthDate: ["Date of birth must be a year, a month or a day, written 1942, 1942-03 or 1942-03-14"] },
    ],
    [
      "a date of death written another way",
      { deathDate: "9 January 2026" },
      { deathDate: ["Date of death must be a year, a month or a day, written 1942, 1942-03 or 1942-03-14"] },
    ],
    [
      "a death before the birth",
      { birthDate: "1942-03", deathDate: "1942-02-28" },
      { deathDate: ["Date of death cannot be before the date of birth"] },
    ],
    ["another way of showing the dates", { lifeDatesShown: "months" }, { lifeDatesShown: ["Dates shown must be years or full"] }],
    [
      "a time zone that does not exist",
      { timeZone: "Europe/Atlantis" },
      { timeZone: ["Time zone must be a time zone name such as America/Los_Angeles or Europe/London"] },
    ],
    [
      "a donation link over http",
      { donationUrl: "http://giving.example/" },
      { donationUrl: ["Donation link must be a full web address starting with https://"] },
    ],
    [
      "a livestream link that is not a web address",
      { livestreamUrl: "javascript:alert(1)" },
      { livestreamUrl: ["Livestream link must be a full web address starting with https://"] },
    ],
    [
      "a contact email without an @",
      { contactEmail: "family.example.com" },
      { contactEmail: ["Contact email must be a valid email address"] },
    ],
    ["an unknown theme", { karenModeTheme: "rave" }, { karenModeTheme: ["Theme must be classic or disco"] }],
    ["an unknown visibility", { visibility: "secret" }, { visibility: ["Visibility must be public, unlisted or private"] }],
    [
      "a private site without a passcode",
      { visibility: "private" },
      { visitorPasscode: [expect.stringMatching(/passcode/i) as unknown as string] },
    ],
    ["a passcode too short", { visitorPasscode: "abc" }, { visitorPasscode: ["Passcode must be at least 4 characters"] }],
    ["a name that is not a setting", { personName: "Ann", favouriteColour: "blue" }, { favouriteColour: ["This is not a setting"] }],
    [
      "a name with carriage returns that would add lines to the calendar file",
      { personName: "Ann\rURL:https://evil.example\rORGANIZER:x" },
      { personName: [ONE_LINE("Name")] },
    ],
    ["a line break in a one-line setting", { serviceTitle: "Funeral\nSTATUS:CANCELLED" }, { serviceTitle: [ONE_LINE("Service title")] }],
    ["a NUL in the venue", { venueName: "St Mary\u0000s" }, { venueName: [ONE_LINE("Venue")] }],
    ["a DEL in the address", { venueAddress: "12 Church Lane\u007f" }, { venueAddress: [ONE_LINE("Address")] }],
    ["a C1 next-line character in the note", { serviceNote: "Reception\u0085to follow" }, { serviceNote: [ONE_LINE("Note")] }],
    ["a Unicode line separator in the heading", { heroTitle: "In Memory\u2028of" }, { heroTitle: [ONE_LINE("Heading")] }],
    ["a paragraph separator in the subtitle", { heroSubtitle: "1931\u2029to 2025" }, { heroSubtitle: [ONE_LINE("Subtitle")] }],
    [
      "a carriage return inside a link, which the address parser would quietly drop",
      { mapsLink: "https://maps.example/\rORGANIZER:x" },
      { mapsLink: [ONE_LINE("Map link")] },
    ],
    ["an escape character in the passcode", { visitorPasscode: "Blue\u001bbells" }, { visitorPasscode: [ONE_LINE("Passcode")] }],
    [
      "a bare carriage return in a welcome message",
      { welcomeMessage: "Thank you all.\rURL:https://evil.example" },
      { welcomeMessage: [MULTI_LINE("Welcome message")] },
    ],
    ["a NUL in the donation text", { donationText: "Give\u0000generously" }, { donationText: [MULTI_LINE("Donation text")] }],
    [
      "a line separator in the message after the service",
      { welcomeMessageAfter: "Thank you\u2028all" },
      { welcomeMessageAfter: [MULTI_LINE("Message after the service")] },
    ],
  ];

  it.each(refusals)("answers 400 in the form's words for %s, and changes nothing", async (_, body, errors) => {
    const cookie = await adminCookie();
    const response = await patch(body, cookie);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors });
    expect(getSiteSettings()).toEqual(content);
  });

  it("keeps the person's dates as a year, a month or a day, with their places, and empties what is sent empty", async () => {
    const cookie = await adminCookie();
    const person = {
      birthDate: "1942",
      birthPlace: "Cork, Ireland",
      deathDate: "2026-01-09",
      deathPlace: "Oakland",
      lifeDatesShown: "full",
    };
    const saved = await patch(person, cookie);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject(person);
    // The same year, at two precisions: the day may be in it.
    expect((await patch({ deathDate: "1942-12" }, cookie)).status).toBe(200);
    const cleared = await patch({ birthDate: "", birthPlace: "" }, cookie);
    expect(await cleared.json()).toMatchObject({ birthDate: "", birthPlace: "", deathDate: "1942-12" });
  });

  it("keeps the yearly reminders as `remembrance`, changed field by field, and refuses a bad one in its own words", async () => {
    const cookie = await adminCookie();
    const first = (await (await patch({}, cookie)).json()) as { remembrance: Record<string, unknown> };
    expect(first.remembrance).toEqual({
      birthday: false,
      anniversary: false,
      yahrzeit: false,
      afterSunset: false,
      daysBefore: 7,
      onTheDay: true,
      sendAt: "09:00",
      words: "",
      translations: {},
      missingTranslations: {},
    });
    const saved = await patch(
      {
        deathDate: "2026-01-09",
        remembrance: { anniversary: true, yahrzeit: true, afterSunset: true, sendAt: "08:30", words: "With love.\r\nAlways." },
      },
      cookie,
    );
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as typeof first).remembrance).toMatchObject({
      anniversary: true,
      yahrzeit: true,
      afterSunset: true,
      daysBefore: 7,
      sendAt: "08:30",
      words: "With love.\nAlways.",
    });
    const refused = await patch({ heroTitle: "Changed", remembrance: { daysBefore: 45, sendAt: "9am", often: true } }, cookie);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      errors: {
        "remembrance.daysBefore": ["Days before must be a whole number from 0 to 30"],
        "remembrance.sendAt": ["Choose a time such as 09:00"],
        "remembrance.often": ["This is not a setting"],
      },
    });
    expect((await patch({ remembrance: "yes" }, cookie)).status).toBe(400);
    // Nothing of a refused change is kept.
    expect(getSiteSettings().heroTitle).not.toBe("Changed");
  });

  it("keeps the line breaks a multi-line setting allows (CRLF written as LF) and turns a tab in a name into a space", async () => {
    const cookie = await adminCookie();
    const response = await patch(
      { personName: "Ann\tHale", welcomeMessage: "First line,\r\nsecond line.\r\n\r\nNext paragraph.", siteDescription: "One\r\ntwo" },
      cookie,
    );
    expect(response.status).toBe(200);
    expect(getSiteSettings()).toMatchObject({
      personName: "Ann Hale",
      welcomeMessage: "First line,\nsecond line.\n\nNext paragraph.",
      siteDescription: "One\ntwo",
    });
  });

  it.each([
    ["not JSON", "{personName:"],
    ["an array", "[1,2]"],
    ["a string", '"hello"'],
  ])("answers 400 for a body that is %s", async (_, body) => {
    const response = await patch(body, await adminCookie());
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: expect.any(Object) });
  });

  it("answers 405 with Allow for other methods", async () => {
    const response = await patch({}, await adminCookie(), "POST");
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, PATCH");
  });
});

describe("the Site tab's forms", () => {
  const post = (fields: Record<string, string>, cookie?: string) =>
    answer(() =>
      siteTab.action({
        request: new Request(`${ORIGIN}/admin/site`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
          body: new URLSearchParams(fields),
        }),
        params: {},
        context,
      } as never),
    );

  /** A section's form as the page fills it in: every field with its current value. */
  const sectionForm = (section: SettingsSection, changes: Record<string, string> = {}) => {
    const settings = getSiteSettings() as unknown as Record<string, string>;
    const fields: Record<string, string> = { section };
    for (const name of SETTINGS_SECTIONS[section]) fields[name] = settings[name] ?? "";
    return { ...fields, ...changes };
  };

  it("goes to the login page without a session, and saves nothing", async () => {
    const response = await post(sectionForm("memorial", { personName: "Someone Else" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/login?redirectTo=${encodeURIComponent("/admin/site")}`);
    expect(getSiteSettings().personName).toBe(content.personName);
  });

  it.each(Object.keys(SETTINGS_SECTIONS) as SettingsSection[])(
    "the %s form saves its settings as they are and says so",
    async (section) => {
      const cookie = await adminCookie();
      const response = await post(sectionForm(section), cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(`/admin/site?saved=${section}#${section}`);
      expect(response.headers.getSetCookie().join(";")).toContain("toast");
      expect(getSiteSettings()).toEqual(content);
    },
  );

  it("saves the service as a family types it, and the home page words it from then on", async () => {
    const cookie = await adminCookie();
    const response = await post(
      sectionForm("service", {
        serviceTitle: "A Gathering for Margaret",
        serviceStartsAt: "2030-10-05T11:00",
        serviceEndsAt: "2030-10-05T13:30",
        timeZone: "Australia/Sydney",
        serviceNote: "Reception to follow",
      }),
      cookie,
    );
    expect(response.status).toBe(302);
    const view = getSiteView(Date.UTC(2030, 0, 1));
    expect(view.serviceTitle).toBe("A Gathering for Margaret");
    expect(view.service.dateText).toBe("Saturday, October 5th, 2030 · 11:00 am to 1:30 pm");
    expect(view.service.over).toBe(false);
  });

  it("gives the form back with what was typed and each message beside its field, saving none of it", async () => {
    const cookie = await adminCookie();
    const response = await post(
      sectionForm("service", { serviceTitle: "Kept", serviceEndsAt: "2025-08-30T10:00", timeZone: "Nowhere/Here" }),
      cookie,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      section: string;
      result: { initialValue: Record<string, string>; error: Record<string, string[]> };
    };
    expect(body.section).toBe("service");
    expect(body.result.initialValue.serviceTitle).toBe("Kept");
    expect(body.result.error.timeZone).toEqual(["Time zone must be a time zone name such as America/Los_Angeles or Europe/London"]);
    expect(getSiteSettings()).toEqual(content);
  });

  it("checks the rules across settings too (an end before the start) and saves nothing", async () => {
    const cookie = await adminCookie();
    const response = await post(sectionForm("service", { serviceTitle: "Kept", serviceEndsAt: "2025-08-30T10:00" }), cookie);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.serviceEndsAt).toEqual(["End must be after the start"]);
    expect(getSiteSettings().serviceTitle).toBe(content.serviceTitle);
  });

  it("refuses a carriage return in a one-line field, with the message beside that field, and saves nothing", async () => {
    const cookie = await adminCookie();
    const response = await post(sectionForm("memorial", { personName: "Ann\rURL:https://evil.example\rORGANIZER:x" }), cookie);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { section: string; result: { error: Record<string, string[]> } };
    expect(body.section).toBe("memorial");
    expect(body.result.error.personName).toEqual([ONE_LINE("Name")]);
    expect(getSiteSettings().personName).toBe(content.personName);
  });

  it("takes a welcome message's line breaks as a browser sends them (CRLF), but refuses a bare carriage return", async () => {
    const cookie = await adminCookie();
    const refused = await post(sectionForm("welcome", { welcomeMessage: "Thank you all.\rURL:https://evil.example" }), cookie);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.welcomeMessage).toEqual([MULTI_LINE("Welcome message")]);
    expect(getSiteSettings().welcomeMessage).toBe(content.welcomeMessage);

    const saved = await post(sectionForm("welcome", { welcomeMessage: "Thank you all.\r\nWith love.\r\n\r\nThe family" }), cookie);
    expect(saved.status).toBe(302);
    expect(getSiteSettings().welcomeMessage).toBe("Thank you all.\nWith love.\n\nThe family");
  });

  it("an optional field left empty empties that setting (the family cleared it)", async () => {
    const cookie = await adminCookie();
    const response = await post(sectionForm("memorial", { heroSubtitle: "" }), cookie);
    expect(response.status).toBe(302);
    expect(getSiteSettings()).toEqual({ ...content, heroSubtitle: "" });
    await post(sectionForm("donation", { donationUrl: "", donationText: "" }), cookie);
    expect(getSiteView().donationUrl).toBe("");
  });

  it("an empty passcode field keeps the passcode there is", async () => {
    const cookie = await adminCookie();
    await post(sectionForm("privacy", { visibility: "private", visitorPasscode: "Bluebells" }), cookie);
    const first = getVisitorPasscode();
    expect(first).not.toBeNull();
    const response = await post(sectionForm("privacy", { visibility: "unlisted", visitorPasscode: "" }), cookie);
    expect(response.status).toBe(302);
    expect(getSiteSettings().visibility).toBe("unlisted");
    expect(getVisitorPasscode()).toEqual(first);
  });
});

describe("the production server", () => {
  let site: Site;
  beforeAll(async () => {
    requireBuild();
    site = await startSite(scratchDir(), { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
  }, 60_000);
  afterAll(() => site?.stop());

  const logIn = async () => {
    const response = await request(site.port, "POST", "/api/admin/login", {
      body: JSON.stringify(ADMIN),
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(200);
    return [response.headers["set-cookie"]]
      .flat()
      .map((c) => String(c).split(";")[0])
      .join("; ");
  };

  it("refuses a change from another site with 403, and without a session with 401", async () => {
    const cookie = await logIn();
    const body = JSON.stringify({ personName: "Mallory" });
    const crossSite = await request(site.port, "PATCH", "/api/admin/settings", {
      body,
      headers: { "Content-Type": "application/json", Cookie: cookie, Origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body)).toEqual({ errors: { origin: [expect.any(String)] } });
    const anonymous = await request(site.port, "PATCH", "/api/admin/settings", { body, headers: { "Content-Type": "application/json" } });
    expect(anonymous.status).toBe(401);
    const home = await request(site.port, "GET", "/");
    expect(home.body).not.toContain("Mallory");
  });

  it("the Site tab tells the family what making the site private cannot take back, and what family and helpers they invite can do", async () => {
    const page = await request(site.port, "GET", "/admin/site", { headers: { Cookie: await logIn() } });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(
      /<section id="privacy"[^]*Photos and videos that visitors have already opened may stay in their browsers and in web caches for up to a year after you make the site private\.[^]*name="visibility"/,
    );
    expect(page.body).toMatch(
      /Invite someone[^]*Family you invite can do everything you can, including removing other family admins, you among them; a helper only moderates\.[^]*Create Invitation Link/,
    );
  });

  it("shows a change on the very next page, without a restart", async () => {
    const cookie = await logIn();
    const changed = await request(site.port, "PATCH", "/api/admin/settings", {
      body: JSON.stringify({ personName: "Rosalind Okafor", serviceStartsAt: "2099-06-01T15:00", serviceEndsAt: "2099-06-01T17:00" }),
      headers: { "Content-Type": "application/json", Cookie: cookie },
    });
    expect(changed.status).toBe(200);
    const home = await request(site.port, "GET", "/");
    expect(home.body).toContain("Rosalind Okafor");
    expect(home.body).toContain("Monday, June 1st, 2099");
    expect(home.body).toContain("Join us on Monday, June 1st, 2099 at The Berkeley City Club.");
    // The welcome message for before the service, not the one for after it.
    expect(home.body).toMatch(/<p[^>]*>Please join us to celebrate a life/);
    expect(home.body).not.toMatch(/<p[^>]*>The memorial service has already taken place/);
  });
});
