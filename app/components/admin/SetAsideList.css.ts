import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

// The Set aside view: each item folded under one line that says only who
// sent it and who set it aside; the words or the picture only once opened.

/** The line to open an item: a whole row to tap, with the browser's own marker. */
export const summary = style({
  cursor: "pointer",
  minHeight: vars.layout.tapTarget,
  padding: `${vars.space.xs} 0`,
  fontWeight: 600,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});

/** What was set aside, once opened, with its buttons under it. */
export const opened = style({ display: "grid", gap: vars.space.sm, marginTop: vars.space.sm });

export const picture = style({ display: "block", maxWidth: ["20rem", "min(20rem, 100%)"], borderRadius: vars.radius.sm });
