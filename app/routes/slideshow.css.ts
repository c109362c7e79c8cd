import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The admin's warning about the QR corner's address: above the stage, across its top. */
export const slideshowWarning = style({
  position: "fixed",
  top: 0,
  left: 0,
  right: 0,
  zIndex: 100,
  padding: vars.space.sm,
});

export const slideshowWarningText = style({
  margin: 0,
  padding: vars.space.md,
  border: `2px solid ${vars.color.danger}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});
