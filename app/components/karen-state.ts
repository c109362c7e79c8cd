import { useFetcher, useRouteLoaderData } from "@remix-run/react";

// What Karen Mode's parts share: the footer's toggle and party
// (KarenMode.tsx, in every page's first JavaScript) and the music player
// fetched once it is on (KarenMusic.tsx).

// Karen Mode constants of the spec (§9).
export const KAREN = {
  volume: 0.7,
  retryDelaysMs: [100, 500, 1000],
  triggerResetMs: 2000,
  scrollDelayMs: 1500,
  lights: 30,
  lightsIntervalMs: 800,
} as const;

export const TURNED_ON = "karen-mode:on";

/** When the visitor last turned Karen Mode on in this page: the music starts only right after (./KarenMusic.tsx). */
export const turnedOn = { at: Number.NEGATIVE_INFINITY };
export const TOGGLE_FETCHER = "karen-mode";

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

export const prefersReducedMotion = () => typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
