export interface NavItem {
  /** The link's words: its name in the `common.nav` catalog (`common.nav.<label>`). */
  label: string;
  to: string;
}

export const headerLinks: NavItem[] = [
  { label: "home", to: "/" },
  { label: "serviceDetails", to: "/#service" },
  { label: "lifeStory", to: "/life" },
  { label: "guestBook", to: "/guestbook" },
  { label: "shareMemories", to: "/share" },
  { label: "gallery", to: "/gallery" },
  { label: "poems", to: "/poems" },
];

export const footerLinks: NavItem[] = [
  { label: "home", to: "/" },
  { label: "service", to: "/#service" },
  { label: "lifeStory", to: "/life" },
  { label: "guestBook", to: "/guestbook" },
  { label: "gallery", to: "/gallery" },
  { label: "poems", to: "/poems" },
  { label: "sharePhotos", to: "/share" },
  { label: "admin", to: "/admin" },
];

/** The links to show: "Life Story" only once the family has published it. */
export const shownLinks = (links: NavItem[], lifeStory: boolean) => links.filter((link) => lifeStory || link.to !== "/life");

/**
 * A link is active when the visitor is on its page. The Service Details
 * anchor lives on the home page, so it counts as active there too.
 */
export function isLinkActive(to: string, pathname: string): boolean {
  const target = to.split("#")[0] || "/";
  if (target === "/") return pathname === "/";
  return pathname === target || pathname.startsWith(`${target}/`);
}
