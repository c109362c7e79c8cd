import { useRouteLoaderData } from "@remix-run/react";
import { bundledMedia, memorialTitle } from "~/content";
import type { SiteSettings } from "~/site/settings.schema";
import type { Language } from "~/i18n/languages";

// Client-safe: what the root loader sends of the family's settings, for
// components anywhere on the page.

export interface ServiceView {
  /** "Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm" (both days written out when it ends on another). */
  dateText: string;
  /** The same with the time zone's name: "… 4:00 pm to 8:00 pm PDT". */
  whenText: string;
  /** "Sunday, August 31st, 2025". */
  dayText: string;
  startsAt: string;
  endsAt: string;
  /** Whether the service has ended: the home page's wording changes by itself. */
  over: boolean;
  /** The family's map link, or a map search for the address. */
  mapsLink: string;
}

/** The hero photo as pages show it: the family's (in several widths) or the bundled one. */
export interface HeroImageView {
  src: string;
  /** "…640w, …1280w, …": WebP and JPEG widths for `<picture>`. */
  srcSetWebp?: string;
  srcSetJpeg?: string;
  width: number;
  height: number;
}

export interface KarenMusicView {
  mp3: string;
  ogg?: string;
  title: string;
}

/** Everything a page needs of the family's settings. */
export interface SiteView extends SiteSettings {
  /** The language this view is in: the family's own texts in it where they have them, dates written in it. */
  language: Language;
  /** "In Loving Memory of …" in this language, for titles and link previews. */
  memorialName: string;
  service: ServiceView;
  heroImage: HeroImageView;
  karenMusic: KarenMusicView;
}

/** The settings every page shows (the root loader's `site`); the defaults while there is none (an error page). */
export function useSite(): SiteView {
  return useRouteLoaderData<{ site?: SiteView }>("root")?.site ?? fallbackSite;
}

/** The root match's `site`, for `meta` functions, which cannot use hooks. */
export function siteFromMatches(matches: readonly { id: string; data?: unknown }[]): SiteView {
  return (matches.find((m) => m.id === "root")?.data as { site?: SiteView } | undefined)?.site ?? fallbackSite;
}

/** Paragraphs of a message written with blank lines between them. */
export const paragraphs = (text: string) => text.split(/\n\s*\n/).filter((paragraph) => paragraph.trim() !== "");

export { memorialTitle };

/**
 * The layout's own loader failed: the error shows alone, without header or
 * footer (app/root.tsx), so only the page's title and a shared link's
 * preview read these. The browser is sent nothing more: no family's texts,
 * not even the defaults' (a page's own settings are left out, React shows
 * nothing for them).
 */
const fallbackSite = {
  // app/content.ts's defaults, for "In Loving Memory of Our Beloved Friend".
  heroTitle: "In Loving Memory",
  personName: "Our Beloved Friend",
  siteTitle: "In Loving Memory",
  siteDescription: "",
  contactEmail: "",
  languages: [],
  heroImage: { src: bundledMedia.heroImage, width: 1600, height: 1000 },
  karenMusic: { ...bundledMedia.karenModeMusic },
} as unknown as SiteView;
