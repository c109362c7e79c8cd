import { useNavigate } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";

// Links to the site's pages in the header and footer, which every page
// renders: plain anchors, with one listener for the whole document that
// turns a click on any of them into a client-side navigation once the app
// runs. Remix's <Link> runs hooks that resolve the path and set up
// prefetching on every render; the chrome has seventeen links, and plain
// anchors took 5–6% off an uncached page's server CPU
// (docs/decisions/018-remembered-route-matching.md).

interface PageLinkProps {
  /** The page's absolute path ("/guestbook", "/#service"). */
  to: string;
  className?: string;
  "aria-current"?: "page";
  "aria-label"?: string;
  children: ReactNode;
}

/**
 * A link to a page of this site. Its props are named rather than spread: an
 * object rest and spread of varied props cost as much as the rest of it.
 */
export function PageLink({ to, className, "aria-current": current, "aria-label": label, children }: PageLinkProps) {
  // data-discover: Remix's route discovery fetches the routes of links marked so, as it does for <Link>.
  return (
    <a className={className} aria-current={current} aria-label={label} data-discover="true" data-page-link="" href={to}>
      {children}
    </a>
  );
}

/**
 * Navigates in the app on a plain left click of any PageLink, as <Link> does
 * (the same address again replaces it in the history). A click with a
 * modifier (a new tab or window) is left to the browser. PageLinks are
 * always this site's own paths, never a download or another target.
 */
export function usePageLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[data-page-link]") : null;
      if (!link || event.defaultPrevented || event.button || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      const to = link.getAttribute("href") ?? "/";
      navigate(to, { replace: to === window.location.pathname + window.location.search + window.location.hash });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
