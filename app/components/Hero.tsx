import { Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useSite } from "~/site/site-view";
import * as ui from "~/styles/ui.css";
import { LinkSeparator } from "./LinkSeparator";
import { useT } from "./useT";
import * as s from "./Hero.css";

// How far the photo and the words move per pixel scrolled.
const BACKGROUND_PARALLAX = 0.1;
const TEXT_PARALLAX = -1.5;

/** Parallax is an enhancement: without JavaScript, or for visitors who ask for less motion, the hero stays still. */
function useParallax() {
  const background = useRef<HTMLDivElement>(null);
  const text = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
    let frame = 0;
    const apply = () => {
      frame = 0;
      const y = reduceMotion.matches ? 0 : window.scrollY;
      if (background.current) background.current.style.transform = `translate3d(0, ${y * BACKGROUND_PARALLAX}px, 0)`;
      if (text.current) text.current.style.transform = y ? `translate3d(0, ${y * TEXT_PARALLAX}px, 0)` : "";
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(apply);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    reduceMotion.addEventListener("change", apply);
    apply();
    return () => {
      window.removeEventListener("scroll", onScroll);
      reduceMotion.removeEventListener("change", apply);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, []);

  return { background, text };
}

/**
 * How wide the photo is drawn: it covers a box the width of the screen and
 * about 120% of its height (the parallax room), so on a tall phone screen a
 * landscape photo is drawn much wider than the screen, and the browser must
 * pick a copy for that width, not the screen's. (A browser that cannot read
 * max() takes the screen's width.)
 */
const coverSizes = (hero: { width: number; height: number }) => `max(100vw, ${Math.ceil((120 * hero.width) / hero.height)}vh)`;

/**
 * "1942 – 2026" under the name, "Born …" or "Died …" when one date is known,
 * nothing when neither is: markup the home page's loader writes in the
 * visitor's language (app/site/person-structured-data.server.ts).
 */
function LifeDatesLine({ html }: { html: string | null }) {
  return html ? <p className={s.lifeDates} data-testid="life-dates" dangerouslySetInnerHTML={{ __html: html }} /> : null;
}

export function Hero({ lifeDates }: { lifeDates: string | null }) {
  const { background, text } = useParallax();
  const site = useSite();
  const { t } = useT();
  const hero = site.heroImage;
  const sizes = coverSizes(hero);
  return (
    <section className={s.hero} aria-labelledby="hero-title" data-hero="">
      <div ref={background} className={s.background}>
        <picture>
          {hero.srcSetWebp ? <source type="image/webp" srcSet={hero.srcSetWebp} sizes={sizes} /> : null}
          {hero.srcSetJpeg ? <source type="image/jpeg" srcSet={hero.srcSetJpeg} sizes={sizes} /> : null}
          <img className={s.photo} src={hero.src} alt={site.heroImageAlt} width={hero.width} height={hero.height} />
        </picture>
      </div>
      <div className={s.overlay} />
      <div ref={text} className={s.text}>
        <h1 id="hero-title" className={s.title}>
          <span className={s.titleLead}>{t("home.hero.titleLead", { title: site.heroTitle })}</span>{" "}
          <span className={s.personName}>{site.personName}</span>
        </h1>
        <LifeDatesLine html={lifeDates} />
        {site.heroSubtitle ? <p className={s.subtitle}>{site.heroSubtitle}</p> : null}
        <div className={s.actions}>
          <Link to="/guestbook" className={ui.button.onDark}>
            {t("home.hero.shareMemory")}
          </Link>
          <LinkSeparator />
          <Link to="/share" className={ui.button.ghostOnDark}>
            {t("home.hero.uploadPhotos")}
          </Link>
        </div>
      </div>
    </section>
  );
}
