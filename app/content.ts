/**
 * The family's words. Everything a visitor reads about the person and the
 * service lives here, so making the site theirs means editing this one file
 * (and replacing public/images/hero.jpg).
 */
export interface SiteContent {
  /** Full name as it should appear in titles. */
  personName: string;
  siteTitle: string;
  /** One sentence used for the page description and link previews. */
  siteDescription: string;
  serviceTitle: string;
  serviceDateText: string;
  serviceYear: string;
  venueName: string;
  venueAddress: string;
  mapsLink: string;
  contactEmail: string;
  heroImage: string;
  heroImageAlt: string;
  heroTitle: string;
  heroSubtitle: string;
  welcomeMessage: string[];
  privacyNote: string;
  /** The family's time zone: dates in the admin panel are shown in it. */
  timeZone: string;
  /**
   * Karen Mode's look: "classic" (dark red footer, falling lights, mirror
   * ball) or "disco" (all that plus sweeping spotlights and a glowing dance
   * floor). The KAREN_MODE_THEME environment variable overrides it.
   */
  karenModeTheme: "classic" | "disco";
  /** The song Karen Mode plays, as files under public/ (MP3 for every browser, Ogg optional). */
  karenModeMusic: { mp3: string; ogg?: string; title: string };
  donation: {
    title: string;
    text: string;
    buttonLabel: string;
    url: string;
  };
}

export const content: SiteContent = {
  personName: "Our Beloved Friend",
  siteTitle: "In Loving Memory",
  siteDescription: "A celebration of life: service details, a guest book, photos and poems shared by friends and family.",
  serviceTitle: "Celebration of Life",
  serviceDateText: "Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm",
  serviceYear: "2025",
  venueName: "The Berkeley City Club",
  venueAddress: "2315 Durant Avenue, Berkeley, CA 94704",
  mapsLink: "https://www.openstreetmap.org/search?query=2315%20Durant%20Avenue%2C%20Berkeley%2C%20CA%2094704",
  contactEmail: "family@example.com",
  timeZone: "America/Los_Angeles",
  karenModeTheme: "classic",
  karenModeMusic: { mp3: "/audio/karen-mode.mp3", ogg: "/audio/karen-mode.ogg", title: "Karen Mode party loop" },
  heroImage: "/images/hero.jpg",
  heroImageAlt: "Soft evening light over the hills, a quiet place to remember",
  heroTitle: "In Loving Memory",
  heroSubtitle: "Celebrating a life filled with love, laughter and kindness",
  welcomeMessage: [
    "The memorial service has already taken place. Thank you to everyone who joined us to celebrate a life that touched so many of us, and to all who sent their love from afar.",
    "This page stays open as a place to remember together. Please sign the guest book with a favourite story, share your photos and videos, and read the poems and writings friends have left here.",
  ],
  privacyNote: "Your contact info will be used only for acknowledgments.",
  donation: {
    title: "Make a Donation",
    text: "In lieu of flowers, the family asks that you consider a gift to the hospital whose care meant so much to us.",
    buttonLabel: "Donate to UCSF",
    url: "https://giving.ucsf.edu/",
  },
};

/** "In Loving Memory of …": the home page's heading and the end of every page's title. */
export function memorialTitle(site: Pick<SiteContent, "heroTitle" | "personName"> = content): string {
  return `${site.heroTitle} of ${site.personName}`;
}
