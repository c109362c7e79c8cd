import { useCallback, useEffect, useReducer, useState, type MouseEvent } from "react";
import type { SlideshowItem } from "~/uploads/upload.schema";
import * as ui from "~/styles/ui.css";
import { mergeRotation, REDUCED_MOTION_SLOWDOWN, slideSeconds } from "~/uploads/slideshow";
import * as s from "./Slideshow.css";
import { toggleFullscreen, useFullscreen, usePublishedList, useReducedMotion, useWakeLock } from "./slideshow-hooks";
import { Slide, slideLabel, type Say } from "./SlideshowSlide";
import { useT } from "./useT";

// The reception slideshow (/slideshow): one item per page that refreshes
// itself, so it runs without JavaScript; with it, a live rotation that picks
// up what the family publishes during the reception.

interface SlideshowLinks {
  previous: string;
  next: string;
  pause: string;
  play: string;
}

export interface SlideshowProps {
  /** The item the server rendered, and its place in the list. */
  initial: SlideshowItem | null;
  position: number;
  count: number;
  every: number;
  paused: boolean;
  links: SlideshowLinks;
  personName: string;
  /** The QR corner: the share page's QR code and address, or null. */
  share: { qrSrc: string; address: string } | null;
}

interface State {
  items: SlideshowItem[];
  index: number;
  /** The item fading out under the new one, while it does. */
  leaving: SlideshowItem | null;
  /** Counts changes of the screen, so a timer restarts even when the same item comes back. */
  turn: number;
  paused: boolean;
  /** Whether the list has come from the server (until then the counts are the page's). */
  live: boolean;
  /** What the status line says to screen readers (put in words as it is rendered). */
  announcement: Announcement;
}

type Announcement = { slide: SlideshowItem; position: number; total: number } | "playing" | "paused" | null;

/** The status line's words in the page's language: "Photo shared by Ann, 3 of 12", "Slideshow paused". */
function announce(t: Say, announcement: Announcement): string {
  if (!announcement) return "";
  if (announcement === "playing" || announcement === "paused") return t(`slideshow.${announcement}`);
  const { slide, position, total } = announcement;
  return t("slideshow.announce", { label: slideLabel(t, slide), position, total });
}

type Action =
  | { type: "loaded"; items: SlideshowItem[] }
  | { type: "step"; by: 1 | -1; fade: boolean; manual: boolean }
  | { type: "toggle" }
  | { type: "faded" };

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case "loaded": {
      const merged = mergeRotation(state, action.items);
      const shown = state.items[state.index];
      const changed = merged.removedCurrent || (!shown && merged.items.length > 0);
      return {
        ...state,
        items: merged.items,
        index: merged.index,
        live: true,
        // A deleted item leaves the screen at once, without a fade.
        leaving: changed ? null : state.leaving && merged.items.some((item) => item.id === state.leaving!.id) ? state.leaving : null,
        turn: changed ? state.turn + 1 : state.turn,
      };
    }
    case "step": {
      if (state.items.length < 2) return state;
      const index = (state.index + action.by + state.items.length) % state.items.length;
      const item = state.items[index]!;
      return {
        ...state,
        index,
        leaving: action.fade ? state.items[state.index]! : null,
        turn: state.turn + 1,
        announcement: action.manual ? { slide: item, position: index + 1, total: state.items.length } : null,
      };
    }
    case "toggle":
      return {
        ...state,
        paused: !state.paused,
        turn: state.turn + 1,
        announcement: state.paused ? "playing" : "paused",
      };
    case "faded":
      return state.leaving ? { ...state, leaving: null } : state;
  }
}

export function Slideshow({ initial, position, count, every, paused: startPaused, links, personName, share }: SlideshowProps) {
  const [state, dispatch] = useReducer(reducer, {
    items: initial ? [initial] : [],
    index: 0,
    leaving: null,
    turn: 0,
    paused: startPaused,
    live: false,
    announcement: null,
  });
  const { t } = useT();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const reduced = useReducedMotion();
  const fullscreen = useFullscreen();
  useWakeLock();
  const onList = useCallback((items: SlideshowItem[]) => dispatch({ type: "loaded", items }), []);
  usePublishedList(onList);

  const current = state.items[state.index] ?? null;
  const alone = state.items.length < 2;
  const fade = !reduced;
  const next = useCallback(() => dispatch({ type: "step", by: 1, fade, manual: false }), [fade]);

  // The clock of the show: a photo stays `every` seconds (twice that for
  // visitors who ask for less motion); a video until it ends, or at the
  // latest a little after its length.
  const slowdown = reduced ? REDUCED_MOTION_SLOWDOWN : 1;
  const currentType = current?.type;
  const currentDuration = current?.durationSec ?? null;
  useEffect(() => {
    if (!hydrated || state.paused || alone || !currentType) return;
    const seconds =
      currentType === "VIDEO" ? slideSeconds({ type: "VIDEO", durationSec: currentDuration }, every * slowdown) + 10 : every * slowdown;
    const timer = window.setTimeout(next, seconds * 1000);
    return () => window.clearTimeout(timer);
  }, [hydrated, state.turn, state.paused, alone, currentType, currentDuration, every, slowdown, next]);

  // The next photo is fetched while this one shows, so it is ready to fade in.
  const upcoming = alone ? null : state.items[(state.index + 1) % state.items.length];
  const upcomingImage = upcoming ? (upcoming.type === "VIDEO" ? upcoming.posterUrl : upcoming.imageUrl) : null;
  useEffect(() => {
    if (upcomingImage) new Image().src = upcomingImage;
  }, [upcomingImage]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      switch (event.key) {
        case " ":
        case "Spacebar":
          // A focused button already answers Space itself.
          if (target?.closest("button, input, select, textarea, [contenteditable]")) return;
          event.preventDefault();
          dispatch({ type: "toggle" });
          break;
        case "ArrowLeft":
        case "ArrowRight":
          event.preventDefault();
          dispatch({ type: "step", by: event.key === "ArrowLeft" ? -1 : 1, fade, manual: true });
          break;
        case "f":
        case "F":
          toggleFullscreen();
          break;
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [fade]);

  const onControl = (action: Action) => (event: MouseEvent) => {
    event.preventDefault();
    dispatch(action);
  };

  const shownIndex = state.live ? state.index : position;
  const total = state.live ? state.items.length : count;
  const leaving = fade && state.leaving && state.leaving.id !== current?.id ? state.leaving : null;

  return (
    <div className={s.stage} data-paused={state.paused ? "" : undefined}>
      <section aria-roledescription={t("slideshow.carousel")} aria-label={t("slideshow.description")}>
        <div className={s.controls}>
          {!current ? null : hydrated ? (
            <>
              <button
                type="button"
                className={s.control}
                onClick={onControl({ type: "step", by: -1, fade, manual: true })}
                disabled={alone}
              >
                {t("slideshow.previous")}
              </button>
              <button type="button" className={s.control} onClick={onControl({ type: "toggle" })}>
                {state.paused ? t("slideshow.play") : t("slideshow.pause")}
              </button>
              <button type="button" className={s.control} onClick={onControl({ type: "step", by: 1, fade, manual: true })} disabled={alone}>
                {t("slideshow.next")}
              </button>
              {fullscreen.supported ? (
                <button type="button" className={s.control} onClick={toggleFullscreen} aria-pressed={fullscreen.on}>
                  {t("slideshow.fullScreen")}
                </button>
              ) : null}
            </>
          ) : (
            <>
              <a className={s.control} href={links.previous}>
                {t("slideshow.previous")}
              </a>
              <a className={s.control} href={state.paused ? links.play : links.pause}>
                {state.paused ? t("slideshow.play") : t("slideshow.pause")}
              </a>
              <a className={s.control} href={links.next}>
                {t("slideshow.next")}
              </a>
            </>
          )}
          <p role="status" className={ui.visuallyHidden}>
            {announce(t, state.announcement)}
          </p>
        </div>
        {current ? (
          <div className={s.slides} aria-live="off">
            {leaving ? (
              <Slide key={leaving.id} item={leaving} entering={false} paused loop={false} onEnded={noop} onFaded={noop} t={t} />
            ) : null}
            <div
              key={current.id}
              role="group"
              aria-roledescription={t("slideshow.slide")}
              aria-label={t("slideshow.position", { position: shownIndex + 1, total })}
              data-item-id={current.id}
            >
              <Slide
                item={current}
                entering
                paused={state.paused}
                loop={alone}
                onEnded={next}
                onFaded={() => dispatch({ type: "faded" })}
                t={t}
              />
            </div>
          </div>
        ) : null}
        {current ? (
          <div className={s.caption}>
            <h1 className={s.name}>{personName}</h1>
            {/* A voice's card says who it is from. */}
            {current.type === "AUDIO" ? null : (
              <p className={s.sender}>
                {current.senderName ? t("slideshow.sharedBy", { name: current.senderName }) : t("slideshow.sharedByGuest")}
              </p>
            )}
          </div>
        ) : (
          <div className={s.empty}>
            <h1 className={s.name}>{personName}</h1>
            <p className={s.emptyText}>{t("slideshow.empty")}</p>
          </div>
        )}
      </section>
      {share ? (
        <div className={s.share}>
          <p className={s.shareTitle}>{t("slideshow.shareTitle")}</p>
          <img className={s.qrCode} src={share.qrSrc} alt={t("slideshow.qrAlt", { address: share.address })} width={224} height={224} />
          <p className={s.shareAddress}>{share.address}</p>
        </div>
      ) : null}
    </div>
  );
}

const noop = () => {};
