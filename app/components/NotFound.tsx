import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import * as ui from "~/styles/ui.css";
import { useT } from "./useT";

/**
 * The not-found page: its heading, a kind word and the ways onward first,
 * for a visitor who followed an old link; `children` (a note for whoever
 * keeps the site, on an unknown address) come last.
 */
export function NotFound({ children }: { children?: ReactNode }) {
  const { t } = useT();
  return (
    <div className={ui.narrow}>
      <div className={ui.emptyState}>
        <h1>{t("common.notFound.title")}</h1>
        <p>{t("common.notFound.text")}</p>
        {/* A list, so text browsers such as lynx show the links apart (they draw no CSS). */}
        <nav aria-label={t("common.notFound.onward")}>
          <ul className={ui.actions}>
            <li>
              <Link to="/" className={ui.button.primary}>
                {t("common.notFound.home")}
              </Link>
            </li>
            <li>
              <Link to="/guestbook" className={ui.button.secondary}>
                {t("common.nav.guestBook")}
              </Link>
            </li>
            <li>
              <Link to="/gallery" className={ui.button.secondary}>
                {t("common.nav.gallery")}
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      {children}
    </div>
  );
}
