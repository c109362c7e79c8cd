import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import * as ui from "~/styles/ui.css";

/**
 * The not-found page: its heading, a kind word and the ways onward first,
 * for a visitor who followed an old link; `children` (a note for whoever
 * keeps the site, on an unknown address) come last.
 */
export function NotFound({ children }: { children?: ReactNode }) {
  return (
    <div className={ui.narrow}>
      <div className={ui.emptyState}>
        <h1>404 Page Not Found</h1>
        <p>We couldn&apos;t find that page. The link may be old, or the address may have a small typo. Everything shared is still here:</p>
        {/* A list, so text browsers such as lynx show the links apart (they draw no CSS). */}
        <nav aria-label="Where to go from here">
          <ul className={ui.actions}>
            <li>
              <Link to="/" className={ui.button.primary}>
                Go to the home page
              </Link>
            </li>
            <li>
              <Link to="/guestbook" className={ui.button.secondary}>
                Guest Book
              </Link>
            </li>
            <li>
              <Link to="/gallery" className={ui.button.secondary}>
                Gallery
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      {children}
    </div>
  );
}
