import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const section = style({ display: "grid", gap: vars.space.lg, scrollMarginTop: vars.space.lg });
export const intro = style({ margin: 0 });
export const forms = style({
  display: "grid",
  gap: vars.space.lg,
  gridTemplateColumns: "repeat(auto-fit, minmax(min(20rem, 100%), 1fr))",
  alignItems: "start",
});
/** The new invitation link: framed in the accent colour, the link in a field to select and copy. */
export const invitation = style({
  padding: vars.space.lg,
  border: `2px solid ${vars.color.accent}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
});
export const linkField = style({ fontFamily: "monospace", overflowWrap: "anywhere" });
