import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Hero } from "~/components/Hero";
import { LinkSeparator } from "~/components/LinkSeparator";
import { useT } from "~/components/useT";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { paragraphs, useSite } from "~/site/site-view";
import {
  calendarSubscribeHtml,
  candleSectionHtml,
  followFormHtml,
  getSiteView,
  homeLifeStory,
  homePerson,
  isVisitorLocked,
  pageWords,
  visitorLanguage,
} from "~/routes/_index.server";
import * as s from "./_index.css";

/**
 * The life story's first sentence, once published (the home page's link
 * preview tells who they were), the candles lit, and "Remember with us",
 * in the visitor's language (the candles and the form come as HTML, so only
 * the page's own words are sent).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const language = await visitorLanguage(request);
  const site = getSiteView(Date.now(), language);
  return {
    ...homeLifeStory(),
    person: homePerson(site, language, await isVisitorLocked(request, context)),
    calendar: calendarSubscribeHtml(request, site, language),
    candles: candleSectionHtml(request, "/#candles", language),
    followForm: followFormHtml("home-follow", undefined, language),
    words: pageWords(language, ["home"]),
  };
}

/** "Sunday, August 31st, 2025 · 4:00 pm…": a narrow screen breaks the line after the dot, never before it. */
const keepDotWithDate = (text: string) => text.replace(/ · /g, "\u00a0· ");

export default function HomePage() {
  const site = useSite();
  const { lifeStory, candles, followForm, person, calendar } = useLoaderData<typeof loader>();
  const { service } = site;
  const { t } = useT();
  const newTab = <span className={ui.visuallyHidden}> {t("home.newTab")}</span>;
  return (
    <>
      <Hero lifeDates={person.lifeDates} />
      {/* The JSON-LD, a data block no browser runs (so the Content-Security-Policy's nonce does not apply). */}
      {person.structuredData ? <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: person.structuredData }} /> : null}

      <section className={s.welcome} aria-labelledby="welcome-title">
        <h2 id="welcome-title">{t("home.welcome.title")}</h2>
        {paragraphs(service.over ? site.welcomeMessageAfter : site.welcomeMessage).map((paragraph) => (
          <p key={paragraph} className={s.lead}>
            {paragraph}
          </p>
        ))}
        {lifeStory ? (
          <p>
            <Link to="/life" className={ui.button.secondary}>
              {t("home.welcome.lifeStory", { name: site.personName })}
            </Link>
          </p>
        ) : null}
      </section>

      <div className={s.sections}>
        <section id="service" className={s.serviceCard} aria-labelledby="service-title">
          <h2 id="service-title">{t("home.service.title")}</h2>
          <p className={s.serviceTitle}>{site.serviceTitle}</p>
          <p className={s.serviceLead}>
            {t(service.over ? "home.service.leadOver" : "home.service.lead", { day: service.dayText, venue: site.venueName })}
          </p>
          <dl className={s.details}>
            <div>
              <dt>{t("home.service.when")}</dt>
              <dd>
                <time dateTime={service.startsAt}>{keepDotWithDate(service.whenText)}</time>
              </dd>
            </div>
            <div>
              <dt>{t("home.service.where")}</dt>
              <dd>
                <span className={s.venue}>{site.venueName}</span>
                <br />
                <address className={s.address}>{site.venueAddress}</address>
              </dd>
            </div>
          </dl>
          {site.serviceNote ? <p className={s.serviceNote}>{site.serviceNote}</p> : null}
          <div className={s.serviceActions}>
            {service.over ? null : (
              // A file, not a page: a plain link, so the browser hands it to the calendar.
              <a href="/service.ics" className={ui.button.secondary}>
                {t("home.service.addToCalendar")}
              </a>
            )}
            {service.over ? null : <LinkSeparator />}
            <a href={service.mapsLink} className={ui.button.secondary} target="_blank" rel="noopener noreferrer">
              {t("home.service.viewOnMap")}
              {newTab}
            </a>
            <LinkSeparator />
            {site.livestreamUrl ? (
              <a href={site.livestreamUrl} className={ui.button.secondary} target="_blank" rel="noopener noreferrer">
                {t("home.service.livestream")}
                {newTab}
              </a>
            ) : null}
            {site.livestreamUrl ? <LinkSeparator /> : null}
            <Link to="/rsvp" className={ui.button.secondary}>
              {t(service.over ? "home.service.rsvpOver" : "home.service.rsvp")}
            </Link>
          </div>
          {/* The calendar offer, as HTML from the loader (app/routes/calendar-subscribe.server.ts). */}
          {calendar ? <div dangerouslySetInnerHTML={{ __html: calendar }} /> : null}
        </section>

        <div className={s.ctaGrid}>
          <section className={s.ctaCard} aria-labelledby="cta-guestbook">
            <h2 id="cta-guestbook" className={s.ctaTitle}>
              {t("home.cta.guestbookTitle")}
            </h2>
            <p>{t("home.cta.guestbookText")}</p>
            <Link to="/guestbook" className={ui.button.primary}>
              {t("home.cta.guestbookButton")}
            </Link>
          </section>
          <section className={s.ctaCard} aria-labelledby="cta-share">
            <h2 id="cta-share" className={s.ctaTitle}>
              {t("home.cta.shareTitle")}
            </h2>
            <p>{t("home.cta.shareText")}</p>
            <Link to="/share" className={ui.button.primary}>
              {t("home.cta.shareButton")}
            </Link>
          </section>
        </div>

        {/* Plain HTML from the loader: no code of its own to load (candle-section.server.ts). */}
        <div dangerouslySetInnerHTML={{ __html: candles }} />

        {site.donationUrl ? (
          <section className={s.donationCard} aria-labelledby="donation-title">
            <h2 id="donation-title" className={s.ctaTitle}>
              {site.donationTitle}
            </h2>
            {site.donationText ? <p>{site.donationText}</p> : null}
            <a href={site.donationUrl} className={ui.button.primary} target="_blank" rel="noopener noreferrer">
              {site.donationButtonLabel}
              {newTab}
            </a>
          </section>
        ) : null}

        {/* "Remember with us": a plain form, as HTML from the loader (it needs no code). */}
        {followForm ? <div dangerouslySetInnerHTML={{ __html: followForm }} /> : null}
      </div>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { path: "/", description: data?.storyOpening || undefined });
