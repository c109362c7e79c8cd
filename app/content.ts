import type { Language } from "~/i18n/languages";
/**
 * Defaults for a new site. The family changes every one of these in the
 * admin panel's Site tab (stored in the database, app/site/settings.server.ts);
 * these are what a fresh install shows until they do.
 */
export interface SiteContent {
  /** Full name as it should appear in titles. */
  personName: string;
  siteTitle: string;
  /** One sentence used for the page description and link previews. */
  siteDescription: string;
  heroTitle: string;
  heroSubtitle: string;
  heroImageAlt: string;
  /** The person's date of birth: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`; empty when unknown (app/site/life-dates.ts). */
  birthDate: string;
  /** Where they were born; optional. */
  birthPlace: string;
  /** The person's date of death, written as `birthDate`. */
  deathDate: string;
  deathPlace: string;
  /** Under the name: the years alone ("1942 – 2026") or the dates as given ("March 14, 1942 – …"). */
  lifeDatesShown: "years" | "full";
  /** Shown until the service is over: paragraphs separated by blank lines. */
  welcomeMessage: string;
  /** Shown once the service is over. */
  welcomeMessageAfter: string;
  serviceTitle: string;
  /** Local date and time in `timeZone`, `YYYY-MM-DDTHH:mm`. */
  serviceStartsAt: string;
  serviceEndsAt: string;
  /** The family's IANA time zone: the service times and the admin panel's dates are in it. */
  timeZone: string;
  venueName: string;
  venueAddress: string;
  /** Empty: a map search for the address. */
  mapsLink: string;
  /** Optional (empty for none). */
  livestreamUrl: string;
  /** Optional, e.g. "Reception to follow" (empty for none). */
  serviceNote: string;
  contactEmail: string;
  /**
   * The site's public address (an origin such as https://memorial.example.com),
   * for printed cards, the slideshow's QR code, invitation and e-mail links;
   * empty: the address the admin is using. PUBLIC_URL, when set, wins.
   */
  publicUrl: string;
  privacyNote: string;
  donationTitle: string;
  donationText: string;
  donationButtonLabel: string;
  /** Empty: no donation card. */
  donationUrl: string;
  /**
   * Karen Mode's look: "classic" (dark red footer, falling lights, mirror
   * ball) or "disco" (all that plus sweeping spotlights and a glowing dance
   * floor). The KAREN_MODE_THEME environment variable overrides it.
   */
  karenModeTheme: "classic" | "disco";
  /** public, unlisted (kept out of search engines) or private (visitors need the passcode). */
  visibility: "public" | "unlisted" | "private";
  /** The languages visitors may read the site in (app/i18n/languages.ts), the main one among them. */
  languages: Language[];
  /** The language of the family's own texts as typed in their fields, and of the memory book. */
  mainLanguage: Language;
}

/** The defaults the layout and the error pages show (with JavaScript too); the page texts are in `content` only. */
const layoutContent = {
  personName: "Our Beloved Friend",
  siteTitle: "In Loving Memory",
  heroTitle: "In Loving Memory",
  timeZone: "America/Los_Angeles",
  mapsLink: "",
  livestreamUrl: "",
  serviceNote: "",
  contactEmail: "family@example.com",
  publicUrl: "",
  karenModeTheme: "classic",
  visibility: "public",
  languages: ["en"],
  mainLanguage: "en",
} satisfies Partial<SiteContent>;

/** The texts only pages show: an error page without the site's settings shows none of them. */
type PageTexts = Omit<SiteContent, keyof typeof layoutContent>;

// A call marked pure, so the browser's bundle leaves it out where only `layoutContent` is used (docs/decisions/017).
export const content: SiteContent = /* @__PURE__ */ Object.assign({}, layoutContent, {
  privacyNote: "Your contact info will be used only for acknowledgments.",
  siteDescription: "A celebration of life: service details, a guest book, photos and poems shared by friends and family.",
  heroSubtitle: "Celebrating a life filled with love, laughter and kindness",
  heroImageAlt: "Soft evening light over the hills, a quiet place to remember",
  birthDate: "",
  birthPlace: "",
  deathDate: "",
  deathPlace: "",
  lifeDatesShown: "years",
  serviceTitle: "Celebration of Life",
  serviceStartsAt: "2025-08-31T16:00",
  serviceEndsAt: "2025-08-31T20:00",
  venueName: "The Berkeley City Club",
  venueAddress: "2315 Durant Avenue, Berkeley, CA 94704",
  donationTitle: "Make a Donation",
  donationButtonLabel: "Donate to UCSF",
  // No link, so no card: a new memorial never sends visitors to give to a
  // real hospital the family did not choose. Once the family gives a link,
  // the card shows with the spec's title and button (or their own words).
  donationUrl: "",
  welcomeMessage:
    "Please join us to celebrate a life that touched so many of us. Everyone is welcome: come as you are, bring a story, and stay as long as you like." +
    "\n\n" +
    "If you cannot be there, you can still sign the guest book, share your photos and videos, and read the poems and writings friends have left here.",
  welcomeMessageAfter:
    "The memorial service has already taken place. Thank you to everyone who joined us to celebrate a life that touched so many of us, and to all who sent their love from afar." +
    "\n\n" +
    "This page stays open as a place to remember together. Please sign the guest book with a favourite story, share your photos and videos, and read the poems and writings friends have left here.",
  donationText: "In lieu of flowers, the family asks that you consider a gift to the hospital whose care meant so much to us.",
} satisfies PageTexts);

/** The photo and song that ship with the site, used until the family uploads their own. */
export const bundledMedia = {
  heroImage: "/images/hero.jpg",
  karenModeMusic: { mp3: "/audio/karen-mode.mp3", ogg: "/audio/karen-mode.ogg", title: "Karen Mode party loop" },
} as const;

/** "In Loving Memory of …": the home page's heading and the end of every page's title. */
export function memorialTitle(site: Pick<SiteContent, "heroTitle" | "personName"> & { memorialName?: string }): string {
  // A page's settings carry it written in the visitor's language (app/site/settings.server.ts).
  return site.memorialName || `${site.heroTitle} of ${site.personName}`;
}
