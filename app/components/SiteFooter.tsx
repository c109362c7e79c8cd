import { Link } from "@remix-run/react";
import { useSite } from "~/site/site-view";
import { footerLinks, shownLinks, type NavItem } from "~/utils/navigation";
import { KarenModeToggle, MirrorBall, MusicPlayer } from "./KarenMode";
import { LanguageList } from "./LanguageList";
import { tWith, useT } from "./useT";
import * as s from "./SiteFooter.css";

/** A private memorial's visitors without the passcode: only the way to the admin login. */
const lockedLinks: NavItem[] = [{ label: "admin", to: "/admin" }];

/**
 * The footer of every page. On a private memorial, for visitors who have not
 * given the passcode yet, it keeps only the memorial's name and the admin
 * link: no links to pages they cannot open, nothing of the family's details.
 */
export function SiteFooter({ locked = false, lifeStory = false }: { locked?: boolean; lifeStory?: boolean }) {
  const site = useSite();
  const { t } = useT();
  return (
    <footer className={s.footer} id="site-footer">
      <div className={s.inner}>
        <p className={s.title}>{site.siteTitle}</p>
        <nav aria-label={t("common.nav.footer")}>
          <ul className={s.list}>
            {(locked ? lockedLinks : shownLinks(footerLinks, lifeStory)).map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={s.link}>
                  {t(`common.nav.${link.label}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <LanguageList footer />
        {locked ? null : (
          <>
            <div className={s.party}>
              <MirrorBall />
              <KarenModeToggle />
              <MusicPlayer />
            </div>
            {/* Empty until the family gives theirs: a new site's example address is not shown. */}
            {site.contactEmail ? (
              <p className={s.small}>
                {tWith(t, "common.footer.questions", {
                  email: (
                    <a className={s.emailLink} href={`mailto:${site.contactEmail}`}>
                      {site.contactEmail}
                    </a>
                  ),
                })}
              </p>
            ) : null}
          </>
        )}
      </div>
    </footer>
  );
}
