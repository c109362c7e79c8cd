import { keyframes, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

const REDUCED = "(prefers-reduced-motion: reduce)";

/** The whole screen, above the page's own background. */
export const stage = style({
  position: "fixed",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  zIndex: 1,
  overflow: "hidden",
  background: vars.color.stage,
  color: vars.color.onStage,
});

export const slides = style({ position: "absolute", top: 0, right: 0, bottom: 0, left: 0 });

const fadeIn = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } });

/** One photo or video filling the screen; a new one fades in over the one before. */
export const slide = style({
  position: "absolute",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  margin: 0,
});

export const entering = style({
  zIndex: 1,
  animation: `${fadeIn} 1.5s ease-in-out both`,
  "@media": { [REDUCED]: { animation: "none" } },
});

export const media = style({
  display: "block",
  width: "100%",
  height: "100%",
  objectFit: "contain",
});

const overlay = style({
  background: vars.color.stageOverlay,
  borderRadius: vars.radius.md,
  padding: `${vars.space.sm} ${vars.space.md}`,
});

/** The person's name, bottom left, always there. */
export const caption = style([
  overlay,
  {
    position: "absolute",
    zIndex: 2,
    left: vars.space.lg,
    bottom: vars.space.lg,
    maxWidth: "60vw",
    // Right to left, the name sits bottom right and the QR corner bottom left.
    selectors: { '[dir="rtl"] &': { left: "auto", right: vars.space.lg } },
  },
]);

export const name = style({
  margin: 0,
  color: vars.color.onStage,
  fontSize: ["2rem", "clamp(1.5rem, 1rem + 2vw, 3rem)"],
});

/** "Shared by Anne": quiet, under the name. */
export const sender = style({
  margin: 0,
  color: vars.color.onStageMuted,
  fontSize: ["1.25rem", "clamp(1.125rem, 0.9rem + 0.8vw, 1.6rem)"],
  // A sender's whole name can be long: it wraps inside the caption rather than running off the screen.
  overflowWrap: "break-word",
});

/**
 * Previous, pause, next and full screen: out of sight on the screen in the
 * room, shown while a mouse is over the page or one of them has the focus
 * (a keyboard or a TV remote's arrows).
 */
export const controls = style({
  position: "absolute",
  zIndex: 3,
  top: vars.space.md,
  right: vars.space.md,
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.sm,
  opacity: 0,
  transition: "opacity 0.3s",
  selectors: {
    [`${stage}:hover &, &:focus-within`]: { opacity: 1 },
    '[dir="rtl"] &': { right: "auto", left: vars.space.md },
  },
  "@media": { [REDUCED]: { transition: "none" } },
});
flexGapFallback(controls, vars.space.sm, "wrap");

export const control = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  minHeight: vars.layout.tapTarget,
  minWidth: vars.layout.tapTarget,
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderRadius: vars.radius.round,
  border: `2px solid ${vars.color.onStageMuted}`,
  background: vars.color.stageOverlay,
  color: vars.color.onStage,
  font: "inherit",
  fontSize: vars.size.base,
  textDecoration: "none",
  cursor: "pointer",
  selectors: {
    "&:focus-visible": { outline: `3px solid ${vars.color.onStage}`, outlineOffset: 2 },
  },
});

/** "Share Photos & Videos": a QR code of the share page, bottom right, dark on white and large enough to read from a few steps away. */
export const share = style({
  position: "absolute",
  zIndex: 2,
  right: vars.space.lg,
  bottom: vars.space.lg,
  selectors: { '[dir="rtl"] &': { right: "auto", left: vars.space.lg } },
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.xs,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  textAlign: "center",
});
flexGapFallback(share, vars.space.xs, "column");

export const shareTitle = style({ margin: 0, fontWeight: 600, fontSize: vars.size.large });

export const shareAddress = style({ margin: 0, fontSize: vars.size.small });

export const qrCode = style({
  display: "block",
  width: ["12rem", "clamp(8rem, 24vh, 18rem)"],
  height: ["12rem", "clamp(8rem, 24vh, 18rem)"],
});

/** Before anything is published: the name and a line saying photos will come. */
export const empty = style({
  position: "absolute",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.md,
  padding: vars.space.xl,
  textAlign: "center",
});
flexGapFallback(empty, vars.space.md, "column");

export const emptyText = style({
  margin: 0,
  color: vars.color.onStageMuted,
  fontSize: vars.size.h3,
});

/**
 * A voice memory: a large, calm card in the middle of the screen, with who
 * it is from and their line, readable from the back of the room. Nothing plays.
 */
export const voiceCard = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.lg,
  boxSizing: "border-box",
  width: "90%",
  maxWidth: "52rem",
  maxHeight: "80%",
  overflow: "hidden",
  padding: `${vars.space.xl} ${vars.space.lg}`,
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.onStageMuted}`,
  background: vars.color.stageOverlay,
  textAlign: "center",
});
flexGapFallback(voiceCard, vars.space.lg, "column");

export const voiceMark = style({
  display: "block",
  width: "4rem",
  height: "4rem",
  color: vars.color.onStageMuted,
});

export const voiceTitle = style({
  margin: 0,
  fontFamily: vars.font.heading,
  color: vars.color.onStage,
  fontSize: ["2.25rem", "clamp(1.75rem, 1rem + 3vw, 3.5rem)"],
  lineHeight: 1.25,
  overflowWrap: "break-word",
  wordBreak: "break-word",
});

/** Their line, under the name: what the voice says, or who it is for. */
export const voiceLine = style({
  margin: 0,
  color: vars.color.onStageMuted,
  fontFamily: vars.font.heading,
  fontStyle: "italic",
  fontSize: ["1.5rem", "clamp(1.25rem, 0.9rem + 1.5vw, 2.25rem)"],
  lineHeight: 1.4,
  whiteSpace: "pre-wrap",
  overflowWrap: "break-word",
  wordBreak: "break-word",
});
