// The render cache keeps one copy per language: the variant names the
// language a request is answered in (app/server/render-cache.server.ts), so
// two languages never share a cached page, and the visitor's language cookie
// (like Karen Mode's) keeps the request in the cache.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operator } from "~/platform/actor.server";
import { languageCookieHeader } from "~/i18n/language.server";
import { renderCacheVariant, renderCacheVisit } from "~/server/render-cache.server";
import { karenModeCookieHeader } from "~/site/karen-mode.server";
import { updateSiteSettings } from "~/site/settings.server";

const family = operator("keeper");
/** The cookie as the browser sends it back (`lang=…`). */
const sent = async (header: string | Promise<string>) => (await header).split(";")[0]!;
const lang = (language: "es" | "ar" | "pl") => sent(languageCookieHeader(language));

const variant = (headers: Record<string, string>, url = "/") => renderCacheVariant({ url, headers }, { locals: {} });

describe("the render cache's variant and the visitor's language", () => {
  beforeAll(async () => {
    await updateSiteSettings({ languages: ["en", "es", "ar"], mainLanguage: "en" }, family);
  });
  afterAll(async () => {
    await updateSiteSettings({ languages: ["en"], mainLanguage: "en" }, family);
  });

  it("differs for each language, whether asked by address, cookie or browser", async () => {
    const english = await variant({});
    const spanish = await variant({ "accept-language": "es-ES,es;q=0.9" });
    const arabic = await variant({}, "/?lang=ar");
    expect(new Set([english, spanish, arabic]).size).toBe(3);
    expect(english).toMatch(/ en$/);
    expect(spanish).toMatch(/ es$/);
    expect(arabic).toMatch(/ ar$/);
    // The cookie is the visitor's choice: it wins over the browser's languages.
    expect(await variant({ cookie: await lang("es"), "accept-language": "en-US" })).toBe(spanish);
    expect(await variant({ cookie: await lang("ar") }, "/guestbook")).toBe(arabic);
  });

  it("keeps a request with the language cookie cacheable, beside the cookies the variant names", async () => {
    const spanish = await lang("es");
    expect(await variant({ cookie: spanish })).toBe("in es");
    expect(await variant({ cookie: `${spanish}; candle_visitor=0123456789abcdef0123456789abcdef` })).toBe("in es");
    expect(await variant({ cookie: `${spanish}; ${await sent(karenModeCookieHeader(true))}` })).toBe("in karen es");
    // A cookie the variant does not name may personalise the page: never cached.
    expect(await variant({ cookie: `${spanish}; __session=x` })).toBeNull();
  });

  it("gives the fast path the same variant", async () => {
    const visit = await renderCacheVisit({ url: "/?lang=es", headers: { cookie: await lang("ar") } });
    expect(visit?.variant).toBe(await variant({}, "/?lang=es"));
    expect(visit?.variant).not.toBe(await variant({ cookie: await lang("ar") }));
  });

  it("answers a language the family did not choose in their main language: one copy", async () => {
    expect(await variant({ "accept-language": "de-DE" })).toBe(await variant({}));
    expect(await variant({ cookie: await lang("pl") })).toBe(await variant({}));
  });
});

describe("the render cache's variant on a site in one language", () => {
  it("is the same whatever language the browser asks for", async () => {
    await updateSiteSettings({ languages: ["en"], mainLanguage: "en" }, family);
    expect(await variant({ "accept-language": "es" })).toBe(await variant({}));
    expect(await variant({}, "/?lang=ar")).toBe(await variant({}));
  });
});
