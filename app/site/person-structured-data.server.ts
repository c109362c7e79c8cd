import { createElement, Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { translate } from "~/i18n/i18n.server";
import type { Language } from "~/i18n/languages";
import { lifeDates, parsePartialDate, type LifeDate } from "~/site/life-dates";
import type { SiteView } from "~/site/site-view";

// What the home page says of the person, worked out on the server so the
// page loads no date code of its own: the life dates under the name, in the
// visitor's language, and the JSON-LD for search engines.

/**
 * The person as schema.org's `Person`, for search engines: the name, and the
 * dates and places the family gave (what they left empty is left out). On a
 * public site only: an unlisted or private memorial tells search engines
 * nothing about them. Null then. Its values are data, in no language.
 */
function personStructuredData(site: SiteView): Record<string, unknown> | null {
  if (site.visibility !== "public") return null;
  const date = (value: string) => (value && parsePartialDate(value) ? value : undefined);
  const place = (name: string) => (name ? { "@type": "Place", name } : undefined);
  const person = {
    "@context": "https://schema.org",
    "@type": "Person",
    name: site.personName,
    birthDate: date(site.birthDate),
    birthPlace: place(site.birthPlace),
    deathDate: date(site.deathDate),
    deathPlace: place(site.deathPlace),
  };
  return Object.fromEntries(Object.entries(person).filter(([, value]) => value !== undefined));
}

/** JSON that cannot end its script element or break a line in old parsers, whatever the family typed. */
const inScript = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);

const time = (date: LifeDate) => createElement("time", { dateTime: date.dateTime }, date.text);

/** A message with one element in it ("Born {date}"), as markup: the message's words escaped by React around it. */
function withElement(message: string, element: ReactNode): ReactNode {
  const [before = "", after = ""] = message.split("\u0000");
  return createElement(Fragment, null, before, element, after);
}

/** "1942 – 2026" (both), "Born …" or "Died …", as the markup inside the line under the name; null for nothing. */
function lifeDatesHtml(site: SiteView, language: Language): string | null {
  const dates = lifeDates(site, language);
  if (!dates) return null;
  const { born, died } = dates;
  const t = translate(language);
  const line =
    born && died
      ? createElement(Fragment, null, time(born), " – ", time(died))
      : born
        ? withElement(t("home.hero.born", { date: "\u0000" }), time(born))
        : withElement(t("home.hero.died", { date: "\u0000" }), time(died!));
  return renderToStaticMarkup(line);
}

export interface HomePerson {
  /** The markup of the line under the name, in the visitor's language (app/site/life-dates.ts), or null. */
  lifeDates: string | null;
  /** The JSON-LD script's text, or null. */
  structuredData: string | null;
}

/** The person's dates and JSON-LD for the home page, or nothing for a visitor still outside a private memorial. */
export function homePerson(site: SiteView, language: Language, locked: boolean): HomePerson {
  if (locked) return { lifeDates: null, structuredData: null };
  const person = personStructuredData(site);
  return { lifeDates: lifeDatesHtml(site, language), structuredData: person ? inScript(person) : null };
}
