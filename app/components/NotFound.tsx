import { Link } from "@remix-run/react";
import * as ui from "~/styles/ui.css";

export function NotFound() {
  return (
    <div className={ui.narrow}>
      <div className={ui.emptyState}>
        <h1>404 Page Not Found</h1>
        <p>Did you forget to add the page to the router?</p>
        <p>We couldn't find that page. The link may be old, or the address may have a small typo. Everything shared is still here:</p>
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
    </div>
  );
}
