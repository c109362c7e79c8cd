import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

export const hero = style({
  position: "relative",
  minHeight: "calc(100vh - 61px)",
  display: "grid",
  placeItems: "center",
  overflow: "hidden",
  color: vars.color.onHero,
  textAlign: "center",
  "@supports": {
    "(min-height: 100svh)": { minHeight: "calc(100svh - 61px)" },
  },
});

export const background = style({
  position: "absolute",
  top: "-10%",
  right: 0,
  bottom: "-10%",
  left: 0,
  willChange: "transform",
});

export const photo = style({
  width: "100%",
  height: "100%",
  objectFit: "cover",
  display: "block",
});

export const overlay = style({
  position: "absolute",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  background: vars.color.heroOverlay,
});

export const text = style({
  position: "relative",
  padding: `${vars.space.xxl} ${vars.space.md}`,
  maxWidth: "50rem",
});

export const title = style({
  color: vars.color.onHero,
  fontSize: vars.size.hero,
  textShadow: "0 2px 12px rgba(0, 0, 0, 0.45)",
});

// The years (or dates) under the name: quieter than the name, above the subtitle.
export const lifeDates = style({
  fontSize: vars.size.large,
  letterSpacing: "0.05em",
  textShadow: "0 1px 8px rgba(0, 0, 0, 0.5)",
  marginBottom: vars.space.md,
});

export const subtitle = style({
  fontSize: vars.size.large,
  textShadow: "0 1px 8px rgba(0, 0, 0, 0.5)",
  marginBottom: vars.space.xl,
});

export const actions = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  justifyContent: "center",
});
flexGapFallback(actions, vars.space.md, "wrap");

// On the darkened photo the site's blue focus ring would not show: a white one.
globalStyle(`${hero} :focus-visible`, { outlineColor: vars.color.onHero });

export const titleLead = style({ display: "block", fontSize: "0.45em", fontWeight: 400, letterSpacing: "0.04em" });

export const personName = style({ display: "block" });
