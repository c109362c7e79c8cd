import { globalStyle, keyframes, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback, RTL } from "~/styles/fallbacks";

const KAREN_ON = 'html[data-karen="on"]';
// One element carries both attributes: html[data-karen="on"][data-karen-theme="disco"].
const DISCO = '[data-karen-theme="disco"]';
const REDUCED = "(prefers-reduced-motion: reduce)";

// The dark red footer of the party style (white text on it is above 9:1).
globalStyle(`${KAREN_ON} #site-footer`, {
  background: "linear-gradient(180deg, #7a0c12 0%, #4d0609 100%)",
  position: "relative",
  zIndex: 2,
});
globalStyle(`${KAREN_ON}${DISCO} #site-footer`, {
  background: "linear-gradient(180deg, #7a0c12 0%, #3a0530 100%)",
});

export const toggleForm = style({ margin: 0 });

export const toggle = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.sm,
  minHeight: vars.layout.tapTarget,
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderRadius: vars.radius.round,
  border: `2px solid ${vars.color.onFooter}`,
  background: "transparent",
  color: vars.color.onFooter,
  font: "inherit",
  fontWeight: 700,
  cursor: "pointer",
  selectors: {
    "&:focus-visible": { outline: `4px solid #ffd60a`, outlineOffset: "3px" },
    '&[aria-pressed="true"]': { background: "#ffd60a", color: "#3b0508", borderColor: "#ffd60a" },
  },
});
flexGapFallback(toggle, vars.space.sm);

export const switchTrack = style({
  position: "relative",
  width: "2.5rem",
  height: "1.4rem",
  borderRadius: "999px",
  background: "rgba(255, 255, 255, 0.35)",
  flexShrink: 0,
});

export const switchThumb = style({
  position: "absolute",
  top: "0.2rem",
  left: "0.2rem",
  width: "1rem",
  height: "1rem",
  borderRadius: "50%",
  background: "currentColor",
  transition: "transform 0.2s ease",
  selectors: {
    [`${toggle}[aria-pressed="true"] &`]: { transform: "translateX(1.1rem)" },
    // Right to left, the switch starts on the right and slides left.
    [`${RTL} &`]: { left: "auto", right: "0.2rem" },
    [`${RTL} ${toggle}[aria-pressed="true"] &`]: { transform: "translateX(-1.1rem)" },
  },
  "@media": { [REDUCED]: { transition: "none" } },
});

export const player = style({
  display: "none",
  alignItems: "center",
  gap: vars.space.sm,
});
globalStyle(`${KAREN_ON} ${player}`, { display: "flex" });

export const nativeAudio = style({ maxWidth: "100%" });
export const hiddenAudio = style({ display: "none" });

export const playButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  minHeight: vars.layout.tapTarget,
  minWidth: "7rem",
  justifyContent: "center",
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderRadius: vars.radius.round,
  border: "none",
  background: "#ffd60a",
  color: "#3b0508",
  font: "inherit",
  fontWeight: 700,
  cursor: "pointer",
  selectors: { "&:focus-visible": { outline: `4px solid ${vars.color.onFooter}`, outlineOffset: "3px" } },
});
flexGapFallback(playButton, vars.space.xs);

export const party = style({
  position: "fixed",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  pointerEvents: "none",
  overflow: "hidden",
  zIndex: 30,
});

const fall = keyframes({
  "0%": { transform: "translateY(-10vh)", opacity: 0 },
  "10%": { opacity: 1 },
  "100%": { transform: "translateY(110vh)", opacity: 0.6 },
});

export const lights = style({
  position: "absolute",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  "@media": { [REDUCED]: { display: "none" } },
});

export const light = style({
  position: "absolute",
  top: 0,
  borderRadius: "50%",
  opacity: 0.85,
  animationName: fall,
  animationTimingFunction: "linear",
  animationIterationCount: "infinite",
});

const spin = keyframes({ from: { transform: "rotate(0deg)" }, to: { transform: "rotate(360deg)" } });

export const mirrorBall = style({
  flexShrink: 0,
  width: "4.5rem",
  height: "4.5rem",
  borderRadius: "50%",
  background: [
    "repeating-linear-gradient(0deg, rgba(255,255,255,0.55) 0 2px, transparent 2px 9px)",
    "repeating-linear-gradient(90deg, rgba(255,255,255,0.55) 0 2px, transparent 2px 9px)",
    "radial-gradient(circle at 35% 30%, #ffffff 0%, #d9d9e3 25%, #8e8ea0 60%, #4a4a5a 100%)",
  ].join(", "),
  boxShadow: "0 0 24px rgba(255, 255, 255, 0.8), 0 0 60px rgba(255, 214, 10, 0.5)",
  animation: `${spin} 4s linear infinite`,
  "@media": { [REDUCED]: { animation: "none" } },
  "::before": {
    content: '""',
    position: "absolute",
    bottom: "100%",
    left: "50%",
    width: "2px",
    height: "4.75rem",
    background: "#c0c0c0",
  },
});

const sweepLeft = keyframes({ "0%, 100%": { transform: "rotate(-25deg)" }, "50%": { transform: "rotate(15deg)" } });
const sweepRight = keyframes({ "0%, 100%": { transform: "rotate(25deg)" }, "50%": { transform: "rotate(-15deg)" } });

const spotlight = style({
  position: "absolute",
  top: "-10vh",
  width: "30vw",
  height: "120vh",
  opacity: 0.35,
  mixBlendMode: "screen",
  "@media": { [REDUCED]: { animation: "none !important" } },
});

export const spotlightLeft = style([
  spotlight,
  {
    left: "5vw",
    transformOrigin: "top center",
    background: "linear-gradient(180deg, rgba(76, 201, 240, 0.9), transparent 80%)",
    clipPath: "polygon(45% 0, 55% 0, 100% 100%, 0 100%)",
    animation: `${sweepLeft} 6s ease-in-out infinite`,
  },
]);

export const spotlightRight = style([
  spotlight,
  {
    right: "5vw",
    transformOrigin: "top center",
    background: "linear-gradient(180deg, rgba(247, 37, 133, 0.9), transparent 80%)",
    clipPath: "polygon(45% 0, 55% 0, 100% 100%, 0 100%)",
    animation: `${sweepRight} 7s ease-in-out infinite`,
  },
]);

export const danceFloor = style({
  position: "absolute",
  left: 0,
  right: 0,
  bottom: 0,
  height: "18vh",
  background: "linear-gradient(0deg, rgba(181, 23, 158, 0.35), transparent)",
});
