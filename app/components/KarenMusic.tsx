import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useSite } from "~/site/site-view";
import { KAREN, prefersReducedMotion, TURNED_ON, turnedOn, useKarenMode } from "./karen-state";
import { useT } from "./useT";
import * as s from "./KarenMode.css";

// Karen Mode's music player with JavaScript, fetched once Karen Mode is on
// (KarenMode.tsx's MusicPlayer shows the browser's own player until then).

/**
 * The music player once Karen Mode is on: one Play/Pause button whose state
 * follows the audio. It starts by itself only right after the visitor turns
 * Karen Mode on (then too if this module arrived a moment after).
 */
export default function MusicControls() {
  const { t } = useT();
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [triggerMusic, setTriggerMusic] = useState(false);

  useEffect(() => {
    const onTurnedOn = () => {
      // Counted from the toggle's press, which may have come just before this module did.
      const since = Date.now() - turnedOn.at;
      setTriggerMusic(true);
      window.setTimeout(() => setTriggerMusic(false), KAREN.triggerResetMs - since);
      if (!prefersReducedMotion()) {
        window.setTimeout(
          () => document.getElementById("site-footer")?.scrollIntoView({ behavior: "smooth", block: "end" }),
          KAREN.scrollDelayMs - since,
        );
      }
    };
    if (Date.now() - turnedOn.at < KAREN.triggerResetMs) onTurnedOn();
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
        aria-label={music.title}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onError={() => console.warn("The Karen Mode music could not be loaded")}
        className={s.hiddenAudio}
      >
        {music.ogg ? <source src={music.ogg} type="audio/ogg" /> : null}
        <source src={music.mp3} type="audio/mpeg" />
        {textBrowser ? null : t("common.karen.noAudio")}
      </audio>
      {
        <button
          type="button"
          onClick={toggle}
          className={s.playButton}
          aria-label={t(playing ? "common.karen.pauseMusic" : "common.karen.playMusic")}
        >
          <span aria-hidden="true">{playing ? "❚❚" : "▶"}</span> {t(playing ? "common.karen.pause" : "common.karen.play")}
        </button>
      }
    </div>
  );
}
