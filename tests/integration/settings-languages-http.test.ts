// The family's languages and their own words in each, over HTTP: PATCH and
// GET /api/admin/settings, the Site tab's forms, and the home page read in
// a language with and without the family's translation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { content } from "~/content";
import { TRANSLATABLE_FIELDS } from "~/site/translations";
import { request, requireBuild, scratchDir, startSite, type Site } from "../support/site-process";

const ADMIN = { username: "keeper", password: "the-right-password" };

let site: Site;
let cookie: string;

beforeAll(async () => {
  requireBuild();
  site = await startSite(scratchDir(), { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
  const response = await request(site.port, "POST", "/api/admin/login", {
    body: JSON.stringify(ADMIN),
    headers: { "Content-Type": "application/json" },
  });
  expect(response.status).toBe(200);
  cookie = [response.headers["set-cookie"]]
    .flat()
    .map((c) => String(c).split(";")[0])
    .join("; ");
}, 60_000);
afterAll(() => site?.stop());

const patch = async (body: unknown) => {
  const response = await request(site.port, "PATCH", "/api/admin/settings", {
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Cookie: cookie },
  });
  return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
};
const read = async () => {
  const response = await request(site.port, "GET", "/api/admin/settings", { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  return JSON.parse(response.body) as Record<string, unknown>;
};

/** Back to a new site's settings: English alone, no translations. */
beforeEach(async () => {
  const emptied = Object.fromEntries(
    ["es", "fr", "de", "pt", "pl", "zh", "ar"].map((l) => [l, Object.fromEntries(TRANSLATABLE_FIELDS.map((f) => [f, null]))]),
  );
  const reset = await patch({ languages: ["en"], mainLanguage: "en", welcomeMessage: content.welcomeMessage, translations: emptied });
  expect(reset.status).toBe(200);
});

describe("the site's languages", () => {
  it("keeps the languages (in the site's order) and the main language", async () => {
    const answer = await patch({ languages: ["ar", "en", "es"], mainLanguage: "en" });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ languages: ["en", "es", "ar"], mainLanguage: "en" });
  });

  it("refuses a language it does not speak, and a main language that is not among the languages", async () => {
    const unknown = await patch({ languages: ["en", "xx"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ errors: { languages: ["Each language must be one of en, es, fr, de, pt, pl, zh, ar"] } });
    const notChosen = await patch({ languages: ["en", "es"], mainLanguage: "fr" });
    expect(notChosen.status).toBe(400);
    expect(notChosen.body).toEqual({ errors: { mainLanguage: ["The main language must be one of the site's languages"] } });
    expect((await read()).languages).toEqual(["en"]);
  });
});

describe("the family's words in each language", () => {
  it("takes a text as language → text: the main language's is the setting, the others translations", async () => {
    const answer = await patch({
      languages: ["en", "es", "ar"],
      welcomeMessage: { en: "Welcome, all of you.", es: "Bienvenidos, todos." },
      translations: { ar: { welcomeMessage: "أهلاً بكم جميعاً." } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.welcomeMessage).toBe("Welcome, all of you.");
    expect(answer.body.translations).toEqual({ es: { welcomeMessage: "Bienvenidos, todos." }, ar: { welcomeMessage: "أهلاً بكم جميعاً." } });
    const missing = answer.body.missingTranslations as Record<string, string[]>;
    expect(Object.keys(missing).sort()).toEqual(["ar", "es"]);
    expect(missing.es).not.toContain("welcomeMessage");
    expect(missing.es).toContain("donationTitle");
    // An optional text the family left empty is not missing in any language.
    expect(missing.es).not.toContain("serviceNote");
    expect(await read()).toMatchObject({ translations: answer.body.translations, missingTranslations: missing });
  });

  it("checks each translation by its setting's rules, naming the field and the language, and saves none of the change", async () => {
    const answer = await patch({
      languages: ["en", "es"],
      donationButtonLabel: { es: "x".repeat(101) },
      welcomeMessage: { fr: "Bienvenue", xx: "?" },
      translations: { es: { venueAddress: "Calle 1" }, en: { heroTitle: "In Memory" } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errors: {
        "donationButtonLabel.es": ["Button label must be at most 100 characters"],
        "welcomeMessage.xx": ["Each language must be one of en, es, fr, de, pt, pl, zh, ar"],
        "translations.es.venueAddress": ["This setting is not written in words, so it has no translations"],
        "translations.en": ["This is the main language: its text is the setting itself"],
      },
    });
    const after = await read();
    expect(after.languages).toEqual(["en"]);
    expect(after.translations).toEqual({});
  });

  it("removes a translation given empty, and reads a one-line text's line break as a refusal", async () => {
    await patch({ languages: ["en", "es"], translations: { es: { heroTitle: "En memoria", serviceTitle: "Misa" } } });
    const removed = await patch({ heroTitle: { es: "" } });
    expect(removed.status).toBe(200);
    expect(removed.body.translations).toEqual({ es: { serviceTitle: "Misa" } });
    const refused = await patch({ serviceTitle: { es: "Misa\nfunebre" } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      errors: { "serviceTitle.es": ["Service title must be one line of plain text, without line breaks or hidden characters"] },
    });
  });

  it("shows visitors the family's Spanish where they gave it, and the main language's text where they did not", async () => {
    await patch({
      languages: ["en", "es", "ar"],
      translations: { es: { welcomeMessage: "Gracias por acompañarnos hoy." } },
      serviceStartsAt: "2099-06-01T15:00",
      serviceEndsAt: "2099-06-01T17:00",
    });
    const spanish = await request(site.port, "GET", "/?lang=es");
    expect(spanish.status).toBe(200);
    expect(spanish.body).toMatch(/<html[^>]*lang="es"/);
    expect(spanish.body).toContain("Gracias por acompañarnos hoy.");
    expect(spanish.body).not.toContain("Please join us to celebrate a life");
    // The service's title is not translated: the English text stands.
    expect(spanish.body).toContain(content.serviceTitle);
    const arabic = await request(site.port, "GET", "/?lang=ar");
    expect(arabic.body).toMatch(/<p[^>]*>Please join us to celebrate a life/);
    const english = await request(site.port, "GET", "/?lang=en");
    expect(english.body).toMatch(/<p[^>]*>Please join us to celebrate a life/);
    expect(english.body).not.toContain("Gracias por acompañarnos hoy.");
  });

  it("keeps the fields' text when the main language changes: it is then read as the new main language's", async () => {
    await patch({ languages: ["en", "es"], translations: { es: { heroTitle: "En memoria" } } });
    const answer = await patch({ languages: ["en", "es"], mainLanguage: "es" });
    expect(answer.status).toBe(200);
    expect(answer.body.heroTitle).toBe(content.heroTitle);
    expect(answer.body.missingTranslations).toEqual({ en: expect.arrayContaining(["heroTitle", "welcomeMessage"]) });
    const english = await request(site.port, "GET", "/?lang=en");
    expect(english.body).toContain(content.heroTitle);
  });
});

describe("the Site tab", () => {
  const post = (fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
    return request(site.port, "POST", "/admin/site", {
      body: body.toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: `http://127.0.0.1:${site.port}` },
    });
  };

  it("saves the languages from plain checkboxes, and offers a form of translations for each other language with the missing texts marked", async () => {
    const saved = await post({ section: "languages", languages: ["en", "es", "ar"], mainLanguage: "en" });
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toBe("/admin/site?saved=languages#languages");
    const page = await request(site.port, "GET", "/admin/site", { headers: { Cookie: cookie } });
    expect(page.body).toContain("Español (Spanish)");
    expect(page.body).toMatch(/<section id="translations-es"/);
    expect(page.body).toMatch(/<section id="translations-ar"/);
    expect(page.body).not.toMatch(/<section id="translations-en"/);
    expect(page.body).toContain("Missing: visitors read the English text.");
    const translated = await post({ section: "translations", language: "es", welcomeMessage: "Bienvenidos.", heroTitle: "" });
    expect(translated.status).toBe(302);
    expect(translated.headers.location).toBe("/admin/site?saved=translations-es#translations-es");
    expect((await read()).translations).toEqual({ es: { welcomeMessage: "Bienvenidos." } });
  });

  it("refuses a bad translation beside its field, keeping what was typed", async () => {
    await patch({ languages: ["en", "es"] });
    const refused = await post({ section: "translations", language: "es", donationButtonLabel: "y".repeat(101), welcomeMessage: "Hola" });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("Button label must be at most 100 characters");
    expect((await read()).translations).toEqual({});
  });

  it("refuses no language at all, and a main language left out", async () => {
    const none = await post({ section: "languages", mainLanguage: "en" });
    expect(none.status).toBe(400);
    const notChosen = await post({ section: "languages", languages: ["es"], mainLanguage: "en" });
    expect(notChosen.status).toBe(400);
    expect(notChosen.body).toContain("The main language must be one of the site&#x27;s languages");
  });
});

describe("the life story in each language", () => {
  const put = async (body: unknown) => {
    const response = await request(site.port, "PUT", "/api/admin/life", {
      body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Cookie: cookie },
    });
    return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
  };

  it("keeps the story per language, and visitors read theirs, or the main language's with the page's words in theirs", async () => {
    await patch({ languages: ["en", "es", "ar"] });
    const saved = await put({ story: { en: "She loved the sea.", es: "Amaba el mar." }, published: true });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      story: "She loved the sea.",
      translations: { es: { story: "Amaba el mar." } },
      missingTranslations: { ar: ["story"] },
    });
    const spanish = await request(site.port, "GET", "/life?lang=es");
    expect(spanish.status).toBe(200);
    expect(spanish.body).toMatch(/<h1[^>]*>Historia de vida<\/h1>/);
    expect(spanish.body).toContain("Amaba el mar.");
    expect(spanish.body).not.toContain("She loved the sea.");
    const arabic = await request(site.port, "GET", "/life?lang=ar");
    expect(arabic.body).toMatch(/<html[^>]*dir="rtl"/);
    expect(arabic.body).toMatch(/<h1[^>]*>قصة الحياة<\/h1>/);
    expect(arabic.body).toContain("She loved the sea.");
    const english = await request(site.port, "GET", "/life?lang=en");
    expect(english.body).toMatch(/<h1[^>]*>Life Story<\/h1>/);
    expect(english.body).toContain("She loved the sea.");
    // An empty one is removed, and a refused one is named with its language.
    const removed = await put({ translations: { es: { story: "" } } });
    expect(removed.body).toMatchObject({ translations: {}, missingTranslations: { es: ["story"], ar: ["story"] } });
    const refused = await put({ story: { ar: "x".repeat(30_001), xx: "?" } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      errors: {
        "story.ar": ["The life story must be at most 30,000 characters"],
        "story.xx": ["Each language must be one of en, es, fr, de, pt, pl, zh, ar"],
      },
    });
  });

  it("the Life Story tab offers the story in each other language, marked missing, and saves it from a plain form", async () => {
    await patch({ languages: ["en", "es"] });
    await put({ story: "She loved the sea.", published: true });
    const tab = await request(site.port, "GET", "/admin/life", { headers: { Cookie: cookie } });
    expect(tab.body).toMatch(/<section id="story-es"/);
    expect(tab.body).toContain("Missing: visitors read the English story.");
    const saved = await request(site.port, "POST", "/admin/life", {
      body: new URLSearchParams({ intent: "story-translation", language: "es", story: "Amaba el mar." }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: `http://127.0.0.1:${site.port}` },
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toBe("/admin/life#story-es");
    expect((await request(site.port, "GET", "/life?lang=es")).body).toContain("Amaba el mar.");
    await put({ translations: { es: { story: "" } }, published: false });
  });
});

describe("the yearly reminders' words in each language", () => {
  it("takes the words as language → text, names a refusal by its language, and the Remember tab marks the missing ones", async () => {
    const saved = await patch({
      languages: ["en", "es", "ar"],
      remembrance: { words: { en: "Light a candle.", es: "Encienda una vela." } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.remembrance).toMatchObject({
      words: "Light a candle.",
      translations: { es: { words: "Encienda una vela." } },
      missingTranslations: { ar: ["words"] },
    });
    const refused = await patch({ remembrance: { translations: { ar: { words: "x".repeat(1001) } } } });
    expect(refused).toEqual({
      status: 400,
      body: { errors: { "remembrance.translations.ar": ["Your words must be at most 1,000 characters"] } },
    });
    const tab = await request(site.port, "GET", "/admin/remember", { headers: { Cookie: cookie } });
    expect(tab.body).toContain("Your words in other languages");
    expect(tab.body).toContain("Missing: followers read the English words.");
    const posted = await request(site.port, "POST", "/admin/remember", {
      body: new URLSearchParams({ intent: "words-translations", es: "", ar: "أشعلوا شمعة." }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: `http://127.0.0.1:${site.port}` },
    });
    expect(posted.status).toBe(302);
    expect((await read()).remembrance).toMatchObject({
      translations: { ar: { words: "أشعلوا شمعة." } },
      missingTranslations: { es: ["words"] },
    });
    await patch({ remembrance: { words: "", translations: { ar: { words: null } } } });
  });
});
