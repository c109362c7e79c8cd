import { useFetcher, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type CSSProperties, type FormEvent } from "react";
import { useSite } from "~/site/site-view";
import { useT } from "./useT";
import * as s from "./KarenMode.css";

// Karen Mode constants of the spec (§9).
const KAREN = {
  volume: 0.7,
  retryDelaysMs: [100, 500, 1000],
  triggerResetMs: 2000,
  scrollDelayMs: 1500,
  lights: 30,
  lightsIntervalMs: 800,
} as const;

const TURNED_ON = "karen-mode:on";
const COLOURS = ["#ff4d6d", "#ffd60a", "#4cc9f0", "#80ffdb", "#f72585", "#b5179e", "#fb8500", "#90e0ef"];

const TOGGLE_FETCHER = "karen-mode";

/**
 * Karen Mode as the visitor sees it: the choice being made, else the toggle's
 * last answer, else the server's cookie. The toggle's answer comes before the
 * root's data because the router marks the toggle done a moment before it
 * hands over the revalidated root data; a render in between (the lights
 * change every 800 ms) would otherwise see Karen Mode off and stop the music
 * the visitor just started.
 */
export function useKarenMode(): boolean {
  const root = useRouteLoaderData<{ karenMode?: boolean }>("root");
  const toggle = useFetcher<{ karenMode?: boolean }>({ key: TOGGLE_FETCHER });
  if (toggle.formData) return toggle.formData.get("enabled") === "on";
  if (typeof toggle.data?.karenMode === "boolean") return toggle.data.karenMode;
  return root?.karenMode ?? false;
}

const prefersReducedMotion = () => typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

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
    if (!on) window.dispatchEvent(new Event(TURNED_ON));
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
 * The looping music player. Without JavaScript it is the browser's own
 * player; with it, one Play/Pause button whose state follows the audio. It
 * starts by itself only right after the visitor turns Karen Mode on.
 */
export function MusicPlayer() {
  const { t } = useT();
  const audioRef = useRef<HTMLAudioElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [triggerMusic, setTriggerMusic] = useState(false);

  useEffect(() => {
    setHydrated(true);
    const onTurnedOn = () => {
      setTriggerMusic(true);
      window.setTimeout(() => setTriggerMusic(false), KAREN.triggerResetMs);
      if (!prefersReducedMotion()) {
        window.setTimeout(
          () => document.getElementById("site-footer")?.scrollIntoView({ behavior: "smooth", block: "end" }),
          KAREN.scrollDelayMs,
        );
      }
    };
    window.addEventListener(TURNED_ON, onTurnedOn);
    return () => window.removeEventListener(TURNED_ON, onTurnedOn);
  }, []);

  const retryTimers = useRef<number[]>([]);
  const stopRetries = () => {
    retryTimers.current.forEach((timer) => window.clearTimeout(timer));
    retryTimers.current = [];
  };

  useEffect(() => {
    const audio = audioRef.current;
    if (!triggerMusic || !audio) return;
    let started = false;
    const attempt = () =>
      audio.play().then(
        () => {
          // Playing: no more retries (they must not restart music the visitor then pauses).
          started = true;
          stopRetries();
        },
        (error: unknown) => console.warn("Karen Mode music could not start", error),
      );
    audio.volume = KAREN.volume;
    audio.currentTime = 0;
    void attempt();
    // Browsers may refuse the first try (the audio still loading, an autoplay rule): try again a little later.
    retryTimers.current = KAREN.retryDelaysMs.map((delay) =>
      window.setTimeout(() => {
        if (!started) void attempt();
      }, delay),
    );
    return stopRetries;
  }, [triggerMusic]);

  // Turning Karen Mode off stops the music: its player goes with it, so
  // nothing would be left to pause it with. Turning it on again plays only
  // through the toggle (TURNED_ON), never by itself.
  const on = useKarenMode();
  useEffect(() => {
    if (on) return;
    stopRetries();
    setTriggerMusic(false);
    audioRef.current?.pause();
  }, [on]);

  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    stopRetries();
    if (!playing) {
      audio.volume = KAREN.volume;
      audio.play().catch((error: unknown) => console.warn("The music could not play", error));
    } else {
      audio.pause();
    }
  };

  const music = useSite().karenMusic;
  // A terminal browser would print the fallback sentence in every page's footer.
  const textBrowser = useRouteLoaderData<{ textBrowser?: boolean }>("root")?.textBrowser;
  return (
    <div className={s.player}>
      {/* A new song (the family's upload) needs a new element: an <audio> keeps the source it chose first. */}
      <audio
        key={music.mp3}
        ref={audioRef}
        loop
        preload="none"
        controls={!hydrated}
        aria-label={music.title}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onError={() => console.warn("The Karen Mode music could not be loaded")}
        className={hydrated ? s.hiddenAudio : s.nativeAudio}
      >
        {music.ogg ? <source src={music.ogg} type="audio/ogg" /> : null}
        <source src={music.mp3} type="audio/mpeg" />
        {textBrowser ? null : t("common.karen.noAudio")}
      </audio>
      {hydrated ? (
        <button
          type="button"
          onClick={toggle}
          className={s.playButton}
          aria-label={t(playing ? "common.karen.pauseMusic" : "common.karen.playMusic")}
        >
          <span aria-hidden="true">{playing ? "❚❚" : "▶"}</span> {t(playing ? "common.karen.pause" : "common.karen.play")}
        </button>
      ) : null}
    </div>
  );
}

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
