export interface NavItem {
  label: string;
  to: string;
}

export const headerLinks: NavItem[] = [
  { label: "Home", to: "/" },
  { label: "Service Details", to: "/#service" },
  { label: "Life Story", to: "/life" },
  { label: "Guest Book", to: "/guestbook" },
  { label: "Share Memories", to: "/share" },
  { label: "Gallery", to: "/gallery" },
  { label: "Poems", to: "/poems" },
];

export const footerLinks: NavItem[] = [
  { label: "Home", to: "/" },
  { label: "Service", to: "/#service" },
  { label: "Life Story", to: "/life" },
  { label: "Guest Book", to: "/guestbook" },
  { label: "Gallery", to: "/gallery" },
  { label: "Poems", to: "/poems" },
  { label: "Share Photos & Videos", to: "/share" },
  { label: "Admin", to: "/admin" },
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
