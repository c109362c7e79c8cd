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
        <nav aria-label="Where to go from here" className={ui.actions}>
          <Link to="/" className={ui.button.primary}>
            Go to the home page
          </Link>
          <Link to="/guestbook" className={ui.button.secondary}>
            Guest Book
          </Link>
          <Link to="/gallery" className={ui.button.secondary}>
            Gallery
          </Link>
        </nav>
      </div>
      {children}
    </div>
  );
}
