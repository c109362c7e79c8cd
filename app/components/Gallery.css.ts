import { keyframes, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { aspectRatioFallback, flexGapFallback } from "~/styles/fallbacks";

export const grid = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "repeat(auto-fill, minmax(10rem, 1fr))",
});

export const tile = style({
  position: "relative",
  aspectRatio: "1 / 1",
  borderRadius: vars.radius.md,
  overflow: "hidden",
  background: vars.color.surfaceMuted,
  boxShadow: vars.shadow.card,
});
aspectRatioFallback(tile, 1);

export const link = style({
  position: "absolute",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  display: "block",
  color: vars.color.onHero,
  selectors: {
    "&:focus-visible": { outline: `4px solid ${vars.color.focus}`, outlineOffset: "-4px" },
  },
});

export const image = style({ width: "100%", height: "100%", objectFit: "cover", display: "block" });

export const placeholder = style({
  display: "grid",
  placeItems: "center",
  height: "100%",
  color: vars.color.textMuted,
  fontWeight: 600,
});

export const playIcon = style({
  position: "absolute",
  top: "50%",
  left: "50%",
  transform: "translate(-50%, -50%)",
  width: "3rem",
  height: "3rem",
  borderRadius: "50%",
  display: "grid",
  placeItems: "center",
  background: vars.color.heroOverlay,
  fontSize: "1.25rem",
});

export const duration = style({
  position: "absolute",
  right: vars.space.xs,
  bottom: vars.space.xs,
  selectors: { '[dir="rtl"] &': { right: "auto", left: vars.space.xs } },
  padding: `2px ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  background: "rgba(0, 0, 0, 0.75)",
  color: "#ffffff",
  fontSize: vars.size.small,
  fontVariantNumeric: "tabular-nums",
});

const pulse = keyframes({ "0%, 100%": { opacity: 1 }, "50%": { opacity: 0.5 } });

export const skeleton = style([
  tile,
  {
    "@media": { "(prefers-reduced-motion: no-preference)": { animation: `${pulse} 1.5s ease-in-out infinite` } },
  },
]);

export const backdrop = style({
  position: "fixed",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  zIndex: 50,
  display: "grid",
  placeItems: "center",
  padding: vars.space.md,
  background: "rgba(10, 8, 6, 0.85)",
});

export const dialog = style({
  width: ["100%", "min(960px, 100%)"],
  maxHeight: "100%",
  overflow: "auto",
  background: vars.color.surface,
  borderRadius: vars.radius.lg,
  padding: vars.space.md,
});

export const dialogHeader = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
  marginBottom: vars.space.sm,
});
flexGapFallback(dialogHeader, vars.space.md);

export const dialogTitle = style({ margin: 0, fontSize: vars.size.large, wordBreak: "break-word", overflowWrap: "anywhere" });

export const dialogFileName = style({
  margin: `0 0 ${vars.space.sm}`,
  color: vars.color.textMuted,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});

export const video = style({ width: "100%", maxHeight: "75vh", background: "#000", borderRadius: vars.radius.sm });
