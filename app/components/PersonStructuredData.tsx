import { parsePartialDate } from "~/site/life-dates";
import { useSite, type SiteView } from "~/site/site-view";

/**
 * The person as schema.org's `Person`, for search engines: the name, and the
 * dates and places the family gave (what they left empty is left out). On a
 * public site only: an unlisted or private memorial tells search engines
 * nothing about them. Null then.
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

/**
 * The home page's JSON-LD: a data block, which no browser runs, so the
 * Content-Security-Policy (and its nonce) does not apply to it.
 */
export function PersonStructuredData() {
  const person = personStructuredData(useSite());
  if (!person) return null;
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: inScript(person) }} />;
}
