import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

export const footer = style({
  flexShrink: 0,
  background: vars.color.footer,
  color: vars.color.onFooter,
  marginTop: vars.space.xxl,
});

export const inner = style({
  maxWidth: vars.layout.content,
  margin: "0 auto",
  padding: `${vars.space.xl} ${vars.space.md}`,
  display: "grid",
  gap: vars.space.md,
  justifyItems: "center",
  textAlign: "center",
});

export const title = style({
  fontFamily: vars.font.heading,
  fontSize: vars.size.h3,
  margin: 0,
});

export const list = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "center",
  gap: vars.space.sm,
});
flexGapFallback(list, vars.space.sm, "wrap");

export const link = style({
  color: vars.color.onFooter,
  display: "inline-flex",
  alignItems: "center",
  minHeight: vars.layout.tapTarget,
  padding: `0 ${vars.space.sm}`,
  selectors: { "&:hover": { color: vars.color.onFooter, textDecorationThickness: "2px" } },
});

/** A link inside a sentence: no padding, so the full stop follows it closely. */
export const emailLink = style({ color: vars.color.onFooter, selectors: { "&:hover": { color: vars.color.onFooter } } });

export const small = style({ fontSize: vars.size.small, margin: 0 });

export const party = style({ display: "flex", flexWrap: "wrap", alignItems: "center", justifyContent: "center", gap: vars.space.md });
flexGapFallback(party, vars.space.md, "wrap");

// The site's blue focus ring is too dark on the footer's brown (2.2:1): a light one there.
globalStyle(`${footer} :focus-visible`, { outlineColor: vars.color.onFooter });
