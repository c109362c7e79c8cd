import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

export const more = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.md,
  marginTop: vars.space.lg,
});
flexGapFallback(more, vars.space.md, "wrap");

export const message = style({
  margin: 0,
  color: vars.color.danger,
  fontWeight: 600,
  selectors: { "&:empty": { display: "none" } },
});

/** Page links above a list (the way back to its newest items). */
export const pagesAbove = style([more, { marginTop: 0, marginBottom: vars.space.lg }]);
