import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const more = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.md,
  marginTop: vars.space.lg,
});

export const message = style({
  margin: 0,
  color: vars.color.danger,
  fontWeight: 600,
  selectors: { "&:empty": { display: "none" } },
});
