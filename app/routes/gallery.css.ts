import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
  marginBottom: vars.space.lg,
});
flexGapFallback(toolbar, vars.space.md, "wrap");

export const filters = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm });
flexGapFallback(filters, vars.space.sm, "wrap");

export const player = style({ width: "100%", maxHeight: "75vh", background: "#000", borderRadius: vars.radius.md });

export const photo = style({ maxWidth: "100%", height: "auto", display: "block", margin: "0 auto", borderRadius: vars.radius.md });

export const back = style({ marginTop: vars.space.lg });
