import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The note for whoever keeps the site: quiet, below the ways onward, never the first thing a visitor reads. */
export const keeperNote = style({
  marginTop: vars.space.xl,
  color: vars.color.textMuted,
  textAlign: "center",
});
