import { useFetcher, useLocation, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState, type CSSProperties, type FormEvent } from "react";
import { useSite } from "~/site/site-view";
import { useT } from "./useT";
import { KAREN, prefersReducedMotion, TOGGLE_FETCHER, TURNED_ON, turnedOn, useKarenMode } from "./karen-state";
import * as s from "./KarenMode.css";

export { useKarenMode };

const COLOURS = ["#ff4d6d", "#ffd60a", "#4cc9f0", "#80ffdb", "#f72585", "#b5179e", "#fb8500", "#90e0ef"];

/**
 * The footer toggle: a real button in a POST form (it works without
 * JavaScript and keeps the choice in a cookie); with JavaScript it flips in
 * place, and turning it on starts the music and scrolls to the footer.
 */
export function KarenModeToggle() {
  const on = useKarenMode();
  const fetcher = useFetcher({ key: TOGGLE_FETCHER });
  const location = useLocation();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // "In place": answer with the new state instead of the plain form's redirect back to the footer.
    const data = new FormData(event.currentTarget);
    data.set("inPlace", "yes");
    fetcher.submit(data, { method: "post", action: "/karen-mode", preventScrollReset: true });
    if (!on) {
      turnedOn.at = Date.now();
      window.dispatchEvent(new Event(TURNED_ON));
    }
  };
  return (
    <fetcher.Form method="post" action="/karen-mode" onSubmit={onSubmit} className={s.toggleForm}>
      <input type="hidden" name="enabled" value={on ? "off" : "on"} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <button type="submit" aria-pressed={on} className={s.toggle}>
        <span className={s.switchTrack} aria-hidden="true">
          <span className={s.switchThumb} />
        </span>
        Karen Mode
      </button>
    </fetcher.Form>
  );
}

/**
 * The looping music player. Without JavaScript, and until Karen Mode is on,
 * it is the browser's own player (hidden while Karen Mode is off); once it
 * is on, the player with one Play/Pause button (./KarenMusic.tsx) is
 * fetched: it is no part of a page's first JavaScript.
 */
export function MusicPlayer() {
  const on = useKarenMode();
  // Fetched once Karen Mode is on, and kept: a player taken away would leave its music playing.
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (on) setWanted(true);
  }, [on]);
  const { t } = useT();
  const music = useSite().karenMusic;
  // A terminal browser would print the fallback sentence in every page's footer.
  const textBrowser = useRouteLoaderData<{ textBrowser?: boolean }>("root")?.textBrowser;
  const plain = (
    <div className={s.player}>
      {/* A new song (the family's upload) needs a new element: an <audio> keeps the source it chose first. */}
      <audio key={music.mp3} loop preload="none" controls aria-label={music.title} className={s.nativeAudio}>
        {music.ogg ? <source src={music.ogg} type="audio/ogg" /> : null}
        <source src={music.mp3} type="audio/mpeg" />
        {textBrowser ? null : t("common.karen.noAudio")}
      </audio>
    </div>
  );
  return wanted ? (
    <Suspense fallback={plain}>
      <MusicControls />
    </Suspense>
  ) : (
    plain
  );
}

const MusicControls = lazy(() => import("./KarenMusic"));

interface Light {
  left: number;
  colour: string;
  duration: number;
  delay: number;
  size: number;
}

/** A fixed, repeatable set for the server's page (the same on every render, no hydration mismatch). */
function seededLights(): Light[] {
  return Array.from({ length: KAREN.lights }, (_, i) => ({
    left: (i * 37) % 100,
    colour: COLOURS[i % COLOURS.length]!,
    duration: 3 + ((i * 7) % 5),
    delay: -((i * 13) % 40) / 10,
    size: 8 + ((i * 5) % 10),
  }));
}

function randomLights(): Light[] {
  return Array.from({ length: KAREN.lights }, () => ({
    left: Math.random() * 100,
    colour: COLOURS[Math.floor(Math.random() * COLOURS.length)]!,
    duration: 3 + Math.random() * 4,
    delay: -Math.random() * 4,
    size: 8 + Math.random() * 10,
  }));
}

/** The party layer over the page: falling coloured lights (all CSS, no clicks caught). */
export function KarenParty({ theme }: { theme: "classic" | "disco" }) {
  const [lights, setLights] = useState(seededLights);
  useEffect(() => {
    if (prefersReducedMotion()) return;
    const timer = window.setInterval(() => setLights(randomLights()), KAREN.lightsIntervalMs);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <div className={s.party} aria-hidden="true" data-testid="karen-party">
      {theme === "disco" ? (
        <>
          <div className={s.spotlightLeft} />
          <div className={s.spotlightRight} />
          <div className={s.danceFloor} />
        </>
      ) : null}
      <div className={s.lights}>
        {lights.map((light, index) => (
          <span
            key={index}
            className={s.light}
            style={
              {
                left: `${light.left}%`,
                width: `${light.size}px`,
                height: `${light.size}px`,
                background: light.colour,
                boxShadow: `0 0 ${light.size}px ${light.colour}`,
                animationDuration: `${light.duration}s`,
                animationDelay: `${light.delay}s`,
              } as CSSProperties
            }
          />
        ))}
      </div>
    </div>
  );
}

/**
 * The spinning mirror ball hangs in the footer beside the toggle, where it
 * covers nothing a visitor reads (over the page it hid each page's heading).
 */
export function MirrorBall() {
  const on = useKarenMode();
  return on ? <div className={s.mirrorBall} aria-hidden="true" data-testid="mirror-ball" /> : null;
}
