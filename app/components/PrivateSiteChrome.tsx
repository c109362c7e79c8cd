import { Link } from "@remix-run/react";
import { useSite } from "~/utils/site";
import * as header from "./SiteHeader.css";
import * as footer from "./SiteFooter.css";

// A private memorial's header and footer for visitors who have not given the
// passcode yet: the memorial's name, and the way to the admin login; no
// links to pages they cannot open, nothing of the family's details.

export function PrivateSiteHeader() {
  const site = useSite();
  return (
    <header className={header.header}>
      <div className={header.inner}>
        <span className={header.brand}>{site.siteTitle}</span>
      </div>
    </header>
  );
}

export function PrivateSiteFooter() {
  const site = useSite();
  return (
    <footer className={footer.footer} id="site-footer">
      <div className={footer.inner}>
        <p className={footer.title}>{site.siteTitle}</p>
        <nav aria-label="Footer">
          <ul className={footer.list}>
            <li>
              <Link to="/admin" className={footer.link}>
                Admin
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
