import { SLIDESHOW_MAX_ITEMS, type SlideshowItem } from "~/uploads/upload.schema";

// Client-safe: the reception slideshow's timing, its address, and how a
// fresh list of published media joins the rotation on the screen.

/** Seconds each photo stays (`?every=N`): 8 unless asked, never faster than 3 s nor slower than 2 minutes. */
const EVERY_SECONDS = { fallback: 8, min: 3, max: 120 } as const;
/** Visitors who ask for less motion get no fades and slower changes. */
export const REDUCED_MOTION_SLOWDOWN = 2;
/** How often the screen asks for newly published media: they show within a minute. */
export const POLL_MS = 30_000;
/** A video plays through, but the show moves on after this long whatever happens (a stalled stream). */
const MAX_VIDEO_SECONDS = 600;
/** With nothing published yet, a browser without JavaScript looks again this often. */
export const EMPTY_REFRESH_SECONDS = 30;

export interface SlideshowOptions {
  /** Seconds per photo. */
  every: number;
  /** The QR corner: "Share Photos & Videos". */
  qr: boolean;
  /** Stopped on one photo (the no-JavaScript Pause link). */
  paused: boolean;
}

/** The page's query: `every` clamped to its bounds (anything not a whole number: the default), `at` a position in the list, `qr=1`, `paused=1`. */
export function slideshowParams(params: URLSearchParams): SlideshowOptions & { at: number } {
  return {
    every: wholeNumber(params.get("every"), EVERY_SECONDS),
    at: wholeNumber(params.get("at"), { fallback: 0, min: 0, max: SLIDESHOW_MAX_ITEMS - 1 }, false),
    qr: params.get("qr") === "1",
    paused: params.get("paused") === "1",
  };
}

/** A whole number within bounds; beyond them clamped (or, with `clamp` false, the fallback); anything else the fallback. */
function wholeNumber(raw: string | null, { fallback, min, max }: { fallback: number; min: number; max: number }, clamp = true) {
  if (raw === null || !/^\d{1,6}$/.test(raw)) return fallback;
  const value = Number(raw);
  if (value >= min && value <= max) return value;
  return clamp ? Math.min(max, Math.max(min, value)) : fallback;
}

/** The page's address for the item at `at`, keeping only what differs from the defaults. */
export function slideshowHref({ at, every, qr, paused }: SlideshowOptions & { at: number }) {
  const params = new URLSearchParams({ at: String(at) });
  if (every !== EVERY_SECONDS.fallback) params.set("every", String(every));
  if (qr) params.set("qr", "1");
  if (paused) params.set("paused", "1");
  return `/slideshow?${params}`;
}

/** How long an item stays on the screen: a photo `every` seconds, a video until it has played through (and at least that). */
export function slideSeconds(item: Pick<SlideshowItem, "type" | "durationSec">, every: number) {
  if (item.type !== "VIDEO" || !item.durationSec) return every;
  return Math.min(MAX_VIDEO_SECONDS, Math.max(every, Math.ceil(item.durationSec) + 1));
}

export interface Rotation {
  items: SlideshowItem[];
  /** The position of the item on the screen. */
  index: number;
}

/**
 * A fresh list from the server joins the rotation on the screen: what is
 * still published keeps its place; what was deleted meanwhile drops out
 * (if it is on the screen, the item after it takes its place); newly
 * published items come right after the one on the screen, so the guest who
 * just shared a photo sees it next. `removedCurrent` says the screen must change now.
 */
export function mergeRotation(current: Rotation, fresh: readonly SlideshowItem[]): Rotation & { removedCurrent: boolean } {
  const freshById = new Map(fresh.map((item) => [item.id, item]));
  const onScreen = current.items[current.index];
  const known = new Set(current.items.map((item) => item.id));
  const added = fresh.filter((item) => !known.has(item.id));
  // What was before the screen's item and is still published.
  const before = current.items.slice(0, current.index).flatMap((item) => freshById.get(item.id) ?? []);
  const after = current.items.slice(current.index + 1).flatMap((item) => freshById.get(item.id) ?? []);
  const kept = onScreen ? freshById.get(onScreen.id) : undefined;
  if (kept) return { items: [...before, kept, ...added, ...after], index: before.length, removedCurrent: false };
  const items = [...before, ...added, ...after];
  return { items, index: before.length < items.length ? before.length : 0, removedCurrent: !!onScreen };
}
