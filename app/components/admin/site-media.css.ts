import { style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

export const section = style([card, { padding: vars.space.xl, marginBottom: vars.space.xl, scrollMarginTop: vars.space.lg }]);
export const title = style({ marginTop: 0 });

/** What visitors see now: the photo (cropped to a wide box like the home page) or the player. */
export const current = style({ margin: `0 0 ${vars.space.lg}` });
export const preview = style({
  display: "block",
  width: "100%",
  maxWidth: "36rem",
  height: "auto",
  // Where aspect-ratio is not supported the photo keeps its own shape.
  "@supports": { "(aspect-ratio: 1 / 1)": { aspectRatio: "16 / 10", objectFit: "cover" } },
  borderRadius: vars.radius.md,
  background: vars.color.surfaceMuted,
});
export const caption = style({ marginTop: vars.space.xs, color: vars.color.textMuted });
export const audio = style({ display: "block", width: "100%", maxWidth: "36rem", minHeight: vars.layout.tapTarget });

export const fileInput = style({
  display: "block",
  width: "100%",
  minHeight: vars.layout.tapTarget,
  padding: vars.space.xs,
  border: `2px dashed ${vars.color.controlBorder}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  font: "inherit",
  selectors: { "&[aria-invalid='true']": { borderColor: vars.color.danger } },
});

export const resetForm = style({ marginTop: vars.space.md });
