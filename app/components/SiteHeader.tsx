import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useSite } from "~/site/site-view";
import { headerLinks, isLinkActive, shownLinks } from "~/utils/navigation";
import { LanguageList } from "./LanguageList";
import { useT } from "./useT";
import * as s from "./SiteHeader.css";

function NavLinks({ pathname, className, lifeStory }: { pathname: string; className: string; lifeStory: boolean }) {
  const { t } = useT();
  return (
    <ul className={className}>
      {shownLinks(headerLinks, lifeStory).map((link) => {
        const active = isLinkActive(link.to, pathname);
        // Home and its Service Details anchor are both lit on the home page,
        // but only one link can be the page a screen reader announces.
        const current = active && !link.to.includes("#");
        return (
          <li key={link.to}>
            <Link to={link.to} className={active ? s.linkActive : s.link} aria-current={current ? "page" : undefined}>
              {t(`common.nav.${link.label}`)}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The header of every page; `lifeStory`: the family has published the life story (its link shows). */
export function SiteHeader({ lifeStory }: { lifeStory: boolean }) {
  const site = useSite();
  const { t } = useT();
  const location = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  // A text browser shows every element whatever the CSS: one list of links is enough.
  const textBrowser = useRouteLoaderData<{ textBrowser?: boolean }>("root")?.textBrowser;

  // Without JavaScript every link loads a new page, so the menu starts closed.
  // With client-side navigation the same element stays mounted: close it.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.key]);

  return (
    <header className={s.header}>
      <div className={s.inner}>
        <Link to="/" className={s.brand}>
          {site.siteTitle}
        </Link>
        <nav aria-label={t("common.nav.main")} className={s.desktopNav}>
          <NavLinks pathname={location.pathname} className={s.list} lifeStory={lifeStory} />
        </nav>
        {textBrowser ? null : (
          <div className={s.mobileBar}>
            <Link to="/" className={s.homeButton} aria-label={t("common.nav.home")}>
              <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24" focusable="false">
                <path
                  d="M3 11.5 12 4l9 7.5M5.5 9.5V20h5v-6h3v6h5V9.5"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
            </Link>
            <details className={s.menu} ref={menu}>
              <summary className={s.menuToggle}>
                <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24" focusable="false">
                  <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
                {t("common.nav.menu")}
              </summary>
              <nav aria-label={t("common.nav.mobile")} className={s.mobileNav}>
                <NavLinks pathname={location.pathname} className={s.mobileList} lifeStory={lifeStory} />
              </nav>
            </details>
          </div>
        )}
      </div>
      <LanguageList />
    </header>
  );
}
