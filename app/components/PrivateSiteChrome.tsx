import { useSite } from "~/site/site-view";
import * as header from "./SiteHeader.css";

// A private memorial's header for visitors who have not given the passcode
// yet: the memorial's name alone (its footer is SiteFooter's locked one).

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
