import { useEffect, useState } from "react";
import type { SlideshowItem } from "~/uploads/upload.schema";
import { POLL_MS } from "~/uploads/slideshow";

// What the reception slideshow asks of the browser: less motion, a screen
// that stays awake, full screen, and the newly published photos.

export function useReducedMotion() {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    const update = () => setReduced(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return reduced;
}

/** Keeps the screen on (Screen Wake Lock API, where there is one); the browser drops the lock when the tab is hidden, so it is asked for again when it is back. */
export function useWakeLock() {
  useEffect(() => {
    const wakeLock = "wakeLock" in navigator ? navigator.wakeLock : undefined;
    if (!wakeLock) return;
    let sentinel: WakeLockSentinel | null = null;
    let stopped = false;
    const acquire = async () => {
      if (stopped || document.visibilityState !== "visible" || (sentinel && !sentinel.released)) return;
      try {
        const lock = await wakeLock.request("screen");
        if (stopped) void lock.release();
        else sentinel = lock;
      } catch (error) {
        // Refused (a low battery, a policy): the show goes on; the screen may sleep.
        console.warn("The screen may go to sleep: no wake lock", error);
      }
    };
    void acquire();
    document.addEventListener("visibilitychange", acquire);
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", acquire);
      void sentinel?.release().catch(() => {});
    };
  }, []);
}

type FullscreenDocument = Document & {
  webkitFullscreenElement?: Element | null;
  webkitExitFullscreen?: () => void;
  webkitFullscreenEnabled?: boolean;
};
type FullscreenElement = HTMLElement & { webkitRequestFullscreen?: () => void };

function fullscreenSupported() {
  const doc = document as FullscreenDocument;
  return !!(doc.fullscreenEnabled || doc.webkitFullscreenEnabled);
}

function isFullscreen() {
  const doc = document as FullscreenDocument;
  return !!(doc.fullscreenElement || doc.webkitFullscreenElement);
}

export function toggleFullscreen() {
  const doc = document as FullscreenDocument;
  const root = document.documentElement as FullscreenElement;
  try {
    if (isFullscreen()) {
      if (doc.exitFullscreen) void doc.exitFullscreen().catch(() => {});
      else doc.webkitExitFullscreen?.();
    } else if (root.requestFullscreen) {
      void root.requestFullscreen().catch(() => {});
    } else {
      root.webkitRequestFullscreen?.();
    }
  } catch {
    // Not allowed here (an embedding frame): the page stays as it is.
  }
}

export function useFullscreen() {
  const [state, setState] = useState({ supported: false, on: false });
  useEffect(() => {
    const update = () => setState({ supported: fullscreenSupported(), on: isFullscreen() });
    update();
    document.addEventListener("fullscreenchange", update);
    document.addEventListener("webkitfullscreenchange", update);
    return () => {
      document.removeEventListener("fullscreenchange", update);
      document.removeEventListener("webkitfullscreenchange", update);
    };
  }, []);
  return state;
}

/** Asks for the published list now and every POLL_MS; a private site that has shut this screen out reloads it (to its passcode page). */
export function usePublishedList(onList: (items: SlideshowItem[]) => void) {
  useEffect(() => {
    let controller: AbortController | null = null;
    const load = async () => {
      controller?.abort();
      const current = (controller = new AbortController());
      try {
        const response = await fetch("/api/slideshow", {
          headers: { Accept: "application/json" },
          cache: "no-cache",
          signal: current.signal,
        });
        if (response.status === 401) return window.location.reload();
        if (!response.ok) throw new Error(`status ${response.status}`);
        const body = (await response.json()) as { items?: unknown };
        if (Array.isArray(body.items)) onList(body.items as SlideshowItem[]);
      } catch (error) {
        // The screen keeps what it has and asks again at the next turn.
        if (!current.signal.aborted) console.warn("The slideshow could not look for new photos", error);
      }
    };
    void load();
    const timer = window.setInterval(load, POLL_MS);
    return () => {
      window.clearInterval(timer);
      controller?.abort();
    };
  }, [onList]);
}
