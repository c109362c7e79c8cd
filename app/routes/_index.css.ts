import { globalStyle, style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

export const welcome = style({
  maxWidth: vars.layout.narrow,
  margin: "0 auto",
  padding: `${vars.space.xxl} ${vars.space.md} ${vars.space.xl}`,
  textAlign: "center",
});

export const lead = style({ fontSize: vars.size.large });

export const sections = style({
  maxWidth: vars.layout.content,
  margin: "0 auto",
  padding: `0 ${vars.space.md}`,
  display: "grid",
  gap: vars.space.xl,
});

export const serviceCard = style([
  card,
  {
    textAlign: "center",
    padding: vars.space.xl,
    borderTop: `6px solid ${vars.color.accent}`,
  },
]);

export const serviceTitle = style({
  fontFamily: vars.font.heading,
  fontSize: vars.size.h3,
  color: vars.color.heading,
});

export const details = style({
  display: "grid",
  gap: vars.space.md,
  margin: `0 0 ${vars.space.lg}`,
});

globalStyle(`${details} dt`, {
  fontWeight: 700,
  textTransform: "uppercase",
  letterSpacing: "0.08em",
  fontSize: vars.size.small,
  color: vars.color.textMuted,
});
globalStyle(`${details} dd`, { margin: 0, fontSize: vars.size.large });

export const venue = style({ fontWeight: 600 });

export const serviceLead = style({ fontSize: vars.size.large, margin: `0 0 ${vars.space.md}` });

export const serviceNote = style({ fontStyle: "italic", margin: `${vars.space.md} 0 0` });

export const address = style({ fontStyle: "normal", display: "inline" });

export const ctaGrid = style({
  display: "grid",
  gap: vars.space.xl,
  gridTemplateColumns: ["minmax(0, 1fr)", "repeat(auto-fit, minmax(min(100%, 20rem), 1fr))"],
});

export const ctaCard = style([
  card,
  {
    padding: vars.space.xl,
    textAlign: "center",
    display: "flex",
    flexDirection: "column",
    alignItems: "center",
  },
]);

export const ctaTitle = style({ fontSize: vars.size.h3 });

export const donationCard = style([ctaCard, { background: vars.color.surfaceMuted }]);

export const serviceActions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm });
flexGapFallback(serviceActions, vars.space.sm, "wrap");
