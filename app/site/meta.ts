import type { MetaDescriptor } from "@remix-run/node";
import { memorialTitle } from "~/content";
import { siteFromMatches } from "~/site/site-view";

interface RootMatch {
  id: string;
  data?: unknown;
}

function originFrom(matches: readonly RootMatch[]): string {
  const data = matches.find((m) => m.id === "root")?.data as { origin?: string } | undefined;
  return data?.origin ?? "";
}

/**
 * Title, description and OpenGraph tags for a page, so a link shared in a
 * message or on social media shows a preview with the hero picture.
 */
export function pageMeta(
  matches: readonly RootMatch[],
  page: { title?: string; description?: string; path?: string; exactTitle?: boolean } = {},
): MetaDescriptor[] {
  const origin = originFrom(matches);
  const site = siteFromMatches(matches);
  const name = memorialTitle(site);
  const title = !page.title ? name : page.exactTitle ? page.title : `${page.title} | ${name}`;
  // Without the site's settings (an error in the layout's loader) the memorial's name is the description.
  const description = page.description ?? (site.siteDescription || name);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: name },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
  ];
  // A private memorial shows visitors without the passcode no photo (app/site/privacy.server.ts).
  if (site.heroImage.src) {
    tags.push(
      { property: "og:image", content: `${origin}${site.heroImage.src}` },
      { name: "twitter:card", content: "summary_large_image" },
    );
    if (site.heroImageAlt) tags.push({ property: "og:image:alt", content: site.heroImageAlt });
  }
  if (origin && page.path) tags.push({ property: "og:url", content: `${origin}${page.path}` });
  return tags;
}
