import { Link } from "@remix-run/react";
import { useSite } from "~/utils/site";
import { footerLinks } from "~/utils/navigation";
import { KarenModeToggle, MirrorBall, MusicPlayer } from "./KarenMode";
import * as s from "./SiteFooter.css";

export function SiteFooter() {
  const site = useSite();
  return (
    <footer className={s.footer} id="site-footer">
      <div className={s.inner}>
        <p className={s.title}>{site.siteTitle}</p>
        <nav aria-label="Footer">
          <ul className={s.list}>
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={s.link}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={s.party}>
          <MirrorBall />
          <KarenModeToggle />
          <MusicPlayer />
        </div>
        <p className={s.small}>
          Questions? Write to the family at{" "}
          <a className={s.emailLink} href={`mailto:${site.contactEmail}`}>
            {site.contactEmail}
          </a>
          .
        </p>
      </div>
    </footer>
  );
}
