// No English left on a visitor page read in another language. Every visitor
// page is fetched from the production server in English and in Spanish and
// Arabic; any text a person reads (text, alt, title, aria-label, placeholder,
// a button's value) that is the same on both is English left untranslated,
// unless it is the family's own words or a visitor's, a name, or an
// exception listed here with its reason.
import { Parser } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGE_NAMES } from "~/i18n/languages";
import { getSiteSettings } from "~/site/settings.server";
import {
  addMemory,
  addPoem,
  chooseLanguages,
  publishLifeStory,
  removeAllMemories,
  removeAllPoems,
  resetSiteSettings,
} from "../e2e/support/data";
import { requireBuild, startSite, type Site } from "../support/site-process";
import path from "node:path";

/** The pages a visitor reads (the 404 page too), each as fetched. */
const PAGES = [
  "/",
  "/guestbook",
  "/share",
  "/gallery",
  "/poems",
  "/rsvp",
  "/voices",
  "/life",
  "/slideshow",
  "/candles",
  "/follow",
  "/no-such-page",
];

/** Words that are the same in English and the other languages, with the reason. */
const SAME_IN_EVERY_LANGUAGE: Record<string, string> = {
  "Karen Mode": "the family's own name for the party mode",
  "·": "a separator",
};

/** Words the same in English and one of the languages read here, with the reason. */
const SAME_IN: Record<string, Record<string, string>> = {
  es: { Videos: "the Spanish word (Latin America)", Video: "the Spanish word (Latin America)", Error: "the Spanish word" },
  ar: {},
};

const VISITOR_WORDS = {
  memoryName: "Ellen Whitaker",
  memory: "She taught me to swim in the lake every summer, and never once laughed when I sank.",
  poemTitle: "Crossing the Bar",
  poemAuthor: "Alfred Tennyson",
  poem: "Sunset and evening star,\nAnd one clear call for me!",
  story: "She was born by the sea and never lived more than a mile from it.",
};

const ATTRIBUTES = new Set(["alt", "title", "aria-label", "placeholder", "aria-description"]);

/** What a person reads on a page: its text and the attributes read aloud, each trimmed, scripts and styles left out. */
function readable(html: string): Set<string> {
  const found = new Set<string>();
  const skip: string[] = [];
  const add = (text: string) => {
    const clean = text.replace(/\s+/g, " ").trim();
    if (clean) found.add(clean);
  };
  // The parser may give one run of text in pieces (at an entity): a run ends at a tag.
  let run = "";
  const endRun = () => {
    add(run);
    run = "";
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        endRun();
        if (name === "script" || name === "style" || name === "template") skip.push(name);
        for (const [attribute, value] of Object.entries(attributes)) if (ATTRIBUTES.has(attribute)) add(value);
        if (name === "input" && ["submit", "button"].includes(attributes.type ?? "") && attributes.value) add(attributes.value);
      },
      ontext(text) {
        if (skip.length === 0) run += text;
      },
      onclosetag(name) {
        endRun();
        if (skip.at(-1) === name) skip.pop();
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return found;
}

/** Whether `text` is someone's own words or a name: the family's settings, what visitors wrote, a language's own name. */
function isOwnWords(text: string, own: string[], language: string): boolean {
  if (!/\p{L}{2,}/u.test(text)) return true; // numbers, dates as digits, punctuation
  if (SAME_IN_EVERY_LANGUAGE[text] || SAME_IN[language]?.[text]) return true;
  if ((Object.values(LANGUAGE_NAMES) as string[]).includes(text)) return true;
  if (/^\S+@\S+$/.test(text) || /^https?:\/\//.test(text)) return true;
  return own.some((words) => words.includes(text) || text.includes(words));
}

let site: Site;
let own: string[];

beforeAll(async () => {
  requireBuild();
  await chooseLanguages(["en", "es", "ar"]);
  removeAllMemories();
  removeAllPoems();
  addMemory({ name: VISITOR_WORDS.memoryName, message: VISITOR_WORDS.memory, status: "APPROVED" });
  addPoem({ title: VISITOR_WORDS.poemTitle, author: VISITOR_WORDS.poemAuthor, content: VISITOR_WORDS.poem });
  publishLifeStory(VISITOR_WORDS.story);
  const settings = getSiteSettings();
  own = [
    ...Object.values(settings).filter((value): value is string => typeof value === "string" && value.length > 1),
    ...Object.values(VISITOR_WORDS).flatMap((words) => words.split("\n")),
  ];
  site = await startSite(path.dirname(process.env.DATABASE_PATH!), { FLY_APP_NAME: "memorial-languages" });
}, 90_000);

afterAll(async () => {
  await site?.stop();
  resetSiteSettings();
});

async function page(urlPath: string, language: string): Promise<{ status: number; html: string }> {
  const answer = await fetch(`${site.origin}${urlPath}?lang=${language}`, { redirect: "manual" });
  return { status: answer.status, html: await answer.text() };
}

describe.each(["es", "ar"])("visitor pages in %s", (language) => {
  it.each(PAGES)("%s has no English left", async (urlPath) => {
    const [english, translated] = await Promise.all([page(urlPath, "en"), page(urlPath, language)]);
    expect(translated.status, `${urlPath} in ${language}`).toBe(english.status);
    expect(translated.html).toContain(`<html lang="${language}" dir="${language === "ar" ? "rtl" : "ltr"}"`);
    const englishWords = readable(english.html);
    const left = [...readable(translated.html)].filter((text) => englishWords.has(text) && !isOwnWords(text, own, language));
    expect(left, `English left on ${urlPath} in ${language}`).toEqual([]);
  });
});

it("the memorial's name in a page's title is written in the page's language", async () => {
  const { heroTitle, personName } = getSiteSettings();
  const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
  expect(title((await page("/", "en")).html)).toBe(`${heroTitle} of ${personName}`);
  expect(title((await page("/", "es")).html)).toBe(`${heroTitle} de ${personName}`);
  expect(title((await page("/guestbook", "ar")).html)).toMatch(new RegExp(`^[^a-z]+ \\| ${heroTitle} ${personName}$`));
});
