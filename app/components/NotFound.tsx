import { Link } from "@remix-run/react";
import * as ui from "~/styles/ui.css";
import * as s from "./NotFound.css";

/**
 * The not-found page: its heading, a kind word and the ways onward first,
 * for a visitor who followed an old link. The spec's own sentence for this
 * page ("Did you forget to add the page to the router?") is a question for
 * whoever keeps the site, so it comes last, framed as a note to them.
 */
export function NotFound() {
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
      <aside aria-label="A note for the site's keeper" className={s.keeperNote}>
        <p>For whoever looks after this site, if one of its own links led here: Did you forget to add the page to the router?</p>
      </aside>
    </div>
  );
}
