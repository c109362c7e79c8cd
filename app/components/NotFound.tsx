import { Link } from "@remix-run/react";
import * as ui from "~/styles/ui.css";

export function NotFound() {
  return (
    <div className={ui.narrow}>
      <div className={ui.emptyState}>
        <h1>404 Page Not Found</h1>
        <p>Did you forget to add the page to the router?</p>
        <Link to="/" className={ui.button.primary}>
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
