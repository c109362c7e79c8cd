import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Hero } from "~/components/Hero";
import { content } from "~/content";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/utils/meta";
import * as s from "./_index.css";

/** "Sunday, August 31st, 2025 · 4:00 pm…": a narrow screen breaks the line after the dot, never before it. */
const keepDotWithDate = (text: string) => text.replace(/ · /g, "\u00a0· ");

export default function HomePage() {
  return (
    <>
      <Hero />

      <section className={s.welcome} aria-labelledby="welcome-title">
        <h2 id="welcome-title">Thank You For Visiting</h2>
        {content.welcomeMessage.map((paragraph) => (
          <p key={paragraph} className={s.lead}>
            {paragraph}
          </p>
        ))}
      </section>

      <div className={s.sections}>
        <section id="service" className={s.serviceCard} aria-labelledby="service-title">
          <h2 id="service-title">Memorial Service</h2>
          <p className={s.serviceTitle}>{content.serviceTitle}</p>
          <dl className={s.details}>
            <div>
              <dt>When</dt>
              <dd>{keepDotWithDate(content.serviceDateText)}</dd>
            </div>
            <div>
              <dt>Where</dt>
              <dd>
                <span className={s.venue}>{content.venueName}</span>
                <br />
                <address className={s.address}>{content.venueAddress}</address>
              </dd>
            </div>
          </dl>
          <div className={s.serviceActions}>
            <a href={content.mapsLink} className={ui.button.secondary} target="_blank" rel="noopener noreferrer">
              View on Map<span className={ui.visuallyHidden}> (opens in a new tab)</span>
            </a>
            <Link to="/rsvp" className={ui.button.secondary}>
              Let the family know you attended
            </Link>
          </div>
        </section>

        <div className={s.ctaGrid}>
          <section className={s.ctaCard} aria-labelledby="cta-guestbook">
            <h2 id="cta-guestbook" className={s.ctaTitle}>
              Sign the Guest Book
            </h2>
            <p>Leave a message, a favourite story or a few words of comfort for the family.</p>
            <Link to="/guestbook" className={ui.button.primary}>
              Write Message
            </Link>
          </section>
          <section className={s.ctaCard} aria-labelledby="cta-share">
            <h2 id="cta-share" className={s.ctaTitle}>
              Share Photos &amp; Videos
            </h2>
            <p>Add your pictures and videos so everyone can enjoy them in the gallery.</p>
            <Link to="/share" className={ui.button.primary}>
              Upload Media
            </Link>
          </section>
        </div>

        <section className={s.donationCard} aria-labelledby="donation-title">
          <h2 id="donation-title" className={s.ctaTitle}>
            {content.donation.title}
          </h2>
          <p>{content.donation.text}</p>
          <a href={content.donation.url} className={ui.button.primary} target="_blank" rel="noopener noreferrer">
            {content.donation.buttonLabel}
            <span className={ui.visuallyHidden}> (opens in a new tab)</span>
          </a>
        </section>
      </div>
    </>
  );
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { path: "/" });
